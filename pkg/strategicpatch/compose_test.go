package strategicpatch_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	sp "k8s.io/apimachinery/pkg/util/strategicpatch"

	ply "github.com/plyproject/ply/pkg/strategicpatch"
)

// failing marks an entry whose merge strategicpatch refuses (composesAsStrategicpatch's last argument).
const failing = true

// composesAsStrategicpatch checks that the drop-in merges patches first and second as strategicpatch does, result or
// error text, under the Pod's OpenAPI v3 and v2 documents and Go struct tags; fails (failing) checks that
// strategicpatch refuses the merge under one of them at least, so that an entry meant to fail cannot pass with both
// merging under all three.
func composesAsStrategicpatch(first, second string, fails ...bool) {
	GinkgoHelper()
	refused := 0
	for name, meta := range nullKeyMetas() {
		want, werr := sp.MergeStrategicMergeMapPatchUsingLookupPatchMeta(meta, jsonObject(first), jsonObject(second))
		got, err := ply.MergeStrategicMergeMapPatchUsingLookupPatchMeta(meta, jsonObject(first), jsonObject(second))
		if werr != nil {
			refused++
			Expect(err).To(MatchError(werr.Error()), name)
			continue
		}
		Expect(err).NotTo(HaveOccurred(), name)
		Expect(got).To(Equal(want), name)
	}
	if len(fails) > 0 && fails[0] {
		Expect(refused).To(BeNumerically(">", 0), "strategicpatch refuses the merge under one schema form at least")
	}
}

