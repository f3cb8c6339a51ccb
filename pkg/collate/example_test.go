package collate_test

import (
	"fmt"

	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/collate"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/parse"
)

// Collate builds one tree of the three sources of a Deployment: nodes local sets are collated below, list items are
// matched by their merge key (containers by name), and the rest are leaves.
func Example() {
	recorded, _ := parse.Document([]byte(`{apiVersion: apps/v1, kind: Deployment, spec: {template: {spec: {containers: [{name: a, image: "a:1"}]}}}}`))
	local, _ := parse.Document([]byte(`{apiVersion: apps/v1, kind: Deployment, spec: {template: {spec: {containers: [{name: a, image: "a:2"}]}}}}`))
	live, _ := parse.Document([]byte(`{apiVersion: apps/v1, kind: Deployment, spec: {replicas: 2, template: {spec: {containers: [{name: a, image: "a:1"}]}}}}`))
	schema, _ := openapi.Default()
	root, _ := schema.ForKind("apps/v1", "Deployment")
	vals, _ := collate.RootValues(recorded, local, live)
	tree, _ := collate.Collate(vals, root, collate.Options{})
	var show func(e elements.Element)
	show = func(e elements.Element) {
		fmt.Printf("%d %T %s\n", e.Base().ID, e, e.Base().Path())
		switch e := e.(type) {
		case *elements.MapElement:
			for _, f := range e.Fields {
				show(f.Element)
			}
		case *elements.ListElement:
			for _, it := range e.Items {
				show(it.Element)
			}
		}
	}
	show(tree)
	// Output:
	// 0 *elements.MapElement .
	// 1 *elements.AtomicElement apiVersion
	// 2 *elements.AtomicElement kind
	// 3 *elements.MapElement spec
	// 4 *elements.AtomicElement spec.replicas
	// 5 *elements.MapElement spec.template
	// 6 *elements.MapElement spec.template.spec
	// 7 *elements.ListElement spec.template.spec.containers
	// 8 *elements.MapElement spec.template.spec.containers[name=a]
	// 9 *elements.AtomicElement spec.template.spec.containers[name=a].image
	// 10 *elements.AtomicElement spec.template.spec.containers[name=a].name
}
