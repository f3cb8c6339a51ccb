package engine_test

import (
	"encoding/json"
	"reflect"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/pkg/strategicpatch/engine"
)

// spineSchema is a Deployment's shape: spec.template.spec.containers merged by name, spec.strategy of strategy
// retainKeys, spec.selector of strategy replace, metadata without schema below; it fails for the keys it does not
// declare.
var spineSchema = strict{
	"kind":     {},
	"metadata": {sub: lookup{}},
	"spec": {sub: strict{
		"replicas": {},
		"strategy": {sub: lookup{}, meta: engine.Meta{Strategies: []string{"retainKeys"}}},
		"selector": {sub: lookup{}, meta: engine.Meta{Strategies: []string{"replace"}}},
		"template": {sub: strict{
			"metadata": {sub: lookup{}},
			"spec": {sub: strict{
				"hostname":   {},
				"subdomain":  {},
				"containers": {sub: lookup{}, meta: engine.Meta{Strategies: []string{"merge"}, MergeKey: "name"}},
			}},
		}},
	}},
}

// spineCases are testdata/spine.yaml's cases.
func spineCases() []scopedCase { return readScopedCases("testdata/spine.yaml") }

// expectWhole expects ApplyMap of original and patch under l to give what converting them whole gives, its error
// or its result, and to leave its arguments as they were.
func expectWhole(o engine.Options, original, patch map[string]interface{}, l engine.Lookup) {
	before, _ := json.Marshal([]interface{}{original, patch})
	got, err := o.ApplyMap(original, patch, l)
	want, wantErr := o.ApplyMapWhole(original, patch, l)
	after, _ := json.Marshal([]interface{}{original, patch})
	Expect(string(after)).To(Equal(string(before)), "the arguments are left as they were")
	Expect(errText(err)).To(Equal(errText(wantErr)))
	Expect(reflect.DeepEqual(got, want)).To(BeTrue(), "spine %v\nwhole %v", got, want)
	expectEngine(o, original, patch, l, got, err)
}

// expectEngine expects got and err, ApplyMap's of original and patch under l, to be what the engine run on the whole
// documents gives (the Go types of the values included).
func expectEngine(o engine.Options, original, patch map[string]interface{}, l engine.Lookup, got map[string]interface{}, err error) {
	want, wantErr := o.ApplyMapEngine(original, patch, l)
	Expect(errText(err)).To(Equal(errText(wantErr)))
	Expect(reflect.DeepEqual(got, want)).To(BeTrue(), "spine %#v\nengine %#v", got, want)
}

var _ = Describe("ApplyMap through maps with one patched field each", func() {
	on := features.Gates{}
	for _, c := range spineCases() {
		It("gives the result of converting the documents whole: "+c.Name, func() {
			for _, o := range []engine.Options{{}, {Gates: &on}} {
				expectWhole(o, c.Original, c.Patch, spineSchema)
			}
		})
	}

	It("keeps original's int where the patch sets the int64 of its value, as the engine does", func() {
		original := map[string]interface{}{"spec": map[string]interface{}{"replicas": 3, "template": map[string]interface{}{"spec": map[string]interface{}{"hostname": 1}}}}
		for _, patch := range []map[string]interface{}{
			{"spec": map[string]interface{}{"replicas": int64(3)}},
			{"spec": map[string]interface{}{"replicas": int64(4)}},
			{"spec": map[string]interface{}{"template": map[string]interface{}{"spec": map[string]interface{}{"hostname": int64(1)}}}},
		} {
			got, err := engine.Options{}.ApplyMap(original, patch, spineSchema)
			expectEngine(engine.Options{}, original, patch, spineSchema, got, err)
		}
	})

	It("bounds the documents' nesting from their top, as converting them whole does", func() {
		for _, depth := range []int{996, 997, 998, 999, 1000, 1001, 1002} {
			original, patch := nested(depth, map[string]interface{}{"a": "1", "b": "2"}), nested(depth, map[string]interface{}{"a": "x"})
			expectWhole(engine.Options{}, original, patch, lookup{})
			original, patch = nested(depth-2, map[string]interface{}{"a": nested(2, nil)}), nested(depth-2, map[string]interface{}{"a": "x"})
			expectWhole(engine.Options{}, original, patch, lookup{})
		}
	})
})

// nested returns leaf under depth maps of one field "k".
func nested(depth int, leaf map[string]interface{}) map[string]interface{} {
	m := leaf
	if m == nil {
		m = map[string]interface{}{}
	}
	for range depth {
		m = map[string]interface{}{"k": m}
	}
	return m
}