// A map holding "$setElementOrder/x" where the schema has a list or a scalar (so that x's look-up fails): strategicpatch
// looks x up only where it merges the map holding the directive into the first patch's map (the second patch's root,
// a map the first patch holds a map beside, an item merged into the first's or into its earlier repeat), and copies
// it, directive and all, elsewhere (the first patch's maps, the second's where the first holds no map).
var _ = DescribeTable("pkg/strategicpatch merging two patches, a \"$setElementOrder\" at a list or scalar field, as strategicpatch",
	composesAsStrategicpatch,
	Entry("in the second patch's map at a list field the first holds a list in: copied",
		`{"spec":{"containers":[{"name":"a"}]}}`,
		`{"spec":{"containers":{"$setElementOrder/x":[1]}}}`),
	Entry("in the second patch's map at a list field the first lacks: copied",
		`{"spec":{}}`,
		`{"spec":{"containers":{"$setElementOrder/x":[1],"b":2}}}`),
	Entry("in the first patch's map at a list field, the second merging a map there: kept",
		`{"spec":{"containers":{"$setElementOrder/x":[1]}}}`,
		`{"spec":{"containers":{"a":1}}}`),
	Entry("in the first patch's map at a list field, the second lacking it: kept",
		`{"spec":{"containers":{"$setElementOrder/x":[1]}}}`,
		`{"spec":{}}`),
	Entry("in the second patch's map at a scalar field the first lacks: copied",
		`{"spec":{}}`,
		`{"spec":{"hostname":{"$setElementOrder/x":["a"]}}}`),
	Entry("in the second patch's map at a scalar field the first holds a string in: copied",
		`{"spec":{"hostname":"x"}}`,
		`{"spec":{"hostname":{"$setElementOrder/x":["a"]}}}`),
	Entry("in the first patch's map at a scalar field, the second merging a map there: kept",
		`{"spec":{"hostname":{"$setElementOrder/x":["a"]}}}`,
		`{"spec":{"hostname":{"b":1}}}`),
	Entry("in the first patch's map at a scalar field, both holding one: the second's looked up, and failing",
		`{"spec":{"hostname":{"$setElementOrder/x":["a"]}}}`,
		`{"spec":{"hostname":{"$setElementOrder/x":["a"]}}}`, failing),
	Entry("in the second patch's map merged into the first's at a scalar field: looked up, and failing",
		`{"spec":{"hostname":{"b":1}}}`,
		`{"spec":{"hostname":{"$setElementOrder/x":["a"]}}}`, failing),
	Entry("in the first patch's nested map at its root's key",
		`{"spec":{"$setElementOrder/hostname":["a"]}}`,
		`{"spec":{"hostname":"h"}}`),
	Entry("at the second patch's root: looked up, and failing (v2, struct tags; v3 finds kind a string and merges)",
		`{"spec":{}}`,
		`{"$setElementOrder/kind":["a"]}`, failing),
	Entry("at the first patch's root: looked up, and failing (v2, struct tags; v3 finds kind a string and merges)",
		`{"$setElementOrder/kind":["a"]}`,
		`{"spec":{}}`, failing),
	Entry("in a new item's map: copied",
		`{"spec":{"containers":[{"name":"a"}]}}`,
		`{"spec":{"containers":[{"name":"b","image":{"$setElementOrder/x":[1]}}]}}`),
	Entry("in an item's map merged into the first's item lacking that map: copied",
		`{"spec":{"containers":[{"name":"a"}]}}`,
		`{"spec":{"containers":[{"name":"a","image":{"$setElementOrder/x":[1]}}]}}`),
	Entry("in an item's map merged into the first's item's map: looked up, and failing",
		`{"spec":{"containers":[{"name":"a","image":{"b":1}}]}}`,
		`{"spec":{"containers":[{"name":"a","image":{"$setElementOrder/x":[1]}}]}}`, failing),
	Entry("in the first repeat of an item: copied",
		`{"spec":{"containers":[{"name":"z"}]}}`,
		`{"spec":{"containers":[{"name":"a","image":{"$setElementOrder/x":[1]}},{"name":"a","image":{"b":1}}]}}`),
	Entry("in the later repeat of an item, merged into the earlier's map: looked up, and failing",
		`{"spec":{"containers":[{"name":"z"}]}}`,
		`{"spec":{"containers":[{"name":"a","image":{"b":1}},{"name":"a","image":{"$setElementOrder/x":[1]}}]}}`, failing),
	Entry("in the later repeat of an item whose earlier lacks the map: copied",
		`{"spec":{"containers":[{"name":"z"}]}}`,
		`{"spec":{"containers":[{"name":"a"},{"name":"a","image":{"$setElementOrder/x":[1]}}]}}`),
	Entry("in repeats of an item in a list the first lacks: copied",
		`{"spec":{}}`,
		`{"spec":{"containers":[{"name":"a","image":{"b":1}},{"name":"a","image":{"$setElementOrder/x":[1]}}]}}`),
	Entry("merged into the first's map holding another order for the key: the orders' mismatch",
		`{"spec":{"hostname":{"$setElementOrder/x":["b"]}}}`,
		`{"spec":{"hostname":{"$setElementOrder/x":["a"],"b":1}}}`),
	Entry("merged into the first's map holding the key as a scalar: the scalar's kind",
		`{"spec":{"hostname":{"x":"s"}}}`,
		`{"spec":{"hostname":{"$setElementOrder/x":["a"]}}}`),
	Entry("merged into the first's map, beside the key as a map: the map's kind",
		`{"spec":{"hostname":{"b":1}}}`,
		`{"spec":{"hostname":{"$setElementOrder/x":["a"],"x":{"y":1}}}}`),
	Entry("in a later repeat, its earlier holding the key as a number: the number's kind",
		`{"spec":{"containers":[{"name":"z"}]}}`,
		`{"spec":{"containers":[{"name":"a","image":{"x":2}},{"name":"a","image":{"$setElementOrder/x":[1]}}]}}`),
	Entry("in a map holding \"$patch\": dropped with it",
		`{"spec":{"hostname":{"b":1}}}`,
		`{"spec":{"hostname":{"$patch":"replace","$setElementOrder/x":["a"]}}}`),
)

