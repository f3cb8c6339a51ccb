package patch_test

import (
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/pkg/patch"
	"github.com/plyproject/ply/test/jsonv"
)

// Compose of a second patch naming a part's key twice, its repeat holding a "$retainKeys" or "$setElementOrder/<f>"
// the first patch's part holds otherwise in a map of the repeat's (or a "$" field of it holding such a map), and a
// field before that map, by name, that fails composed onto the first patch's part (a set of another class, a keyed
// item without its key, a live null in a merged list, an order of a list without items, a map holding an unknown
// "$patch" over a map): Compose fails as the Composes in turn fail, at whichever of the two a collation of the repeat
// with its key's outcome as live meets first (the field, by name, before the map; a map's "$" keys compared before its
// fields), the error naming wantAt.
var _ = Describe("Compose of a repeat whose map disagrees on a directive after a field that fails", func() {
	DescribeTable("fails as the Composes in turn, at the first failure by name",
		func(held, item, wantAt string) {
			schema, err := openapi.LoadV2Named("nested.json", mustRead(filepath.Join("testdata", "nested.json")))
			Expect(err).NotTo(HaveOccurred())
			t, ok := schema.Kubectl().ByName("dev.ply.nested.v1.Top")
			Expect(ok).To(BeTrue())
			gates := features.Kubectl()
			first := jsonv.MustDecode(`{"groups":[{"name":"g","parts":[` + held + `]}]}`)
			second := jsonv.MustDecode(`{"groups":[{"name":"g","parts":[{"name":"p"},` + item + `]}]}`)
			got, err := patch.Compose(first, second, t, gates)
			mid, midErr := patch.Compose(first, jsonv.MustDecode(`{"groups":[{"name":"g","parts":[{"name":"p"}]}]}`), t, gates)
			Expect(midErr).NotTo(HaveOccurred())
			want, wantErr := patch.Compose(mid, jsonv.MustDecode(`{"groups":[{"name":"g","parts":[`+item+`]}]}`), t, gates)
			Expect(wantErr).To(MatchError(ContainSubstring(wantAt)))
			expectComposedInTurn(got, err, want, wantErr, first, second)
		},
		Entry("a map holding an unknown \"$patch\" over a map, before a map disagreeing on \"$retainKeys\" beside it",
			`{"name":"p","x":{"a":{"b":1},"q":{"$retainKeys":["d"]}}}`,
			`{"name":"p","x":{"a":{"$patch":"bogus"},"q":{"$retainKeys":["c"]}}}`,
			"parts[name=p].x.a: unknown $patch value bogus"),
		Entry("a set of another class than the first's, before a map disagreeing on \"$retainKeys\"",
			`{"name":"p","ports":[1],"zz":{"$retainKeys":["c"]}}`,
			`{"name":"p","ports":["a"],"zz":{"$retainKeys":["b"]}}`,
			"parts[name=p].ports: the patch's items are strings but live's are numbers"),
		Entry("a keyed item without its key, before a map of a map disagreeing on \"$retainKeys\"",
			`{"name":"p","env":[{"name":"A","value":"v"}],"extra":{"zz":{"$retainKeys":["c"]}}}`,
			`{"name":"p","env":[{"value":"x"}],"extra":{"zz":{"$retainKeys":["a"],"a":1}}}`,
			`parts[name=p].env: item 0 has no merge key field "name"`),
		Entry("a set the first patch holds with a null, before a map disagreeing on \"$retainKeys\"",
			`{"name":"p","aliases":[null],"zz":{"$retainKeys":["c"]}}`,
			`{"name":"p","aliases":["a"],"zz":{"$retainKeys":["a"],"a":1}}`,
			"parts[name=p].aliases: the patch's items are strings but live's are nulls"),
		Entry("a set of another class in the map, before a map of it disagreeing on \"$retainKeys\"",
			`{"name":"p","extra":{"tags":["a"],"zz":{"$retainKeys":["c"]}}}`,
			`{"name":"p","extra":{"tags":[1],"zz":{"$retainKeys":["b"]}}}`,
			"parts[name=p].extra.tags: the patch's items are numbers but live's are strings"),
		Entry("an order of a list without items, before a map disagreeing on \"$setElementOrder\"",
			`{"name":"p","extra":{"$setElementOrder/tags":["b"],"tags":["b"]}}`,
			`{"name":"p","$setElementOrder/aliases":["a"],"aliases":[],"extra":{"$setElementOrder/tags":["a"],"tags":["a"]}}`,
			"parts[name=p].aliases: $setElementOrder/aliases orders a list that has no items"),
		Entry("a \"$\" field's map disagreeing on \"$retainKeys\", before a list it holds empty and orders",
			`{"name":"p","$x":{"$retainKeys":["d"]}}`,
			`{"name":"p","$setElementOrder/aliases":["b","a"],"$x":{"$retainKeys":["c"]},"aliases":[]}`,
			"parts[name=p].$x: $retainKeys differs from the first patch's"),
		Entry("a map disagreeing on \"$retainKeys\" before a map holding an unknown \"$patch\" (the disagreement first)",
			`{"name":"p","x":{"q":{"$retainKeys":["d"]}},"zz":{"a":{"b":1}}}`,
			`{"name":"p","value":"w","x":{"q":{"$retainKeys":["c"]}},"zz":{"a":{"$patch":"bogus"}}}`,
			"parts[name=p].x.q: $retainKeys differs from the first patch's"),
		Entry("a set of another class after a map disagreeing on \"$retainKeys\" (the disagreement first)",
			`{"name":"p","extra":{"zz":{"$retainKeys":["c"]}},"ports":[1]}`,
			`{"name":"p","extra":{"zz":{"$retainKeys":["b"]}},"ports":["a"]}`,
			"parts[name=p].extra.zz: $retainKeys differs from the first patch's"),
		Entry("the first patch's \"$setElementOrder\" of a set, before the part's own order of another list it holds without items (the disagreement first)",
			`{"name":"p","$setElementOrder/ports":[2],"ports":[2]}`,
			`{"name":"p","$setElementOrder/aliases":["a"],"$setElementOrder/ports":[1],"aliases":[],"ports":[1]}`,
			"parts[name=p]: $setElementOrder/ports differs from the first patch's"),
	)
})
