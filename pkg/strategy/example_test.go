package strategy_test

import (
	"fmt"

	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/collate"
	"github.com/plyproject/ply/pkg/parse"
	"github.com/plyproject/ply/pkg/strategy"
)

// A Walker decides a collated tree: each node by its rule's visitor, the outcomes kept by node ID.
func Example() {
	recorded, _ := parse.Document([]byte(`{apiVersion: v1, kind: ConfigMap, data: {a: "1", b: "2"}}`))
	local, _ := parse.Document([]byte(`{apiVersion: v1, kind: ConfigMap, data: {a: "1", c: "3"}}`))
	live, _ := parse.Document([]byte(`{apiVersion: v1, kind: ConfigMap, data: {a: "1", b: "2", z: "other writer"}}`))
	schema, _ := openapi.Default()
	root, _ := schema.ForKind("v1", "ConfigMap")
	vals, _ := collate.RootValues(recorded, local, live)
	tree, _ := collate.Collate(vals, root, collate.Options{})
	w := strategy.New(strategy.Options{Record: true})
	out, err := w.Walk(tree)
	fmt.Println(string(out.Value.JSON()), err)
	// Output:
	// {"apiVersion":"v1","data":{"a":"1","c":"3","z":"other writer"},"kind":"ConfigMap"} <nil>
}
