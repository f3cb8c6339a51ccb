package cluster

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	jsonpatch "gopkg.in/evanphx/json-patch.v4"

	"github.com/plyproject/ply/pkg/parse"
	"github.com/plyproject/ply/pkg/value"
)

// serverMerge applies patch to live as the API server applies a JSON merge
// patch (the library it uses), and returns the result.
func serverMerge(live, patch value.Value) (value.Value, error) {
	out, err := jsonpatch.MergePatch(live.JSON(), patch.JSON())
	if err != nil {
		return value.Null, err
	}
	return parse.Document(out)
}

// withoutNulls returns v without its map keys whose value is null: what
// the server stores of v.
func withoutNulls(v value.Value) value.Value {
	switch {
	case v.IsMap():
		var fields []value.Field
		for _, f := range v.Fields() {
			if !f.Value.IsNull() {
				fields = append(fields, value.Field{Key: f.Key, Value: withoutNulls(f.Value)})
			}
		}
		return value.MapFromSorted(fields)
	case v.IsList():
		items := make([]value.Value, v.Len())
		for i, it := range v.Items() {
			items[i] = withoutNulls(it)
		}
		return value.List(items)
	}
	return v
}

var _ = Describe("the update patch (the patch verb)", func() {
	DescribeTable("is the merge patch that turns live into merged, with the resourceVersion read as its precondition",
		func(live, merged, want string) {
			p := updatePatch(doc(live), doc(merged), "7")
			Expect(string(p.JSON())).To(MatchJSON(want))
			got, err := serverMerge(doc(live), p)
			Expect(err).NotTo(HaveOccurred())
			Expect(value.Equal(got.Without("metadata"), doc(merged).Without("metadata"))).To(BeTrue(), "%s", got.JSON())
		},
		Entry("nothing changed", `{"metadata":{"name":"a","resourceVersion":"7"},"data":{"x":"1"}}`,
			`{"metadata":{"name":"a","resourceVersion":"7"},"data":{"x":"1"}}`, `{"metadata":{"resourceVersion":"7"}}`),
		Entry("a key changed, one removed, one added", `{"metadata":{"name":"a"},"data":{"x":"1","y":"2"}}`,
			`{"metadata":{"name":"a"},"data":{"x":"3","z":"4"}}`, `{"metadata":{"resourceVersion":"7"},"data":{"x":"3","y":null,"z":"4"}}`),
		Entry("a list is replaced whole", `{"spec":{"ports":[{"port":1},{"port":2}]}}`,
			`{"spec":{"ports":[{"port":2}]}}`, `{"metadata":{"resourceVersion":"7"},"spec":{"ports":[{"port":2}]}}`),
		Entry("a map becomes a scalar and a scalar a map", `{"a":{"b":1},"c":2}`,
			`{"a":1,"c":{"d":2}}`, `{"metadata":{"resourceVersion":"7"},"a":1,"c":{"d":2}}`),
		Entry("a whole map removed", `{"metadata":{"labels":{"a":"b"}}}`, `{"metadata":{}}`,
			`{"metadata":{"labels":null,"resourceVersion":"7"}}`),
	)
})

// FuzzMergePatch checks that the server, applying mergePatch(live,
// merged) to live, holds merged (without its null keys, which it does not
// store) for any two objects.
func FuzzMergePatch(f *testing.F) {
	f.Add([]byte(`{"a":{"b":1,"c":[1,2]},"d":"x"}`), []byte(`{"a":{"c":[2]},"e":null}`))
	f.Add([]byte(`{"a":null}`), []byte(`{"a":{"b":{"c":null}}}`))
	f.Fuzz(func(t *testing.T, a, b []byte) {
		live, err := parse.Document(a)
		if err != nil || !live.IsMap() {
			return
		}
		merged, err := parse.Document(b)
		if err != nil || !merged.IsMap() {
			return
		}
		live = withoutNulls(live)
		got, err := serverMerge(live, mergePatch(live, merged))
		if err != nil {
			t.Fatalf("the server cannot apply the patch: %v", err)
		}
		if want := withoutNulls(merged); !value.Equal(got, want) {
			t.Fatalf("patched live is %s, want %s", got.JSON(), want.JSON())
		}
	})
}
