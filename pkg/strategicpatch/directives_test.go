package strategicpatch_test

import (
	"encoding/json"
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	sp "k8s.io/apimachinery/pkg/util/strategicpatch"

	"github.com/plyproject/ply/pkg/features"
	ply "github.com/plyproject/ply/pkg/strategicpatch"
	"github.com/plyproject/ply/pkg/strategicpatch/engine"
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

// Directive keys in the maps of modified that the drop-in collates (a map value, an item of a keyed list named by its
// key), at any depth, and in those of original and current: with every gate off the drop-in's patches and errors are
// strategicpatch's. Its diffs read such a key as data, but "$patch" where both documents compared hold it (a change of
// value written, by the deletions half too; either not a string: "invalid value for special key"); its merge of the
// three-way patch's halves reads the delta's "$patch" where the deletions half holds the map too ("replace": the
// delta's map, "delete": {}, another value fails) and the delta's "$patch" items of a keyed list both halves hold
// ("replace": the delta's other items, "delete": no item of its key, another value fails), and drops a map holding
// "$patch" where the deletions half lacks the field; at a map both halves hold it checks the delta's "$retainKeys"
// against the deletions half's (a retainKeys item's generated one) and each "$setElementOrder/<f>" of the delta's
// (against the deletions half's, a list, naming a list, naming the delta's list <f> in order). A "$setElementOrder/<f>"
// of another value beside a list the two-way diff orders is left out (strategicpatch's answer there follows Go's map
// order). Not overwriting, the conflict check compares the patch so merged.
// With ply's gates on, modified holding such a key is refused, naming the path (refused). Under OpenAPI v3, v2 and Go
// struct tags; two-way (bytes and maps), and three-way overwriting and not.
var _ = DescribeTable("pkg/strategicpatch's patches of directive keys in maps it collates, as strategicpatch's",
	func(original, modified, current string, refused bool) {
		createsAsStrategicpatch(original, modified, current)
		for name, meta := range nullKeyMetas() {
			want, werr := sp.CreateTwoWayMergeMapPatchUsingLookupPatchMeta(jsonMap(original), jsonMap(modified), meta)
			got, err := ply.CreateTwoWayMergeMapPatchUsingLookupPatchMeta(jsonMap(original), jsonMap(modified), meta)
			if werr != nil {
				Expect(err).To(MatchError(werr.Error()), name+" (maps)")
			} else {
				Expect(err).NotTo(HaveOccurred(), name+" (maps)")
				Expect(got).To(Equal(want), name+" (maps)")
			}
		}
		if !refused {
			return
		}
		on := features.Gates{}
		for name, meta := range nullKeyMetas() {
			_, err := engine.Options{Gates: &on}.TwoWayJSON([]byte(original), []byte(modified), ply.Lookup(meta))
			Expect(err).To(MatchError(ContainSubstring("is a strategic merge patch directive, not configuration")), name)
			_, err = engine.Options{Gates: &on}.ThreeWayJSON([]byte(original), []byte(modified), []byte(current), ply.Lookup(meta), true)
			Expect(err).To(MatchError(ContainSubstring("is a strategic merge patch directive, not configuration")), name)
		}
	},
	Entry("$patch: delete in a map original holds (the deletions half holds it: {})",
		`{"spec":{"securityContext":{"runAsUser":1}}}`, `{"spec":{"securityContext":{"$patch":"delete"}}}`, `{"spec":{"securityContext":{"runAsUser":1}}}`, true),
	Entry("$patch: delete in a map new to original and current (dropped)",
		`{"spec":{}}`, `{"spec":{"securityContext":{"$patch":"delete"}}}`, `{"spec":{}}`, true),
	Entry("$patch: replace in a map original holds (the delta's map)",
		`{"spec":{"securityContext":{"runAsUser":1}}}`, `{"spec":{"securityContext":{"$patch":"replace","runAsGroup":2}}}`, `{"spec":{"securityContext":{"runAsUser":1}}}`, true),
	Entry("$patch: merge in a map the deletions half lacks",
		`{"spec":{"securityContext":{"runAsUser":1}}}`, `{"spec":{"securityContext":{"$patch":"merge","runAsUser":1,"runAsGroup":2}}}`, `{"spec":{"securityContext":{"runAsUser":1}}}`, true),
	Entry("$patch: merge in a map the deletions half holds: the merge fails",
		`{"spec":{"securityContext":{"runAsUser":1}}}`, `{"spec":{"securityContext":{"$patch":"merge","runAsGroup":2}}}`, `{"spec":{"securityContext":{"runAsUser":1}}}`, true),
	Entry("$patch of an unknown value in a map the deletions half holds: the merge fails",
		`{"spec":{"securityContext":{"runAsUser":1}}}`, `{"spec":{"securityContext":{"$patch":"x"}}}`, `{"spec":{"securityContext":{"runAsUser":1}}}`, true),
	Entry("$patch: replace at the top",
		`{"spec":{"securityContext":{"runAsUser":1}}}`, `{"$patch":"replace","spec":{}}`, `{"spec":{"securityContext":{"runAsUser":1}}}`, true),
	Entry("$retainKeys in a map",
		`{"spec":{"securityContext":{"runAsUser":1}}}`, `{"spec":{"securityContext":{"$retainKeys":["runAsUser"],"runAsUser":1}}}`, `{"spec":{"securityContext":{"runAsUser":1}}}`, true),
	Entry("$setElementOrder in a map",
		`{"spec":{"containers":[{"name":"a"}]}}`, `{"spec":{"containers":[{"name":"a"}],"$setElementOrder/containers":[{"name":"a"}]}}`, `{"spec":{"containers":[{"name":"a"}]}}`, true),
	Entry("$setElementOrder in a map new to original",
		`{"spec":{}}`, `{"spec":{"$setElementOrder/containers":[{"name":"a"}]}}`, `{"spec":{}}`, true),
	Entry("$deleteFromPrimitiveList in a keyed item",
		`{"spec":{"containers":[{"name":"a"}]}}`, `{"spec":{"containers":[{"name":"a","$deleteFromPrimitiveList/args":["x"]}]}}`, `{"spec":{"containers":[{"name":"a"}]}}`, true),
	Entry("$retainKeys in an item of a retainKeys list's item (the generated directive written over it)",
		`{"spec":{"volumes":[{"name":"v","hostPath":{"path":"p"}}]}}`, `{"spec":{"volumes":[{"name":"v","emptyDir":{},"$retainKeys":["name"]}]}}`, `{"spec":{"volumes":[{"name":"v","hostPath":{"path":"p"}}]}}`, true),
	Entry("$patch: delete in a map beside a field current changed",
		`{"spec":{"securityContext":{"runAsUser":1}}}`, `{"spec":{"securityContext":{"$patch":"delete","runAsUser":1}}}`, `{"spec":{"securityContext":{"runAsUser":2}}}`, true),
	Entry("$patch: delete in an item of a keyed list below a keyed item, without its key",
		`{"spec":{"containers":[{"name":"a","ports":[{"containerPort":1,"name":"p"}]}]}}`, `{"spec":{"containers":[{"name":"a","ports":[{"containerPort":1,"$patch":"delete"}]}]}}`, `{"spec":{"containers":[{"name":"a","ports":[{"containerPort":1,"name":"p"}]}]}}`, true),
	Entry("$setElementOrder in a keyed item equal to the one the patch writes (written once)",
		`{"spec":{"containers":[{"name":"a","env":[{"name":"e"}]}]}}`, `{"spec":{"containers":[{"$setElementOrder/env":[{"name":"e"}],"env":[{"name":"e","value":"1"}],"name":"a"}]}}`, `{"spec":{"containers":[{"name":"a","env":[{"name":"e"}]}]}}`, true),
	Entry("$patch: delete in a changed keyed item before another (listed last)",
		`{"spec":{"containers":[{"name":"a","image":"i"}]}}`, `{"spec":{"containers":[{"$patch":"delete","image":"j","name":"a"},{"image":"j","name":"b"}]}}`, `{"spec":{"containers":[{"name":"a","image":"i"}]}}`, true),
	Entry("$retainKeys in a keyed item new to original",
		`{"spec":{}}`, `{"spec":{"containers":[{"name":"d","$retainKeys":["name"]}]}}`, `{"spec":{}}`, true),
	Entry("$patch: delete in a keyed item new to original and current",
		`{"spec":{"containers":[{"name":"a"}]}}`, `{"spec":{"containers":[{"name":"a"},{"$patch":"delete","name":"d"}]}}`, `{"spec":{"containers":[{"name":"a"}]}}`, true),
	Entry("$patch: delete in a keyed item original and current hold",
		`{"spec":{"containers":[{"name":"a"},{"name":"d"}]}}`, `{"spec":{"containers":[{"name":"a"},{"$patch":"delete","name":"d"}]}}`, `{"spec":{"containers":[{"name":"a"},{"name":"d"}]}}`, true),
	Entry("$patch: delete in a keyed item the deletions half holds (no item of its key)",
		`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"b","image":"y"}]}}`, `{"spec":{"containers":[{"name":"a","image":"i"},{"name":"b","$patch":"delete"}]}}`, `{"spec":{"containers":[{"name":"a","image":"i"},{"name":"b","image":"y"}]}}`, true),
	Entry("$patch: replace in a keyed item the deletions half holds (the delta's other items)",
		`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"b"}]}}`, `{"spec":{"containers":[{"name":"a","$patch":"replace"},{"name":"b","image":"x"}]}}`, `{"spec":{"containers":[{"name":"a","image":"i"},{"name":"b"}]}}`, true),
	Entry("$patch: merge in a keyed item the deletions half holds: the merge fails",
		`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"b"}]}}`, `{"spec":{"containers":[{"name":"a","$patch":"merge"},{"name":"b","image":"x"}]}}`, `{"spec":{"containers":[{"name":"a","image":"i"},{"name":"b"}]}}`, true),
	Entry("$patch of an unknown value in a keyed item the deletions half holds: the merge fails",
		`{"spec":{"containers":[{"name":"a","image":"i"}]}}`, `{"spec":{"containers":[{"name":"a","$patch":"x"}]}}`, `{"spec":{"containers":[{"name":"a","image":"i"}]}}`, true),
	Entry("$patch in a keyed list without items to pair, its items keyed",
		`{"spec":{}}`, `{"spec":{"containers":[{"$patch":"replace","name":"d"}]}}`, `{"spec":{}}`, true),
	Entry("nested: $patch: delete in a map of a keyed item",
		`{"spec":{"containers":[{"name":"a","image":"i"}]}}`, `{"spec":{"containers":[{"name":"a","securityContext":{"$patch":"delete"}}]}}`, `{"spec":{"containers":[{"name":"a","image":"i"}]}}`, true),
	Entry("nested: $patch: replace in a map of a keyed item, the deletions half holding it",
		`{"spec":{"containers":[{"name":"a","image":"i","securityContext":{"runAsUser":1}}]}}`, `{"spec":{"containers":[{"name":"a","image":"i","securityContext":{"$patch":"replace","runAsGroup":1}}]}}`, `{"spec":{"containers":[{"name":"a","image":"i","securityContext":{"runAsUser":1}}]}}`, true),
	Entry("nested: $patch: replace in a map below one holding $patch: delete",
		`{"spec":{"securityContext":{"runAsUser":1}}}`, `{"spec":{"securityContext":{"$patch":"delete","seLinuxOptions":{"$patch":"replace","user":"u"}}}}`, `{"spec":{"securityContext":{"runAsUser":1,"seLinuxOptions":{"role":"r"}}}}`, true),
	Entry("original holding the same $patch",
		`{"spec":{"securityContext":{"$patch":"delete"}}}`, `{"spec":{"securityContext":{"$patch":"delete"}}}`, `{"spec":{"securityContext":{"runAsUser":1}}}`, true),
	Entry("original holding another $patch (the deletions half writes it): a conflict",
		`{"spec":{"securityContext":{"$patch":"replace"}}}`, `{"spec":{"securityContext":{"$patch":"delete"}}}`, `{"spec":{"securityContext":{"runAsUser":1}}}`, true),
	Entry("original holding $patch not a string: the diffs fail",
		`{"spec":{"securityContext":{"$patch":1}}}`, `{"spec":{"securityContext":{"$patch":"delete"}}}`, `{"spec":{"securityContext":{"runAsUser":1}}}`, true),
	Entry("current holding $patch not a string: the diffs fail",
		`{"spec":{"securityContext":{"runAsUser":1}}}`, `{"spec":{"securityContext":{"$patch":"delete"}}}`, `{"spec":{"securityContext":{"$patch":1}}}`, true),
	Entry("current holding the same $patch: a conflict",
		`{"spec":{"securityContext":{"runAsUser":1}}}`, `{"spec":{"securityContext":{"$patch":"delete"}}}`, `{"spec":{"securityContext":{"$patch":"delete"}}}`, true),
	Entry("current changed since original: a conflict",
		`{"spec":{"securityContext":{"runAsUser":1}}}`, `{"spec":{"securityContext":{"$patch":"delete"}}}`, `{"spec":{"securityContext":{"runAsUser":3}}}`, true),
	Entry("original holding another $retainKeys: strategicpatch's look-up of the key fails",
		`{"spec":{"securityContext":{"runAsUser":1,"$retainKeys":["a"]}}}`, `{"spec":{"securityContext":{"$retainKeys":["runAsUser"],"runAsUser":1}}}`, `{"spec":{"securityContext":{"runAsUser":1}}}`, true),
	Entry("original holding the same $retainKeys",
		`{"spec":{"securityContext":{"runAsUser":1,"$retainKeys":["a"]}}}`, `{"spec":{"securityContext":{"$retainKeys":["a"],"runAsUser":2}}}`, `{"spec":{"securityContext":{"runAsUser":1}}}`, true),
	Entry("original holding another $deleteFromPrimitiveList in a keyed item: the look-up fails",
		`{"spec":{"containers":[{"name":"a","args":["x","y"],"$deleteFromPrimitiveList/args":["q"]}]}}`, `{"spec":{"containers":[{"name":"a","args":["x"],"$deleteFromPrimitiveList/args":["z"]}]}}`, `{"spec":{"containers":[{"name":"a","args":["x","y"]}]}}`, true),
	Entry("original holding another $setElementOrder",
		`{"spec":{"containers":[{"name":"a"}],"$setElementOrder/containers":[{"name":"a"}]}}`, `{"spec":{"containers":[{"name":"a"},{"name":"b"}],"$setElementOrder/containers":[{"name":"b"}]}}`, `{"spec":{"containers":[{"name":"a"}]}}`, true),
	Entry("a field the schema lacks in a map holding $patch, current's a map too: the look-up fails",
		`{"spec":{"securityContext":{"runAsUser":1,"seLinuxOptions":{"role":"r"}}}}`, `{"spec":{"securityContext":{"$patch":"replace","seLinuxOptions":{"user":"u"},"bogus":{"a":1}}}}`, `{"spec":{"securityContext":{"runAsUser":1,"seLinuxOptions":{"role":"r"},"bogus":{"b":1}}}}`, true),
	Entry("$retainKeys in a retainKeys item current lacks, another than the deletions half's: the merge fails",
		`{"spec":{"volumes":[{"name":"v","hostPath":{"path":"p"}}]}}`, `{"spec":{"volumes":[{"name":"v","emptyDir":{},"$retainKeys":["name"]}]}}`, `{"spec":{}}`, true),
	Entry("$retainKeys not a list in a retainKeys item current lacks: the merge fails, printing it",
		`{"spec":{"volumes":[{"name":"v","hostPath":{"path":"p"}}]}}`, `{"spec":{"volumes":[{"name":"v","emptyDir":{},"$retainKeys":{"a":1.5,"b":[true,null],"c":1}}]}}`, `{"spec":{"volumes":[{"name":"w"}]}}`, true),
	Entry("$retainKeys in a retainKeys item current lacks, equal to the deletions half's",
		`{"spec":{"volumes":[{"name":"v","hostPath":{"path":"p"}}]}}`, `{"spec":{"volumes":[{"name":"v","emptyDir":{},"$retainKeys":["$retainKeys","emptyDir","name"]}]}}`, `{"spec":{}}`, true),
	Entry("$retainKeys in a map the deletions half holds without one",
		`{"spec":{"securityContext":{"runAsUser":1}}}`, `{"spec":{"securityContext":{"$retainKeys":"b","runAsGroup":1}}}`, `{"spec":{"securityContext":{"runAsUser":1}}}`, true),
	Entry("$setElementOrder in a keyed item current lacks, naming the list the patch sets in its order",
		`{"spec":{"containers":[{"name":"a","image":"i"}]}}`, `{"spec":{"containers":[{"name":"a","ports":[{"containerPort":1},{"containerPort":2}],"$setElementOrder/ports":[{"containerPort":1},{"containerPort":2}]}]}}`, `{"spec":{}}`, true),
	Entry("$setElementOrder in a keyed item current lacks, naming the list's items in another order: the merge fails",
		`{"spec":{"containers":[{"name":"a","image":"i"}]}}`, `{"spec":{"containers":[{"name":"a","ports":[{"containerPort":1},{"containerPort":2}],"$setElementOrder/ports":[{"containerPort":2},{"containerPort":1}]}]}}`, `{"spec":{}}`, true),
	Entry("$setElementOrder in a keyed item current lacks, missing an item of the list: the merge fails",
		`{"spec":{"containers":[{"name":"a","image":"i"}]}}`, `{"spec":{"containers":[{"name":"a","ports":[{"containerPort":1},{"containerPort":2}],"$setElementOrder/ports":[{"containerPort":1}]}]}}`, `{"spec":{}}`, true),
	Entry("$setElementOrder in a keyed item current lacks, naming an item the list lacks",
		`{"spec":{"containers":[{"name":"a","image":"i"}]}}`, `{"spec":{"containers":[{"name":"a","ports":[{"containerPort":1}],"$setElementOrder/ports":[{"containerPort":1},{"containerPort":3}]}]}}`, `{"spec":{}}`, true),
	Entry("$setElementOrder of a list of scalars in a keyed item current lacks, in another order: the merge fails",
		`{"spec":{"containers":[{"name":"a","image":"i"}]}}`, `{"spec":{"containers":[{"name":"a","args":["x","y"],"$setElementOrder/args":["y","x"]}]}}`, `{"spec":{}}`, true),
	Entry("$setElementOrder not a list in a keyed item current lacks: the merge fails",
		`{"spec":{"containers":[{"name":"a","image":"i"}]}}`, `{"spec":{"containers":[{"name":"a","$setElementOrder/ports":"x"}]}}`, `{"spec":{}}`, true),
	Entry("$setElementOrder in a keyed item current lacks, naming a field not a list: the merge fails",
		`{"spec":{"containers":[{"name":"a","image":"i"}]}}`, `{"spec":{"containers":[{"name":"a","ports":"y","$setElementOrder/ports":[1]}]}}`, `{"spec":{}}`, true),
	Entry("$setElementOrder in a keyed item current lacks, naming a list the schema declares that the item lacks",
		`{"spec":{"containers":[{"name":"a","image":"i"}]}}`, `{"spec":{"containers":[{"name":"a","$setElementOrder/ports":[{"containerPort":1}]}]}}`, `{"spec":{}}`, true),
	Entry("$setElementOrder in a keyed item current lacks, equal to the deletions half's",
		`{"spec":{"containers":[{"name":"a","ports":[{"containerPort":1},{"containerPort":2}]}]}}`, `{"spec":{"containers":[{"name":"a","ports":[{"containerPort":1}],"$setElementOrder/ports":[{"containerPort":1}]}]}}`, `{"spec":{}}`, true),
	Entry("$patch: delete in a keyed item the deletions half holds, beside items new to it: placed as the merge's array leaves dels's",
		`{"spec":{"containers":[{"name":"d","image":"j"},{"name":"c"}]}}`, `{"spec":{"containers":[{"$patch":"delete","name":"d"},{"name":"a"}]}}`, `{"spec":{"containers":[{"name":"d","image":"i"}]}}`, true),
	Entry("$patch: delete in a keyed item the deletions half holds, two items deleted and two new",
		`{"spec":{"containers":[{"name":"d","image":"j"},{"name":"c"},{"name":"e"}]}}`, `{"spec":{"containers":[{"$patch":"delete","name":"d"},{"name":"a"},{"name":"b"}]}}`, `{"spec":{"containers":[{"name":"d","image":"i"}]}}`, true),
	Entry("$patch: delete in a keyed item the deletions half holds, after an item new to it",
		`{"spec":{"containers":[{"name":"d","image":"j"},{"name":"c"}]}}`, `{"spec":{"containers":[{"name":"a"},{"$patch":"delete","name":"d"}]}}`, `{"spec":{"containers":[{"name":"d","image":"i"}]}}`, true),
	Entry("$patch: delete in a keyed item of a nested list the deletions half holds",
		`{"spec":{"containers":[{"name":"a","env":[{"name":"x","value":"1"},{"name":"y"}]}]}}`, `{"spec":{"containers":[{"name":"a","env":[{"$patch":"delete","name":"x"},{"name":"z"}]}]}}`, `{"spec":{"containers":[{"name":"a","env":[{"name":"x","value":"2"}]}]}}`, true),
	Entry("$setElementOrder naming a list the schema lacks, in a map the deletions half holds: strategicpatch's look-up fails",
		`{"spec":{"containers":[{"name":"c"}]}}`, `{"spec":{"$setElementOrder/extra":[{"k":"2"}],"containers":[{"name":"b"}],"extra":[{"k":"2"}]}}`, `{"spec":{"containers":[{"name":"c"}]}}`, true),
	Entry("$setElementOrder naming a field the schema lacks and neither half holds, in a map the deletions half holds: the look-up fails",
		`{"spec":{"containers":[{"name":"c"}]}}`, `{"spec":{"$setElementOrder/extra":[{"k":"2"}],"containers":[{"name":"b"}]}}`, `{"spec":{"containers":[{"name":"c"}]}}`, true),
	Entry("$setElementOrder naming a field the schema lacks, in a keyed item current lacks: the look-up fails",
		`{"spec":{"containers":[{"name":"a","image":"i"}]}}`, `{"spec":{"containers":[{"name":"a","$setElementOrder/bogus":[1]}]}}`, `{"spec":{}}`, true),
	Entry("$setElementOrder naming a map field, in a keyed item current lacks: the look-up as a list fails but under OpenAPI v3",
		`{"spec":{"containers":[{"name":"a","image":"i"}]}}`, `{"spec":{"containers":[{"name":"a","$setElementOrder/securityContext":[1]}]}}`, `{"spec":{}}`, true),
	Entry("$setElementOrder naming a field the schema lacks, in a map the deletions half lacks: kept as data",
		`{"spec":{"containers":[{"name":"c"}]}}`, `{"spec":{"containers":[{"name":"c"}],"securityContext":{"$setElementOrder/extra":[1]}}}`, `{"spec":{"containers":[{"name":"c"}]}}`, true),
	Entry("$setElementOrder in a keyed item current lacks, beside an empty list: the merge fails (no items to type)",
		`{"spec":{"containers":[{"name":"a","image":"i"}]}}`, `{"spec":{"containers":[{"name":"a","ports":[],"$setElementOrder/ports":[{"containerPort":1}]}]}}`, `{"spec":{"containers":[{"name":"a","image":"i"}]}}`, true),
	Entry("$setElementOrder of a list of scalars in a keyed item current lacks, beside an empty list: the merge fails",
		`{"spec":{"containers":[{"name":"a","image":"i"}]}}`, `{"spec":{"containers":[{"name":"a","args":[],"$setElementOrder/args":[]}]}}`, `{"spec":{"containers":[{"name":"a","image":"i"}]}}`, true),
	Entry("$setElementOrder in a keyed item current lacks, an item of it without the merge key: the merge fails",
		`{"spec":{"containers":[{"name":"a","image":"i"}]}}`, `{"spec":{"containers":[{"name":"a","ports":[{"containerPort":1}],"$setElementOrder/ports":[{"containerPort":1},{"name":"b"}]}]}}`, `{"spec":{"containers":[{"name":"a","image":"i"}]}}`, true),
	Entry("$setElementOrder in a keyed item current lacks, an item of it not a map: the merge fails",
		`{"spec":{"containers":[{"name":"a","image":"i"}]}}`, `{"spec":{"containers":[{"name":"a","ports":[{"containerPort":1}],"$setElementOrder/ports":[{"containerPort":1},"x"]}]}}`, `{"spec":{"containers":[{"name":"a","image":"i"}]}}`, true),
	Entry("$setElementOrder in a keyed item current lacks, an item of it without the merge key, no list beside: kept",
		`{"spec":{"containers":[{"name":"a","image":"i"}]}}`, `{"spec":{"containers":[{"name":"a","$setElementOrder/ports":[{"name":"b"}]}]}}`, `{"spec":{"containers":[{"name":"a","image":"i"}]}}`, true),
	Entry("$setElementOrder of a list of scalars in a keyed item current lacks, the list's items of two types: the merge fails",
		`{"spec":{"containers":[{"name":"a","image":"i"}]}}`, `{"spec":{"containers":[{"name":"a","args":["x",1],"$setElementOrder/args":["x",1]}]}}`, `{"spec":{"containers":[{"name":"a","image":"i"}]}}`, true),
	Entry("$setElementOrder of a list of scalars in a keyed item current lacks, a decimal and a bool: the merge fails",
		`{"spec":{"containers":[{"name":"a","image":"i","args":["y"]}]}}`, `{"spec":{"containers":[{"name":"a","args":[1.5,true],"$setElementOrder/args":[1.5,true]}]}}`, `{"spec":{"containers":[{"name":"a","image":"i"}]}}`, true),
	Entry("$setElementOrder of a list of scalars in a keyed item current lacks, an integer and a decimal: the merge fails",
		`{"spec":{"containers":[{"name":"a","image":"i"}]}}`, `{"spec":{"containers":[{"name":"a","args":[1,2.5],"$setElementOrder/args":[1,2.5]}]}}`, `{"spec":{"containers":[{"name":"a","image":"i"}]}}`, true),
	Entry("$setElementOrder in a keyed item current lacks, beside a list merged by key holding a string: the merge fails",
		`{"spec":{"containers":[{"name":"a","image":"i"}]}}`, `{"spec":{"containers":[{"name":"a","ports":["x"],"$setElementOrder/ports":["x"]}]}}`, `{"spec":{"containers":[{"name":"a","image":"i"}]}}`, true),
	Entry("$setElementOrder in a keyed item current lacks, beside a list merged by key holding a string, naming a map: the merge fails",
		`{"spec":{"containers":[{"name":"a","image":"i"}]}}`, `{"spec":{"containers":[{"name":"a","ports":["x"],"$setElementOrder/ports":[{"containerPort":1}]}]}}`, `{"spec":{"containers":[{"name":"a","image":"i"}]}}`, true),
	Entry("$retainKeys: null in a retainKeys item current lacks: the merge fails, printing <nil>",
		`{"spec":{"volumes":[{"name":"v","hostPath":{"path":"p"}}]}}`, `{"spec":{"volumes":[{"name":"v","emptyDir":{},"$retainKeys":null}]}}`, `{"spec":{}}`, true),
	Entry("$retainKeys: null in a retainKeys item current's list lacks: the merge fails",
		`{"spec":{"volumes":[{"name":"v","hostPath":{"path":"p"}}]}}`, `{"spec":{"volumes":[{"name":"v","emptyDir":{},"$retainKeys":null}]}}`, `{"spec":{"volumes":[{"name":"w"}]}}`, true),
	Entry("$patch of an integer in a map the deletions half holds: the merge fails, printing an int64",
		`{"spec":{"securityContext":{"runAsUser":1}}}`, `{"spec":{"securityContext":{"$patch":1}}}`, `{"spec":{"securityContext":{"runAsUser":1}}}`, true),
	Entry("$patch of a decimal in a map the deletions half holds: the merge fails, printing a float64",
		`{"spec":{"securityContext":{"runAsUser":1}}}`, `{"spec":{"securityContext":{"$patch":1.0}}}`, `{"spec":{"securityContext":{"runAsUser":1}}}`, true),
	Entry("$patch of an integer in a keyed item the deletions half holds: the merge fails, printing an int64",
		`{"spec":{"containers":[{"name":"a","image":"i"}]}}`, `{"spec":{"containers":[{"name":"a","$patch":2}]}}`, `{"spec":{"containers":[{"name":"a","image":"i"}]}}`, true),
	Entry("original alone holding $patch",
		`{"spec":{"securityContext":{"$patch":"delete"}}}`, `{"spec":{"securityContext":{"runAsUser":1}}}`, `{"spec":{"securityContext":{"runAsUser":1}}}`, false),
	Entry("current alone holding $patch: a conflict",
		`{"spec":{"securityContext":{"runAsUser":1}}}`, `{"spec":{"securityContext":{"runAsUser":2}}}`, `{"spec":{"securityContext":{"$patch":"delete","runAsUser":1}}}`, false),
	Entry("original alone holding $retainKeys in a keyed item",
		`{"spec":{"containers":[{"name":"a","$retainKeys":["name"]}]}}`, `{"spec":{"containers":[{"name":"a","image":"i"}]}}`, `{"spec":{"containers":[{"name":"a"}]}}`, false),
)

// jsonMap is JSON text decoded into a map, as the map functions take objects.
func jsonMap(text string) map[string]interface{} {
	var m map[string]interface{}
	Expect(json.Unmarshal([]byte(text), &m)).To(Succeed())
	return m
}
