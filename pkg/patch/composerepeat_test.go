package patch_test

import (
	"sync/atomic"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/pkg/patch"
	"github.com/plyproject/ply/test/jsonv"
	"github.com/plyproject/ply/test/oracle"
)

// Compose of a second patch naming a key twice merges each repeat into its key's outcome in turn; these repeats,
// holding a map at a field the schema types as a list or a scalar, or a list merged by no strategy that a
// "$setElementOrder" orders, are decided from the patches' one tree (Phase 2), the front-end applying none again
// (probe.OnRepeat), with strategicpatch's merge of the two, or an error where it fails.
var _ = Describe("Compose of a repeat decided from the patches' tree, against strategicpatch's merge of two patches", func() {
	var sp *oracle.Oracle
	var pod *openapi.Type
	var repeats, again atomic.Int64
	BeforeEach(func() {
		var err error
		sp, err = oracle.DefaultV3For("io.k8s.api.core.v1.Pod")
		Expect(err).NotTo(HaveOccurred())
		schema, err := openapi.Default()
		Expect(err).NotTo(HaveOccurred())
		var ok bool
		pod, ok = schema.Kubectl().ByName("io.k8s.api.core.v1.Pod")
		Expect(ok).To(BeTrue())
		countRepeats(&repeats, &again)
	})

	// fails is ply's error for an entry strategicpatch refuses too ("": both merge, to one result).
	composes := func(first, second, fails string) {
		f, s := jsonv.MustDecode(first), jsonv.MustDecode(second)
		want, werr := sp.MergePatches(f.JSON(), s.JSON())
		got, err := patch.Compose(f, s, pod, features.Kubectl())
		if fails != "" {
			Expect(werr).To(HaveOccurred(), "strategicpatch refuses the merge too")
			Expect(err).To(MatchError(fails))
		} else {
			Expect(werr).NotTo(HaveOccurred())
			Expect(err).NotTo(HaveOccurred())
			Expect(got).To(equalValue(jsonv.MustDecode(string(want))))
		}
		Expect(repeats.Load()).To(BeNumerically(">", 0), "a repeat applied to its key's outcome")
		Expect(again.Load()).To(BeZero(), "the front-end applied a repeat again")
	}

	const argsList = "where the schema has a list (io.k8s.api.core.v1.Container.args), which declares no fields"
	const imageScalar = "where the schema has a scalar (io.k8s.api.core.v1.Container.image), which declares no fields"
	DescribeTable("a map at a field the schema types as a list or a scalar",
		composes,
		Entry("holding a map where the outcome's map there holds one: refused at that field",
			`{"spec":{"containers":[{"name":"a","args":{"a":{"b":1}}}]}}`,
			`{"spec":{"containers":[{"name":"a","tty":true},{"name":"a","args":{"a":{"c":2}}}]}}`,
			"patch spec.containers[name=a].args: both patches hold object at a in a map the first patch and this one hold "+argsList+" to merge them by"),
		Entry("holding a list where the outcome's map there holds one: refused at that field",
			`{"spec":{"containers":[{"name":"a","args":{"a":[1]}}]}}`,
			`{"spec":{"containers":[{"name":"a","tty":true},{"name":"a","args":{"a":[2]}}]}}`,
			"patch spec.containers[name=a].args: both patches hold array at a in a map the first patch and this one hold "+argsList+" to merge them by"),
		Entry("at a scalar field, holding a map where the outcome's map there holds one: refused at that field",
			`{"spec":{"containers":[{"name":"a","image":{"a":{"b":1}}}]}}`,
			`{"spec":{"containers":[{"name":"a","tty":true},{"name":"a","image":{"a":{"c":2},"b":3}}]}}`,
			"patch spec.containers[name=a].image: both patches hold object at a in a map the first patch and this one hold "+imageScalar+" to merge them by"),
		Entry("at a scalar field, holding a \"$setElementOrder\" where the outcome holds a map: refused at that field",
			`{"spec":{"containers":[{"name":"a","image":{"a":{"b":1}}}]}}`,
			`{"spec":{"containers":[{"name":"a","tty":true},{"name":"a","image":{"$setElementOrder/q":[1]}}]}}`,
			"patch spec.containers[name=a].image: $setElementOrder/q orders a list in a map the first patch and this one hold "+imageScalar),
		Entry("in a map below the item, holding a map where the outcome's holds one: refused at that field",
			`{"spec":{"containers":[{"name":"a","livenessProbe":{"exec":{"command":{"a":{"b":1}}}}}]}}`,
			`{"spec":{"containers":[{"name":"a","tty":true},{"name":"a","livenessProbe":{"exec":{"command":{"a":{"b":2}}}}}]}}`,
			"patch spec.containers[name=a].livenessProbe.exec.command: both patches hold object at a in a map the first patch and this one hold "+
				"where the schema has a list (io.k8s.api.core.v1.ExecAction.command), which declares no fields to merge them by"),
		Entry("before a field the repeat orders and sets to null: refused at the map first",
			`{"spec":{"containers":[{"name":"a","args":{"a":{"b":1}}}]}}`,
			`{"spec":{"containers":[{"name":"a","tty":true},{"name":"a","args":{"a":{"c":2}},"$setElementOrder/env":[{"name":"E"}],"env":null}]}}`,
			"patch spec.containers[name=a].args: both patches hold object at a in a map the first patch and this one hold "+argsList+" to merge them by"),
		Entry("holding a \"$setElementOrder\" the outcome's map holds otherwise: refused at the map, before the two orders are compared",
			`{"spec":{"containers":[{"name":"a","args":{"$setElementOrder/x":[2],"v":1}}]}}`,
			`{"spec":{"containers":[{"name":"a","tty":true},{"name":"a","args":{"$setElementOrder/x":[1],"w":1}}]}}`,
			"patch spec.containers[name=a].args: $setElementOrder/x orders a list in a map the first patch and this one hold "+argsList),
		Entry("holding a map where the outcome's map there holds a scalar: merged as maps of no schema",
			`{"spec":{"containers":[{"name":"a","args":{"a":1,"b":2}}]}}`,
			`{"spec":{"containers":[{"name":"a","tty":true},{"name":"a","args":{"a":{"c":2}}}]}}`, ""),
		Entry("holding a \"$retainKeys\" the outcome's map holds equal, and maps it lacks: merged as maps of no schema",
			`{"spec":{"containers":[{"name":"a","args":{"$retainKeys":["a"],"v":1}}]}}`,
			`{"spec":{"containers":[{"name":"a","tty":true},{"name":"a","args":{"$retainKeys":["a"],"w":{"a":1},"v":{}}}]}}`, ""),
		Entry("holding a \"$setElementOrder\" where the outcome holds a scalar: taken as it stands",
			`{"spec":{"containers":[{"name":"a","image":"x"}]}}`,
			`{"spec":{"containers":[{"name":"a","tty":true},{"name":"a","image":{"$setElementOrder/q":[1],"a":{"b":1}}}]}}`, ""),
	)

	const argsUnmerged = "patch spec.containers[name=a].args: $setElementOrder/args orders lists merged by key or value; the schema does not merge this list"
	DescribeTable("a list merged by no strategy that the repeat orders by \"$setElementOrder\"",
		composes,
		Entry("holding scalars, where the outcome holds objects there: refused",
			`{"spec":{"containers":[{"name":"a","args":[{"x":1}]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","$setElementOrder/args":["c","d"],"args":["c","d"]}]}}`, argsUnmerged),
		Entry("holding strings, where the outcome holds numbers there: refused",
			`{"spec":{"containers":[{"name":"a","args":[1,2]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","$setElementOrder/args":["c","d"],"args":["c","d"]}]}}`, argsUnmerged),
		Entry("holding numbers, where the outcome holds booleans there: refused",
			`{"spec":{"containers":[{"name":"a","args":[true]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","$setElementOrder/args":[1.5,2],"args":[1.5,2]}]}}`, argsUnmerged),
		Entry("where the outcome holds a string and a null there: refused",
			`{"spec":{"containers":[{"name":"a","args":["a",null]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","$setElementOrder/args":["c","d"],"args":["c","d"]}]}}`, argsUnmerged),
		Entry("where the outcome holds a list of lists there: refused",
			`{"spec":{"containers":[{"name":"a","args":[["a"]]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","$setElementOrder/args":["c","d"],"args":["c","d"]}]}}`, argsUnmerged),
		Entry("beside a \"$deleteFromPrimitiveList\", where the outcome holds items of mixed kinds: refused",
			`{"spec":{"containers":[{"name":"a","args":[1,"a"]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","$setElementOrder/args":["c","d"],"args":["c","d"],"$deleteFromPrimitiveList/args":["a"]}]}}`, argsUnmerged),
		Entry("in a map below the item, where the outcome holds numbers there: refused",
			`{"spec":{"containers":[{"name":"a","livenessProbe":{"exec":{"command":[1]}}}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","livenessProbe":{"exec":{"$setElementOrder/command":["a","b"],"command":["a","b"]}}}]}}`,
			"patch spec.containers[name=a].livenessProbe.exec.command: $setElementOrder/command orders lists merged by key or value; the schema does not merge this list"),
		Entry("before a field the repeat orders and sets to null, the outcome holding booleans there: refused at the list first",
			`{"spec":{"containers":[{"name":"a","args":[true]}],"hostname":"x"}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","$setElementOrder/args":["c"],"args":["c"],"$setElementOrder/env":[{"name":"E"}],"env":null}]}}`, argsUnmerged),
		Entry("before a field the repeat orders and sets to null, naming a value twice out of the order's order: refused at the list first",
			`{"spec":{"containers":[{"name":"a","args":["x"]}],"hostname":"x"}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","$setElementOrder/args":["b","a"],"args":["a","b","a"],"$setElementOrder/env":[{"name":"E"}],"env":null}]}}`, argsUnmerged),
		Entry("naming a value twice out of the order's order: refused",
			`{"spec":{"containers":[{"name":"a","args":["x"]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","$setElementOrder/args":["b","a"],"args":["a","b","a"]}]}}`, argsUnmerged),
		Entry("naming each value once out of the order's order: refused as the collation checks a set's order",
			`{"spec":{"containers":[{"name":"a","args":["x"]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","$setElementOrder/args":["a","b"],"args":["b","a"]}]}}`,
			"patch spec.containers[name=a].args: the order of the patch list contradicts $setElementOrder/args: patch list item 1 comes after an item it precedes there"),
		Entry("naming a value the order lacks, beside a field its key's outcome lacks: refused as the collation checks a set's order",
			`{"spec":{"containers":[{"name":"a","image":"j"}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","$setElementOrder/args":["b"],"args":["b","a"],"tty":true}]}}`,
			"patch spec.containers[name=a].args: patch list item 1 is missing from $setElementOrder/args; every item of the patch list must be in it"),
		Entry("ordered alone where the outcome holds it empty: refused (no items of one class to order)",
			`{"spec":{"hostAliases":[{"ip":"b","hostnames":[]}]}}`,
			`{"spec":{"hostAliases":[{"ip":"b"},{"ip":"b","$setElementOrder/hostnames":["a","c"]}]}}`,
			"patch spec.hostAliases[ip=b].hostnames: $setElementOrder/hostnames orders lists merged by key or value; the schema does not merge this list"),
		Entry("beside a \"$deleteFromPrimitiveList\" the outcome holds otherwise: the list replacing the outcome's, the deletion set over its",
			`{"spec":{"containers":[{"name":"a","args":["q"],"$deleteFromPrimitiveList/args":["z"]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","$setElementOrder/args":["a","b"],"args":["a","b"],"$deleteFromPrimitiveList/args":["a"]}]}}`, ""),
		Entry("a \"$deleteFromPrimitiveList\" alone, in a map below the item, that the outcome holds otherwise: set over it",
			`{"spec":{"containers":[{"name":"a","livenessProbe":{"exec":{"$deleteFromPrimitiveList/command":["z"]}},"$deleteFromPrimitiveList/args":"z"}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","livenessProbe":{"exec":{"$deleteFromPrimitiveList/command":["y"]}},"$deleteFromPrimitiveList/args":{"a":1}}]}}`, ""),
		Entry("holding strings, where the outcome holds strings there: sorted by the order, replacing them",
			`{"spec":{"containers":[{"name":"a","args":["z","c"]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","$setElementOrder/args":["a","b","a"],"args":["b","a"],"$deleteFromPrimitiveList/args":["a"]}]}}`, ""),
	)

	// With gate MultiFieldMergeKeys on, a "$setElementOrder" of a list merged by no strategy is refused wherever the
	// patch orders such a list (docs/patches.md): a repeat ordering one, merged into its key's outcome, fails there as
	// applying it to that outcome does, whatever the order and the list hold (with the gate off, the errors or results
	// strategicpatch gives, as above).
	DescribeTable("with gate MultiFieldMergeKeys on, a list merged by no strategy the repeat orders: refused there",
		func(first, second string) {
			schema, err := openapi.Default()
			Expect(err).NotTo(HaveOccurred())
			full, ok := schema.ByName("io.k8s.api.core.v1.Pod")
			Expect(ok).To(BeTrue())
			_, err = patch.Compose(jsonv.MustDecode(first), jsonv.MustDecode(second), full,
				features.Kubectl().With(features.MultiFieldMergeKeys, true))
			Expect(err).To(MatchError(argsUnmerged))
			Expect(repeats.Load()).To(BeNumerically(">", 0), "a repeat applied to its key's outcome")
			Expect(again.Load()).To(BeZero(), "the front-end applied a repeat again")
		},
		Entry("naming each value once out of the order's order (gate off: the order contradicted)",
			`{"spec":{"containers":[{"name":"a","args":["x"]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","$setElementOrder/args":["a","b"],"args":["b","a"]}]}}`),
		Entry("naming a value the order lacks, beside a field its key's outcome lacks (gate off: the value missing from the order)",
			`{"spec":{"containers":[{"name":"a","image":"j"}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","$setElementOrder/args":["b"],"args":["b","a"],"tty":true}]}}`),
		Entry("following the order (gate off: sorted by it)",
			`{"spec":{"containers":[{"name":"a","args":["x"]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","$setElementOrder/args":["a","b"],"args":["a","b"]}]}}`),
		Entry("ordered alone, the outcome holding the list",
			`{"spec":{"containers":[{"name":"a","args":["b","a"]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","$setElementOrder/args":["a","b"]}]}}`),
	)

	// The same refusal where the order is empty and the repeat item holds fields before the list (by name) that the
	// collation builds without error, or the list lies in a map below the item: Phase 2 gives the error the same merge
	// made as two Composes (the first item of the key, then the repeat) gives, the front-end applying no repeat again.
	DescribeTable("with gate MultiFieldMergeKeys on, a list merged by no strategy the repeat orders empty, after fields it holds: refused there",
		func(first, rest, msg string) {
			schema, err := openapi.Default()
			Expect(err).NotTo(HaveOccurred())
			full, ok := schema.ByName("io.k8s.api.core.v1.Pod")
			Expect(ok).To(BeTrue())
			gates := features.Kubectl().With(features.MultiFieldMergeKeys, true)
			wrap := func(items string) string { return `{"spec":{"containers":[` + items + `]}}` }
			head := `{"name":"a","image":"i"}`
			f := jsonv.MustDecode(first)
			mid, err := patch.Compose(f, jsonv.MustDecode(wrap(head)), full, gates)
			Expect(err).NotTo(HaveOccurred())
			_, feErr := patch.Compose(mid, jsonv.MustDecode(wrap(rest)), full, gates)
			Expect(feErr).To(MatchError(msg))
			Expect(again.Load()).To(BeZero(), "the two Composes name no key twice")
			_, err = patch.Compose(f, jsonv.MustDecode(wrap(head+","+rest)), full, gates)
			Expect(err).To(MatchError(feErr.Error()))
			Expect(repeats.Load()).To(BeNumerically(">", 0), "a repeat applied to its key's outcome")
			Expect(again.Load()).To(BeZero(), "the front-end applied a repeat again")
		},
		Entry("after a list of no schema and its \"$deleteFromPrimitiveList\", the outcome holding the list",
			`{"spec":{"containers":[{"name":"a","args":["x"]}]}}`,
			`{"name":"a","$setElementOrder/args":[],"aliases":["a"],"$deleteFromPrimitiveList/aliases":["a"]}`, argsUnmerged),
		Entry("after a list of no schema, the outcome holding the list",
			`{"spec":{"containers":[{"name":"a","args":["x"]}]}}`,
			`{"name":"a","$setElementOrder/args":[],"aliases":["a"]}`, argsUnmerged),
		Entry("in a map below the item, the outcome holding the list",
			`{"spec":{"containers":[{"name":"a","livenessProbe":{"exec":{"command":["x"]}}}]}}`,
			`{"name":"a","livenessProbe":{"exec":{"$setElementOrder/command":[]}}}`,
			"patch spec.containers[name=a].livenessProbe.exec.command: $setElementOrder/command orders lists merged by key or value; the schema does not merge this list"),
	)
})
