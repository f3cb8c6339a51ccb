package strategicpatch_test

import (
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	sp "k8s.io/apimachinery/pkg/util/strategicpatch"

	ply "github.com/plyproject/ply/pkg/strategicpatch"
)

// Maps holding "$patch" (delete, replace, merge or another value) and the other "$" keys in what modified holds where
// the patch writes its value whole: a list without merge strategy (a Pod's tolerations, a field the schema does not
// declare), a keyed list without items to pair (an item lacking its key beside), a list or map below an item new to
// original and current. The two-way patch writes them as they stand; kubectl's merge of the three-way patch's halves
// takes the delta's value, where the deletions half lacks the field, less every map holding "$patch" (at any depth),
// and keeps it as it stands where both halves hold the list; "$retainKeys", "$setElementOrder/<f>" and
// "$deleteFromPrimitiveList/<f>" stay. Not overwriting, where the list so emptied meets current's changes holding an
// empty list, strategicpatch's conflict check fails ("no elements in any of the given slices"), and so does the
// drop-in, whether the list is reached through maps, through the items of a keyed list written whole, or through an item
// of a list merged by key that both halves hold (the merge merges the delta's item into the deletions' one, cleaning
// the fields the deletions' item lacks). Each shape has one answer: kubectl's check walks Go maps, so a conflict met
// elsewhere could come first. Under OpenAPI v3, v2 and Go struct tags; two-way, and three-way overwriting and not.
var _ = DescribeTable("pkg/strategicpatch's patches of modified's maps holding directives in values written whole, as strategicpatch's",
	func(original, modified, current string) {
		for _, directive := range []string{"delete", "replace", "merge", "x"} {
			By("$patch: " + directive)
			createsAsStrategicpatch(original, fmt.Sprintf(modified, directive), current)
		}
	},
	Entry("an atomic list new to original and current",
		`{"spec":{}}`,
		`{"spec":{"tolerations":[{"key":"k"},{"$patch":%q,"key":"d"}]}}`,
		`{"spec":{}}`),
	Entry("an atomic list that original and current hold",
		`{"spec":{"tolerations":[{"key":"k"}]}}`,
		`{"spec":{"tolerations":[{"$patch":%q,"key":"d"}]}}`,
		`{"spec":{"tolerations":[{"key":"k"}]}}`),
	Entry("an atomic list original holds and current lacks: a conflict",
		`{"spec":{"tolerations":[{"key":"k"}]}}`,
		`{"spec":{"tolerations":[{"$patch":%q}]}}`,
		`{"spec":{}}`),
	Entry("an atomic list emptied, current's empty: the conflict check fails",
		`{"spec":{}}`,
		`{"spec":{"tolerations":[{"$patch":%q,"key":"d"}]}}`,
		`{"spec":{"tolerations":[]}}`),
	Entry("a map holding it in an atomic list's item",
		`{"spec":{}}`,
		`{"spec":{"tolerations":[{"key":"k","sub":{"$patch":%q}}]}}`,
		`{"spec":{}}`),
	Entry("a field the schema does not declare",
		`{"spec":{}}`,
		`{"spec":{"extra":[{"a":1},{"$patch":%q,"a":2}]}}`,
		`{"spec":{}}`),
	Entry("a keyed list without items to pair, the item without its key",
		`{"spec":{}}`,
		`{"spec":{"containers":[{"name":"a"},{"$patch":%q}]}}`,
		`{"spec":{}}`),
	Entry("a keyed list without items to pair, original's and current's empty",
		`{"spec":{"containers":[]}}`,
		`{"spec":{"containers":[{"$patch":%q}]}}`,
		`{"spec":{"containers":[]}}`),
	Entry("a keyed list without items to pair emptied, current's empty: the conflict check fails",
		`{"spec":{}}`,
		`{"spec":{"containers":[{"$patch":%q}]}}`,
		`{"spec":{"containers":[]}}`),
	Entry("a keyed list without items to pair, a map holding it in an item",
		`{"spec":{}}`,
		`{"spec":{"containers":[{"name":"a"},{"image":"x","sub":{"$patch":%q}}]}}`,
		`{"spec":{}}`),
	Entry("a keyed list without items to pair of an item new to original and current",
		`{"spec":{"containers":[{"name":"a"}]}}`,
		`{"spec":{"containers":[{"name":"a"},{"name":"b","ports":[{"name":"p1"},{"$patch":%q,"name":"p2"}]}]}}`,
		`{"spec":{"containers":[{"name":"a"}]}}`),
	Entry("a keyed list without items to pair of an item new to original and current, the deletions half holding the outer list: kept",
		`{"spec":{"containers":[{"name":"a"},{"name":"z"}]}}`,
		`{"spec":{"containers":[{"name":"a"},{"name":"b","ports":[{"$patch":%q,"name":"p2"}]}]}}`,
		`{"spec":{"containers":[{"name":"a"},{"name":"z"}]}}`),
	Entry("an atomic list of an item new to original and current, the deletions half holding its map",
		`{"spec":{"containers":[{"name":"a"}],"hostname":"h"}}`,
		`{"spec":{"containers":[{"name":"a"},{"name":"b","x":[{"$patch":%q}]}]}}`,
		`{"spec":{"containers":[{"name":"a"}]}}`),
	Entry("an atomic list of an item both halves hold (a field of it deleted): cleaned",
		`{"spec":{"containers":[{"name":"a","image":"i"}]}}`,
		`{"spec":{"containers":[{"name":"a","envFrom":[{"$patch":%q}]}]}}`,
		`{"spec":{"containers":[{"name":"a","image":"i"}]}}`),
	Entry("an atomic list of an item both halves hold emptied, current's empty: the conflict check fails",
		`{"spec":{"containers":[{"name":"a","image":"i"}]}}`,
		`{"spec":{"containers":[{"name":"a","envFrom":[{"$patch":%q}]}]}}`,
		`{"spec":{"containers":[{"name":"a","image":"i","envFrom":[]}]}}`),
	Entry("a keyed list without items to pair of an item both halves hold emptied, current's empty: the conflict check fails",
		`{"spec":{"containers":[{"name":"a","image":"i"}]}}`,
		`{"spec":{"containers":[{"name":"a","ports":[{"$patch":%q}]}]}}`,
		`{"spec":{"containers":[{"name":"a","image":"i","ports":[]}]}}`),
	Entry("an atomic list of an item of a keyed list new to original emptied, current's empty: the conflict check fails",
		`{"spec":{}}`,
		`{"spec":{"containers":[{"name":"a","envFrom":[{"$patch":%q}]}]}}`,
		`{"spec":{"containers":[{"name":"a","envFrom":[]}]}}`),
	Entry("below a retainKeys map of an item original and current hold",
		`{"spec":{"volumes":[{"name":"v"}]}}`,
		`{"spec":{"volumes":[{"name":"v","hostPath":{"path":"p","x":[{"$patch":%q}]}}]}}`,
		`{"spec":{"volumes":[{"name":"v"}]}}`),
)