// A "$deleteFromPrimitiveList/<f>" value in a map strategicpatch merges into the first patch's map (its root, the
// second's map beside a map of the first, an item merged into the first's or into its earlier repeat): set over the
// first's as it stands, maps holding "$patch" and all; in a map merged into nothing, those maps dropped.
var _ = DescribeTable("pkg/strategicpatch merging two patches, a \"$deleteFromPrimitiveList\" holding maps with \"$patch\", as strategicpatch",
	composesAsStrategicpatch,
	Entry("in a plain map merged into the first's at a map of values",
		`{"metadata":{"labels":{"q":"r"}}}`,
		`{"metadata":{"labels":{"$deleteFromPrimitiveList/x":[{"$patch":"delete"},"a"]}}}`),
	Entry("in a plain map merged into the first's, the first holding another",
		`{"metadata":{"labels":{"$deleteFromPrimitiveList/x":["b"]}}}`,
		`{"metadata":{"labels":{"$deleteFromPrimitiveList/x":[{"$patch":"delete"},"a"]}}}`),
	Entry("a map holding \"$patch\" itself, in a plain map merged into the first's",
		`{"metadata":{"labels":{"q":"r"}}}`,
		`{"metadata":{"labels":{"$deleteFromPrimitiveList/y":{"$patch":"delete"}}}}`),
	Entry("in a plain map below a map the first lacks: dropped",
		`{"metadata":{"labels":{"q":"r"}}}`,
		`{"metadata":{"labels":{"w":{"$deleteFromPrimitiveList/x":[{"$patch":"delete"},"a"]}}}}`),
	Entry("beside a declared list, merged into the first's map",
		`{"metadata":{"finalizers":["a"]}}`,
		`{"metadata":{"$deleteFromPrimitiveList/finalizers":[{"$patch":"delete"},"a"]}}`),
	Entry("beside a declared list, in a map the first lacks: dropped",
		`{}`,
		`{"metadata":{"$deleteFromPrimitiveList/finalizers":[{"$patch":"delete"},"a"]}}`),
	Entry("at the first patch's root",
		`{"$deleteFromPrimitiveList/finalizers":[{"$patch":"delete"},"a"]}`,
		`{}`),
	Entry("at the second patch's root",
		`{}`,
		`{"$deleteFromPrimitiveList/finalizers":[{"$patch":"delete"},"a"]}`),
	Entry("in an item merged into the first's item",
		`{"spec":{"containers":[{"name":"a"}]}}`,
		`{"spec":{"containers":[{"name":"a","$deleteFromPrimitiveList/args":[{"$patch":"delete","x":1},"a"]}]}}`),
	Entry("in an item new to the first's list",
		`{"spec":{"containers":[{"name":"a"}]}}`,
		`{"spec":{"containers":[{"name":"b","$deleteFromPrimitiveList/args":[{"$patch":"delete","x":1},"a"]}]}}`),
	Entry("in a map at a scalar field merged into the first's map",
		`{"spec":{"containers":[{"name":"a","image":{}}]}}`,
		`{"spec":{"containers":[{"name":"a","image":{"$deleteFromPrimitiveList/args":[{"$patch":"delete","x":1},"a",{"b":{"$patch":"replace"}}]}}]}}`),
	Entry("in a later repeat of an item",
		`{"spec":{"containers":[{"name":"z"}]}}`,
		`{"spec":{"containers":[{"name":"a"},{"name":"a","$deleteFromPrimitiveList/args":[{"$patch":"delete"}]}]}}`),
	Entry("in a later repeat's map merged into its earlier repeat's map",
		`{"spec":{"containers":[{"name":"z"}]}}`,
		`{"spec":{"containers":[{"name":"a","image":{"b":1}},{"name":"a","image":{"$deleteFromPrimitiveList/x":[{"$patch":"delete"},"c"]}}]}}`),
	Entry("in a later repeat's map, its earlier repeat holding a scalar there: dropped",
		`{"spec":{"containers":[{"name":"z"}]}}`,
		`{"spec":{"containers":[{"name":"a","image":"s"},{"name":"a","image":{"$deleteFromPrimitiveList/x":[{"$patch":"delete"},"c"]}}]}}`),
)

// A set (a list of scalars the schema merges) naming a value twice beside its "$setElementOrder", where the first
// patch's map lacks the field: strategicpatch takes the second's items, each copy kept, ordered by the order (each at
// its value's first entry there); where the first patch lacks the map, copied as it stands. Where the first patch's
// map holds the set, the two merge and each value is kept once.
var _ = DescribeTable("pkg/strategicpatch merging two patches, an ordered set naming a value twice, as strategicpatch",
	composesAsStrategicpatch,
	Entry("in a map the first holds without the set: each copy kept, ordered",
		`{"metadata":{"name":"x"}}`,
		`{"metadata":{"$setElementOrder/finalizers":["a","b","c","a"],"finalizers":["a","b","a"]}}`),
	Entry("in a map the first lacks: copied as it stands",
		`{"spec":{}}`,
		`{"metadata":{"$setElementOrder/finalizers":["a","b","a"],"finalizers":["a","b","a"]}}`),
	Entry("in a map the first holds the set in: each value once",
		`{"metadata":{"finalizers":["c"]}}`,
		`{"metadata":{"$setElementOrder/finalizers":["a","b","a"],"finalizers":["a","b","a"]}}`),
	Entry("without an order, in a map the first holds without the set: as it stands",
		`{"metadata":{"name":"x"}}`,
		`{"metadata":{"finalizers":["a","b","a"]}}`),
)