// The other "$" keys in such values are written as they stand, by the two-way and the three-way patch.
var _ = DescribeTable("pkg/strategicpatch's patches of modified's other directive keys in values written whole, as strategicpatch's",
	createsAsStrategicpatch,
	Entry("$retainKeys in an atomic list's item",
		`{"spec":{}}`,
		`{"spec":{"tolerations":[{"key":"k","$retainKeys":["key"]}]}}`,
		`{"spec":{}}`),
	Entry("$setElementOrder in an atomic list's item",
		`{"spec":{"tolerations":[{"key":"k"}]}}`,
		`{"spec":{"tolerations":[{"key":"k","$setElementOrder/x":[1]}]}}`,
		`{"spec":{"tolerations":[{"key":"k"}]}}`),
	Entry("$deleteFromPrimitiveList in a keyed list's item without items to pair",
		`{"spec":{"containers":[]}}`,
		`{"spec":{"containers":[{"image":"x","$deleteFromPrimitiveList/args":["a"]}]}}`,
		`{"spec":{}}`),
	Entry("beside a map holding $patch",
		`{"spec":{}}`,
		`{"spec":{"tolerations":[{"key":"k","$retainKeys":["key"],"sub":{"$patch":"delete"}}]}}`,
		`{"spec":{"containers":[]}}`),
)

// A map of modified's that the drop-in collates (a map value, an item of a keyed list with its key) holding a
// directive key is refused, naming the path, where strategicpatch's two-way patch copies it (so the server acts on
// it) and its three-way patch drops a map holding "$patch" (class directive-in-object, docs/strategicpatch.md).
var _ = DescribeTable("pkg/strategicpatch refuses a directive in a map of modified that it collates",
	func(original, modified string) {
		for name, meta := range nullKeyMetas() {
			_, werr := sp.CreateTwoWayMergePatchUsingLookupPatchMeta([]byte(original), []byte(modified), meta)
			Expect(werr).NotTo(HaveOccurred(), name)
			_, werr = sp.CreateThreeWayMergePatch([]byte(original), []byte(modified), []byte(original), meta, true)
			Expect(werr).NotTo(HaveOccurred(), name)
			_, err := ply.CreateTwoWayMergePatchUsingLookupPatchMeta([]byte(original), []byte(modified), meta)
			Expect(err).To(MatchError(ContainSubstring("is a strategic merge patch directive, not configuration")), name)
			_, err = ply.CreateThreeWayMergePatch([]byte(original), []byte(modified), []byte(original), meta, true)
			Expect(err).To(MatchError(ContainSubstring("is a strategic merge patch directive, not configuration")), name)
		}
	},
	Entry("$patch: delete in a map", `{"spec":{}}`, `{"spec":{"securityContext":{"$patch":"delete"}}}`),
	Entry("$patch: replace in a map original holds", `{"spec":{"securityContext":{"runAsUser":1}}}`, `{"spec":{"securityContext":{"$patch":"replace","runAsGroup":2}}}`),
	Entry("$patch: delete in a keyed item", `{"spec":{"containers":[{"name":"a"}]}}`, `{"spec":{"containers":[{"name":"a"},{"$patch":"delete","name":"d"}]}}`),
	Entry("$patch in a keyed list without items to pair, its items keyed", `{"spec":{}}`, `{"spec":{"containers":[{"$patch":"replace","name":"d"}]}}`),
	Entry("$retainKeys in a keyed item", `{"spec":{}}`, `{"spec":{"containers":[{"name":"d","$retainKeys":["name"]}]}}`),
	Entry("$setElementOrder in a map", `{"spec":{}}`, `{"spec":{"$setElementOrder/containers":[{"name":"a"}]}}`),
	Entry("$deleteFromPrimitiveList in a keyed item", `{"spec":{}}`, `{"spec":{"containers":[{"name":"d","$deleteFromPrimitiveList/args":["a"]}]}}`),
)
