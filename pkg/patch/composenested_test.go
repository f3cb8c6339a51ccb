package patch_test

import (
	"errors"
	"path/filepath"
	"sync/atomic"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/pkg/patch"
	"github.com/plyproject/ply/pkg/value"
	"github.com/plyproject/ply/test/jsonv"
	"github.com/plyproject/ply/test/oracle"
)

// Compose of a second patch naming a key twice merges each repeat into its key's outcome in turn; a repeat holding a
// list merged by key whose items hold lists (merged by key, as a set, or by no strategy) is decided from the patches'
// one tree (Phase 2) where strategicpatch's merge of the item's list into the outcome's item's is known without error,
// the front-end applying none again (probe.OnRepeat), with strategicpatch's merge of the two patches; elsewhere the
// front-end applies it. testdata/nested.json's Top holds groups keyed by name, whose parts, keyed by name, hold sets,
// lists merged by no strategy and env, keyed by name, whose items hold a set.
var _ = Describe("Compose of a repeat whose list's items hold lists, against strategicpatch's merge of two patches", func() {
	var repeats, again atomic.Int64
	BeforeEach(func() {
		countRepeats(&repeats, &again)
	})

	// composes merges second into first with t, against sp; decided: the front-end applied no repeat again, else it
	// applied one, giving strategicpatch's merge where both merge them (a set naming a value twice ranked as
	// strategicpatch ranks it with no room in the first's list: MergePatchesWithoutRoom; where its look-up fails, ply
	// merges by the no-schema rules, class oracle-no-meta-undeclared in docs/patches.md; the collation refuses a list
	// where the schema has a scalar, docs/errors.md's "a field of the wrong type").
	composes := func(sp *oracle.Oracle, t *openapi.Type, first, second string, decided bool) {
		f, s := jsonv.MustDecode(first), jsonv.MustDecode(second)
		want, werr := sp.MergePatchesWithoutRoom(f.JSON(), s.JSON())
		got, err := patch.Compose(f, s, t, features.Kubectl())
		Expect(repeats.Load()).To(BeNumerically(">", 0), "a repeat applied to its key's outcome")
		if !decided {
			Expect(again.Load()).To(BeNumerically(">", 0), "the front-end applies the repeat")
			if werr == nil && err == nil {
				Expect(got).To(equalValue(jsonv.MustDecode(string(want))))
			}
			return
		}
		Expect(werr).NotTo(HaveOccurred())
		Expect(err).NotTo(HaveOccurred())
		Expect(got).To(equalValue(jsonv.MustDecode(string(want))))
		Expect(again.Load()).To(BeZero(), "the front-end applied a repeat again")
	}
	pod := func() (*oracle.Oracle, *openapi.Type) {
		sp, err := oracle.DefaultV3For("io.k8s.api.core.v1.Pod")
		Expect(err).NotTo(HaveOccurred())
		schema, err := openapi.Default()
		Expect(err).NotTo(HaveOccurred())
		t, ok := schema.Kubectl().ByName("io.k8s.api.core.v1.Pod")
		Expect(ok).To(BeTrue())
		return sp, t
	}
	nested := func() (*oracle.Oracle, *openapi.Type) {
		data := mustRead(filepath.Join("testdata", "nested.json"))
		models, err := oracle.Load(data)
		Expect(err).NotTo(HaveOccurred())
		sp, err := models.Oracle("dev.ply.nested.v1.Top")
		Expect(err).NotTo(HaveOccurred())
		schema, err := openapi.LoadV2Named("nested.json", data)
		Expect(err).NotTo(HaveOccurred())
		t, ok := schema.Kubectl().ByName("dev.ply.nested.v1.Top")
		Expect(ok).To(BeTrue())
		return sp, t
	}
	inPod := func(first, second string, decided bool) {
		sp, t := pod()
		composes(sp, t, first, second, decided)
	}
	inTop := func(first, second string, decided bool) {
		sp, t := nested()
		composes(sp, t, first, second, decided)
	}

	DescribeTable("a Pod's container repeat whose env item holds a list where the schema has none",
		inPod,
		Entry("at a field the schema lacks, the outcome's item lacking it: taken",
			`{"spec":{"containers":[{"name":"a","env":[{"name":"E","value":"x"}]}]}}`,
			`{"spec":{"containers":[{"name":"a","tty":true},{"name":"a","env":[{"name":"E","extra":[1,2]},{"name":"F","extra":[3]}]}]}}`, true),
		Entry("at a field the schema lacks, the outcome's item holding a scalar there: the list, less its maps holding \"$patch\"",
			`{"spec":{"containers":[{"name":"a","env":[{"name":"E","extra":"x"}]}]}}`,
			`{"spec":{"containers":[{"name":"a","tty":true},{"name":"a","env":[{"name":"E","extra":["y",{"$patch":"delete","q":1},{"a":null}]}]}]}}`, true),
		Entry("in a map of the item, at a field the schema lacks, the outcome's map holding a map there: taken",
			`{"spec":{"containers":[{"name":"a","env":[{"name":"E","valueFrom":{"fieldRef":{"fieldPath":"x","q":{"r":1}}}}]}]}}`,
			`{"spec":{"containers":[{"name":"a","tty":true},{"name":"a","env":[{"name":"E","valueFrom":{"fieldRef":{"q":[{"s":2}]}}}]}]}}`, true),
	)

	DescribeTable("a group repeat whose part holds a list merged into the outcome's part's",
		inTop,
		Entry("a set of strings: the outcome's values, then the patch's, ordered by the patch's list and the outcome's places",
			`{"groups":[{"name":"g","parts":[{"name":"p","aliases":["a","b","d"]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","aliases":["c","d","a"]}]}]}`, true),
		Entry("a set of numbers the outcome's part holds empty",
			`{"groups":[{"name":"g","parts":[{"name":"p","ports":[]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","ports":[2,1]}]}]}`, true),
		Entry("a set the outcome's part lacks, beside one it holds as a scalar: each taken",
			`{"groups":[{"name":"g","parts":[{"name":"p","value":"v","aliases":"x"}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","aliases":["a"],"ports":[1]}]}]}`, true),
		Entry("a list merged by no strategy the outcome's part holds: the patch's as it stands",
			`{"groups":[{"name":"g","parts":[{"name":"p","args":["a","b"]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","args":["c","c"]}]}]}`, true),
		Entry("a list merged by key: items merged by key, appended, deleted, ordered by the patch's list and the outcome's places",
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A","value":"1"},{"name":"B"},{"name":"C","value":"3"}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","env":[{"name":"D","value":"4"},{"name":"A","value":"2"},{"name":"B","$patch":"delete"}]}]}]}`, true),
		Entry("a list merged by key whose items hold a set, merged in turn",
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A","flags":["x","y"]},{"name":"B","flags":["z"]}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","env":[{"name":"B","flags":["w"]},{"name":"A","flags":["y","v"]}]}]}]}`, true),
		Entry("a list merged by key with a \"$patch: replace\" item: its data items",
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A","value":"1"}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","env":[{"name":"B"},{"$patch":"replace"},{"name":"C"}]}]}]}`, true),
		Entry("a list merged by key the outcome's part lacks: less its \"$patch\" items",
			`{"groups":[{"name":"g","parts":[{"name":"p","value":"v"}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","env":[{"name":"B","$patch":"delete"},{"name":"C","flags":["f"]}]}]}]}`, true),
		Entry("a set in a map of the part, merged in turn",
			`{"groups":[{"name":"g","parts":[{"name":"p","extra":{"tags":["a"],"mode":"m"}}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","extra":{"tags":["b","a"]}}]}]}`, true),
		Entry("in a part the outcome lacks, merged into the repeat's earlier part of its key",
			`{"groups":[{"name":"g","parts":[{"name":"p"}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"q","aliases":["a"]},{"name":"q","aliases":["b","a"]}]}]}`, true),
		Entry("a list merged by key beside its \"$setElementOrder\": merged, then ordered by it, the outcome's items by their places",
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A"},{"name":"B"},{"name":"C"},{"name":"E"}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","$setElementOrder/env":[{"name":"D"},{"name":"C"},{"name":"A"}],"env":[{"name":"D","value":"4"},{"name":"A","value":"1"},{"name":"B","$patch":"delete"}]}]}]}`, true),
		Entry("a \"$setElementOrder\" alone of a list merged by key the outcome's part holds: its items reordered, the directive copied",
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A"},{"name":"B"},{"name":"C"}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","$setElementOrder/env":[{"name":"C"},{"name":"A"}]}]}]}`, true),
		Entry("a set beside its \"$setElementOrder\", the outcome's part holding the same order",
			`{"groups":[{"name":"g","parts":[{"name":"p","$setElementOrder/aliases":["c","a","b"],"aliases":["a","b","x"]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","$setElementOrder/aliases":["c","a","b"],"aliases":["c","a"]}]}]}`, true),
		Entry("a list merged by key beside its \"$setElementOrder\" where the outcome's part lacks it: ordered by it",
			`{"groups":[{"name":"g","parts":[{"name":"p","value":"v"}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","$setElementOrder/env":[{"name":"B"},{"name":"A"}],"env":[{"name":"B"},{"name":"A","flags":["f"]}]}]}]}`, true),
		Entry("a \"$setElementOrder\" in a part the outcome lacks, merged into the repeat's earlier part of its key",
			`{"groups":[{"name":"g","parts":[{"name":"p"}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"q","env":[{"name":"A"},{"name":"B"}]},{"name":"q","$setElementOrder/env":[{"name":"B"},{"name":"A"}]}]}]}`, true),
		Entry("a list merged by key naming a null key: merged into the outcome's item of a null key",
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":null,"value":"1"},{"name":"A"}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","env":[{"name":"B"},{"name":null,"value":"2"}]}]}]}`, true),
		Entry("a list merged by key naming a key twice: each item merged into the first of its key",
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A","value":"1"}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","env":[{"name":"B","value":"x"},{"name":"A","flags":["a"]},{"name":"B","flags":["b"]},{"name":"A","flags":["c"]}]}]}]}`, true),
		Entry("a list merged by key whose key the outcome's part names twice: merged into the first of it",
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A","value":"1"},{"name":"B"},{"name":"A","value":"3"}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","env":[{"name":"A","value":"2"},{"name":"C"}]}]}]}`, true),
		Entry("a \"$setElementOrder\" alone of a set the outcome's part holds: its values reordered",
			`{"groups":[{"name":"g","parts":[{"name":"p","aliases":["a","b","c"]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","$setElementOrder/aliases":["c","a"]}]}]}`, true),
		Entry("a \"$setElementOrder\" alone where the outcome's part holds a \"$patch: delete\" item: reordered, that item last in its run",
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A"},{"name":"X","$patch":"delete"},{"name":"C"}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","$setElementOrder/env":[{"name":"C"},{"name":"A"}]}]}]}`, true),
		Entry("a list merged by key and its order where the outcome's part holds a \"$patch: delete\" item: ranked by the slice the merge left",
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A"},{"name":"X","$patch":"delete"},{"name":"C"}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","$setElementOrder/env":[{"name":"D"},{"name":"A"}],"env":[{"name":"D"},{"name":"A","value":"v"},{"name":"C","$patch":"delete"}]}]}]}`, true),
		Entry("a set of numbers, integers and decimals among them: one class",
			`{"groups":[{"name":"g","parts":[{"name":"p","ports":[1,2.5]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","ports":[2.5,1.0,3]}]}]}`, true),
		Entry("a list merged by key whose item holds a \"$deleteFromPrimitiveList\" of an object, or a scalar: copied as it stands",
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A","flags":["x"],"$deleteFromPrimitiveList/flags":["q"]}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","env":[{"name":"A","$deleteFromPrimitiveList/flags":{"a":{"$patch":"delete"}}},{"name":"B","$deleteFromPrimitiveList/flags":"z"}]}]}]}`, true),
		Entry("a list merged by key whose item holds another \"$\" field of an object or a list, the outcome's item another kind there or none: less its maps holding \"$patch\"",
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A","$bar":"x","$baz":{"a":1}}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","env":[{"name":"A","$foo":{"a":1,"b":{"$patch":"delete"}},"$bar":[1,{"$patch":"delete"}],"$baz":[{"$patch":"replace"}],"$qux":{"$patch":"delete"}}]}]}]}`, true),
		Entry("a list merged by key whose item holds a map of another \"$patch\" where the outcome's item holds none: dropped",
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A","r":"x"}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","env":[{"name":"A","q":{"$patch":"foo","a":1},"r":{"$patch":7}}]}]}]}`, true),
		Entry("a list merged by no strategy holding objects where the schema has strings: the patch's as it stands",
			`{"groups":[{"name":"g","parts":[{"name":"p","args":["a"]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","args":[{"a":1}]}]}]}`, true),
		Entry("a list merged by no strategy holding objects, lists and nulls where the schema has strings: the patch's as it stands",
			`{"groups":[{"name":"g","parts":[{"name":"p","args":["a"]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","args":[{"a":null},[1],null,"x"]}]}]}`, true),
		Entry("a list merged by no strategy holding a list where the outcome's holds objects",
			`{"groups":[{"name":"g","parts":[{"name":"p","args":[{"b":1}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","args":[["x"]]}]}]}`, true),
		Entry("a list merged by no strategy holding objects with \"$patch\" maps, the outcome's part lacking it: less those maps",
			`{"groups":[{"name":"g","parts":[{"name":"p"}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","args":[{"a":{"$patch":"delete"}},"x"]}]}]}`, true),
		Entry("a list merged by no strategy holding objects, the outcome's part holding a scalar there: less its \"$patch\" items",
			`{"groups":[{"name":"g","parts":[{"name":"p","args":"s"}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","args":[{"a":1},{"$patch":"delete"}]}]}]}`, true),
		Entry("a list merged by no strategy holding objects in a later part of its key",
			`{"groups":[{"name":"g","parts":[{"name":"p","args":["a"]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","value":"v"},{"name":"p","args":[{"a":1}]}]}]}`, true),
		Entry("a list merged by no strategy holding a \"$patch\" map onto the outcome's list: as it stands",
			`{"groups":[{"name":"g","parts":[{"name":"p","args":["a"]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","args":[{"$patch":"delete"},"x"]}]}]}`, true),
		Entry("a list merged by no strategy holding a map holding a \"$patch\" map onto the outcome's list: as it stands",
			`{"groups":[{"name":"g","parts":[{"name":"p","args":["a"]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","args":[{"a":{"$patch":"delete"}},"x"]}]}]}`, true),
		Entry("a list merged by no strategy holding a \"$patch: merge\" map holding a \"$patch\" list onto an empty list: as it stands",
			`{"groups":[{"name":"g","parts":[{"name":"p","args":[]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","args":[{"$patch":"merge","b":[{"$patch":"delete"}]}]}]}]}`, true),
		Entry("a list merged by key whose item holds a scalar where the outcome's item holds a set: the scalar",
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A","flags":["x"]}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","env":[{"name":"A","flags":"y"},{"name":"B","flags":["z"]}]}]}]}`, true),
		Entry("a set the outcome's part holds naming a value twice: each value once, at its first place there",
			`{"groups":[{"name":"g","parts":[{"name":"p","aliases":["a","b","a"]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","aliases":["c"]}]}]}`, true),
	)

	// decidedAs composes second, naming a key twice (head holding its first item, rest its repeat), into first with
	// the nested schema: Phase 2 decides the repeat (the front-end applies none again), giving the front-end's answer,
	// the same merge made as two Composes, head then rest (no key named twice: the repeat collated onto the first
	// Compose's outcome), and strategicpatch's (MergePatchesWithoutRoom), or, with fails, the front-end's error where
	// strategicpatch fails too.
	decidedAs := func(first, second string, head, rest value.Value, fails bool) {
		sp, t := nested()
		f, s := jsonv.MustDecode(first), jsonv.MustDecode(second)
		mid, err := patch.Compose(f, head, t, features.Kubectl())
		Expect(err).NotTo(HaveOccurred())
		frontEnd, feErr := patch.Compose(mid, rest, t, features.Kubectl())
		Expect(again.Load()).To(BeZero(), "the two Composes name no key twice")
		want, werr := sp.MergePatchesWithoutRoom(f.JSON(), s.JSON())
		got, err := patch.Compose(f, s, t, features.Kubectl())
		Expect(repeats.Load()).To(BeNumerically(">", 0), "a repeat applied to its key's outcome")
		Expect(again.Load()).To(BeZero(), "the front-end applied a repeat again")
		if fails {
			var ee *elements.Error
			Expect(errors.As(err, &ee)).To(BeTrue(), "%v", err)
			Expect(feErr).To(HaveOccurred())
			Expect(err.Error()).To(Equal(feErr.Error()))
			Expect(werr).To(HaveOccurred())
			return
		}
		Expect(err).NotTo(HaveOccurred())
		Expect(feErr).NotTo(HaveOccurred())
		Expect(got).To(equalValue(frontEnd))
		Expect(werr).NotTo(HaveOccurred())
		Expect(got).To(equalValue(jsonv.MustDecode(string(want))))
	}
	// decides is decidedAs of second, a group named twice: its first group, then the others.
	decides := func(first, second string, fails bool) {
		groups, _ := jsonv.MustDecode(second).Get("groups")
		head := value.MustMap(value.Field{Key: "groups", Value: value.List(groups.Items()[:1])})
		rest := value.MustMap(value.Field{Key: "groups", Value: value.List(groups.Items()[1:])})
		decidedAs(first, second, head, rest, fails)
	}
	// decidesPart is decides for second holding one group, whose parts name a part twice: the two Composes take the
	// group with its first part, then with the rest.
	decidesPart := func(first, second string, fails bool) {
		groups, _ := jsonv.MustDecode(second).Get("groups")
		g := groups.Items()[0]
		parts, _ := g.Get("parts")
		with := func(items []value.Value) value.Value {
			return value.MustMap(value.Field{Key: "groups", Value: value.List([]value.Value{g.With("parts", value.List(items))})})
		}
		decidedAs(first, second, with(parts.Items()[:1]), with(parts.Items()[1:]), fails)
	}

	// decidesUndeclared composes second, a group named twice, into first with the nested schema where the repeat holds
	// objects or lists at a field the schema does not declare (a "$" key of data among them) that the outcome holds
	// as the same kind: Phase 2 decides the repeat as the front-end does (the same merge made as two Composes), by
	// the no-schema rules (maps merge, lists are replaced), where strategicpatch's look-up of that field fails (class
	// oracle-no-meta-undeclared in docs/patches.md).
	decidesUndeclared := func(first, second string) {
		sp, t := nested()
		f, s := jsonv.MustDecode(first), jsonv.MustDecode(second)
		groups, _ := s.Get("groups")
		head := value.MustMap(value.Field{Key: "groups", Value: value.List(groups.Items()[:1])})
		rest := value.MustMap(value.Field{Key: "groups", Value: value.List(groups.Items()[1:])})
		mid, err := patch.Compose(f, head, t, features.Kubectl())
		Expect(err).NotTo(HaveOccurred())
		frontEnd, err := patch.Compose(mid, rest, t, features.Kubectl())
		Expect(err).NotTo(HaveOccurred())
		Expect(again.Load()).To(BeZero(), "the two Composes name no key twice")
		_, werr := sp.MergePatchesWithoutRoom(f.JSON(), s.JSON())
		Expect(werr).To(MatchError(ContainSubstring("unable to find api field")))
		got, err := patch.Compose(f, s, t, features.Kubectl())
		Expect(err).NotTo(HaveOccurred())
		Expect(got).To(equalValue(frontEnd))
		Expect(repeats.Load()).To(BeNumerically(">", 0), "a repeat applied to its key's outcome")
		Expect(again.Load()).To(BeZero(), "the front-end applied a repeat again")
	}

	DescribeTable("a group repeat whose part holds objects or lists at a field the schema does not declare where the outcome holds them, decided in Phase 2",
		decidesUndeclared,
		Entry("a keyed item's \"$\" field of an object onto an object: merged field by field, nulls kept",
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A","$foo":{"a":1,"c":{"d":1}}}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","env":[{"name":"A","$foo":{"b":2,"a":null,"c":{"e":[1]}}}]}]}]}`),
		Entry("a keyed item's \"$\" field of an object holding a \"$patch: replace\" map of lists, maps holding \"$patch\" and nulls onto an object: that map less the directive, as it stands",
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A","$foo":{"a":[1],"b":{"c":1,"d":[1]}}}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","env":[{"name":"A","$foo":{"b":{"$patch":"replace","c":[2],"e":{"f":{"$patch":"delete"},"g":null}}}}]}]}]}`),
		Entry("a keyed item's \"$\" field of an object holding a \"$patch: replace\" map of \"$\" keys and maps of other \"$patch\" values onto an object",
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A","$foo":{"b":{"c":1}}}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","env":[{"name":"A","$foo":{"b":{"$patch":"replace","$x":{"y":1},"$retainKeys":["c"],"e":{"$patch":"merge"},"g":{"$patch":"foo"},"h":[{"$patch":"delete"}]}}}]}]}]}`),
		Entry("a keyed item's \"$\" field of an object holding \"$patch: replace\" and \"$patch: delete\" maps of lists and maps where the outcome's object holds a list or none there: dropped",
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A","$foo":{"a":[1],"k":{"z":1}}}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","env":[{"name":"A","$foo":{"a":{"$patch":"replace","c":[2],"e":{"f":1}},"k":{"$patch":"delete","c":[2]},"q":{"$patch":"replace","c":[2]}}}]}]}]}`),
		Entry("a keyed item's \"$\" field of an object that itself holds \"$patch: replace\" beside lists and maps holding \"$patch\": itself less the directive",
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A","$foo":{"a":[1],"b":{"c":1}}}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","env":[{"name":"A","$foo":{"$patch":"replace","a":[2,{"$patch":"delete"}],"b":{"$patch":"delete"},"c":null}}]}]}]}`),
		Entry("a keyed item's \"$\" field of an object that itself holds \"$patch: delete\" beside lists: empty",
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A","$foo":{"a":[1],"b":{"c":1}}}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","env":[{"name":"A","$foo":{"$patch":"delete","a":[2],"b":{"c":{"d":1}}}}]}]}]}`),
		Entry("a keyed item's \"$\" field of a list onto a list: the patch's, objects and nulls as they stand",
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A","$foo":[1,{"a":1}]}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","env":[{"name":"A","$foo":[2,{"b":null}]}]}]}]}`),
		Entry("a keyed item's \"$\" field of a list holding a \"$patch\" map onto a list: as it stands",
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A","$foo":[1]}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","env":[{"name":"A","$foo":[{"$patch":"delete","a":1},2]}]}]}]}`),
		Entry("a keyed item's \"$\" field of an object holding \"$patch\" maps where the outcome's object lacks them: dropped",
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A","$foo":{"a":1}}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","env":[{"name":"A","$foo":{"b":{"$patch":"delete"},"c":{"$patch":"replace","x":1}}}]}]}]}`),
		Entry("a keyed item's \"$\" field of an object holding a \"$patch: delete\" map onto an object's map: emptied",
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A","$foo":{"a":{"q":1}}}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","env":[{"name":"A","$foo":{"a":{"$patch":"delete"}}}]}]}]}`),
		Entry("a keyed item's \"$\" field of a \"$patch: replace\" object onto an object: its fields",
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A","$foo":{"a":{"q":1}}}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","env":[{"name":"A","$foo":{"$patch":"replace","b":1}}]}]}]}`),
		Entry("a part's \"$\" field of a list onto a list",
			`{"groups":[{"name":"g","parts":[{"name":"p","$foo":[1]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","$foo":[2]}]}]}`),
		Entry("a part's undeclared list onto a list: the patch's, objects, lists and nulls as they stand",
			`{"groups":[{"name":"g","parts":[{"name":"p","zz":[1,2]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","zz":[{"a":1},[3],null]}]}]}`),
		Entry("a part's undeclared object holding a list onto an object holding one: the patch's list",
			`{"groups":[{"name":"g","parts":[{"name":"p","zz":{"y":[1,2],"x":1}}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","zz":{"y":[3]}}]}]}`),
		Entry("a keyed item's undeclared list holding a \"$patch\" map onto a list: as it stands",
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A","zz":[1]}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","env":[{"name":"A","zz":[{"$patch":"delete"}]}]}]}]}`),
		Entry("a keyed item's undeclared empty list onto a list",
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A","zz":[1]}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","env":[{"name":"A","zz":[]}]}]}]}`),
		Entry("a keyed list naming an item's key twice, each holding an undeclared list: the last",
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A","zz":[1]}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","env":[{"name":"A","zz":[2]},{"name":"A","zz":[3]}]}]}]}`),
	)

	DescribeTable("a group repeat whose part's keyed item holds a \"$\" field of an object whose merge fails where the outcome's item holds an object, decided in Phase 2",
		decides,
		Entry("a \"$patch: merge\" map in it: the collation's error there",
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A","$foo":{"a":{"c":1}}}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","env":[{"name":"A","$foo":{"a":{"$patch":"merge","b":1}}}]}]}]}`, true),
		Entry("itself holding \"$patch: merge\"",
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A","$foo":{"a":1}}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","env":[{"name":"A","$foo":{"$patch":"merge","b":1}}]}]}]}`, true),
		Entry("itself holding another \"$patch\" value",
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A","$foo":{"a":1}}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","env":[{"name":"A","$foo":{"$patch":"foo","b":1}}]}]}]}`, true),
		Entry("a map of another \"$patch\" value in it",
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A","$foo":{"a":{"c":1}}}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","env":[{"name":"A","$foo":{"a":{"$patch":"foo"}}}]}]}]}`, true),
		Entry("another \"$retainKeys\" than the outcome's there",
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A","$foo":{"$retainKeys":["a"],"a":1}}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","env":[{"name":"A","$foo":{"$retainKeys":["b"],"b":1}}]}]}]}`, true),
		Entry("before a set of the item that fails: the field's error, the first in key order",
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A","$foo":{"a":1},"flags":["x"]}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","env":[{"name":"A","$foo":{"$patch":"merge","b":1},"flags":[1]}]}]}]}`, true),
	)

	DescribeTable("a group repeat whose part names a set's value twice, or holds a set or map a merge refuses, decided in Phase 2",
		decides,
		Entry("the repeat's set naming a value twice: each once, ranked by its first place",
			`{"groups":[{"name":"g","parts":[{"name":"p","aliases":["a","b"]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","aliases":["c","a","c"]}]}]}`, false),
		Entry("both sets naming a value twice",
			`{"groups":[{"name":"g","parts":[{"name":"p","aliases":["a","b","c","b"]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","aliases":["d","b","d","a"]}]}]}`, false),
		Entry("an empty set onto one naming a value twice: deduplicated in place, a repeat taking the last value's place",
			`{"groups":[{"name":"g","parts":[{"name":"p","aliases":["a","a","b","c"]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","aliases":[]}]}]}`, false),
		Entry("numbers naming a value twice, an integer and a decimal among them",
			`{"groups":[{"name":"g","parts":[{"name":"p","ports":[1,2,1]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","ports":[2.0,3,3]}]}]}`, false),
		Entry("in a keyed list's item, naming a value twice",
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A","flags":["x","y","x"]}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","env":[{"name":"A","flags":["z","x","z"]}]}]}]}`, false),
		Entry("of two classes, or holding objects, lists and nulls, where the outcome's part lacks it: less its maps holding \"$patch\"",
			`{"groups":[{"name":"g","parts":[{"name":"p","value":"v"}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","aliases":["a",1,{"b":1},["c"],null,{"$patch":"delete"}],"ports":[1,"x",1]}]}]}`, false),
		Entry("an empty set beside its \"$setElementOrder\" onto one naming a value twice: ranked by that one deduplicated in place",
			`{"groups":[{"name":"g","parts":[{"name":"p","aliases":["c","c","a","b"]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","$setElementOrder/aliases":["d","c"],"aliases":[]}]}]}`, false),
		Entry("a keyed list with a \"$patch: replace\" item beside its \"$setElementOrder\": its data items, ordered by it",
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A","value":"1"},{"name":"B"}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","$setElementOrder/env":[{"name":"C"},{"name":"A"}],"env":[{"name":"C"},{"$patch":"replace"},{"name":"A","value":"2"}]}]}]}`, false),
		Entry("an ordered set naming a value twice where the outcome's part lacks it: its items kept, each at its value's first place in the order",
			`{"groups":[{"name":"g","parts":[{"name":"p","value":"v"}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","$setElementOrder/aliases":["a","b","a"],"aliases":["a","b","a"]}]}]}`, false),
		Entry("an ordered set naming a value twice in a keyed list's item that the outcome's item lacks",
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A","value":"1"}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","env":[{"name":"A","$setElementOrder/flags":["x","y","x"],"flags":["x","y","x"]}]}]}]}`, false),
		Entry("an ordered set naming a value twice in a map the outcome's part holds without it",
			`{"groups":[{"name":"g","parts":[{"name":"p","extra":{"mode":"m"}}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","extra":{"$setElementOrder/tags":["a","b","c","a"],"tags":["a","b","a"]}}]}]}`, false),
		Entry("an ordered set naming a value twice in a map the outcome's part lacks: copied as it stands",
			`{"groups":[{"name":"g","parts":[{"name":"p"}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","extra":{"$setElementOrder/tags":["a","b","a"],"tags":["a","b","a"]}}]}]}`, false),
		Entry("an ordered set naming a value twice in a keyed list's item the outcome's part lacks: copied as it stands",
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A"}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","env":[{"name":"B","$setElementOrder/flags":["x","y","x"],"flags":["x","y","x"]}]}]}]}`, false),
		Entry("numbers onto strings: the patch's error",
			`{"groups":[{"name":"g","parts":[{"name":"p","aliases":["a"]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","aliases":[1,2]}]}]}`, true),
		Entry("the outcome's set of two classes: live's error",
			`{"groups":[{"name":"g","parts":[{"name":"p","aliases":["a",1]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","aliases":["b"]}]}]}`, true),
		Entry("the repeat's set of two classes",
			`{"groups":[{"name":"g","parts":[{"name":"p","aliases":["a"]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","aliases":["b",1]}]}]}`, true),
		Entry("an object in the repeat's set onto strings",
			`{"groups":[{"name":"g","parts":[{"name":"p","aliases":["a"]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","aliases":[{"a":1}]}]}]}`, true),
		Entry("objects on both sides: a set of maps without a merge key",
			`{"groups":[{"name":"g","parts":[{"name":"p","aliases":[{"a":1}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","aliases":[{"b":2}]}]}]}`, true),
		Entry("a list in the repeat's set onto an empty one",
			`{"groups":[{"name":"g","parts":[{"name":"p","aliases":[]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","aliases":[["a"]]}]}]}`, true),
		Entry("in a keyed list's item, numbers onto strings: at the item's path",
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A","flags":["x"]},{"name":"B"}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","env":[{"name":"B","value":"b"},{"name":"A","flags":[1]}]}]}]}`, true),
		Entry("a keyed list's item holding a map of another \"$patch\" where the outcome's item holds a map: the collation's error there",
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A","q":{"b":2}}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","env":[{"name":"A","q":{"$patch":"foo","a":1}}]}]}]}`, true),
		Entry("a part's map of a \"$patch\" not a string where the outcome's part holds a map",
			`{"groups":[{"name":"g","parts":[{"name":"p","extra":{"mode":"m"}}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","aliases":["a"],"extra":{"$patch":7,"mode":"n"}}]}]}`, true),
		Entry("a \"$setElementOrder\" of a set neither the repeat's part nor the outcome's holds items of",
			`{"groups":[{"name":"g","parts":[{"name":"p","aliases":[]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","$setElementOrder/aliases":["a"],"aliases":[]}]}]}`, true),
		Entry("a \"$setElementOrder\" of a list the outcome's part holds as a scalar: live's error",
			`{"groups":[{"name":"g","parts":[{"name":"p","aliases":"s"}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","$setElementOrder/aliases":["a"],"aliases":["a"]}]}]}`, true),
		Entry("a \"$setElementOrder\" of a keyed list without items after a set that merges: the order's error at its list",
			`{"groups":[{"name":"g","parts":[{"name":"p","aliases":["a"],"env":[]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","aliases":["b"],"$setElementOrder/env":[{"name":"A"}],"env":[]}]}]}`, true),
		Entry("a \"$setElementOrder\" its keyed list contradicts: the order check's error at the list",
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A"}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","$setElementOrder/env":[{"name":"B"},{"name":"A"}],"env":[{"name":"A"},{"name":"B"}]}]}]}`, true),
		Entry("a \"$setElementOrder\" leaving out an item of its set: the order check's error",
			`{"groups":[{"name":"g","parts":[{"name":"p","aliases":["x"]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","$setElementOrder/aliases":["a"],"aliases":["a","b"]}]}]}`, true),
		Entry("a \"$setElementOrder\" its set contradicts, the outcome's part lacking the set",
			`{"groups":[{"name":"g","parts":[{"name":"p","value":"v"}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","$setElementOrder/aliases":["b","a"],"aliases":["a","b"]}]}]}`, true),
		Entry("a contradicted order after a set that fails, by field: the set's error",
			`{"groups":[{"name":"g","parts":[{"name":"p","aliases":["a"],"env":[{"name":"A"}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","aliases":[1],"$setElementOrder/env":[{"name":"B"},{"name":"A"}],"env":[{"name":"A"},{"name":"B"}]}]}]}`, true),
		Entry("a contradicted order before a set that fails, by field: the order's error",
			`{"groups":[{"name":"g","parts":[{"name":"p","ports":[1],"env":[{"name":"A"}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","ports":["x"],"$setElementOrder/env":[{"name":"B"},{"name":"A"}],"env":[{"name":"A"},{"name":"B"}]}]}]}`, true),
		Entry("a contradicted order in a keyed list whose item's set fails: the order's error",
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A","flags":["x"]}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","$setElementOrder/env":[{"name":"B"},{"name":"A"}],"env":[{"name":"A","flags":[1]},{"name":"B"}]}]}]}`, true),
		Entry("a contradicted order in the second of two parts the outcome holds",
			`{"groups":[{"name":"g","parts":[{"name":"p"},{"name":"q","aliases":["a"]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","value":"v"},{"name":"q","$setElementOrder/aliases":["c","b"],"aliases":["b","c"]}]}]}`, true),
		Entry("a part's map of an unknown \"$patch\" holding a set, where the outcome's part holds a map: the collation's error there",
			`{"groups":[{"name":"g","parts":[{"name":"p","extra":{"mode":"m"}}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","extra":{"$patch":"foo","tags":["a"]}}]}]}`, true),
		Entry("a part's map of an unknown \"$patch\" holding a set its order contradicts, where the outcome's part holds a map: the directive's error",
			`{"groups":[{"name":"g","parts":[{"name":"p","extra":{"mode":"m"}}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","extra":{"$patch":"foo","$setElementOrder/tags":["b","a"],"tags":["a","b"]}}]}]}`, true),
		Entry("a part's map of an unknown \"$patch\" holding \"$\" keys, where the outcome's part holds a map: the directive's error",
			`{"groups":[{"name":"g","parts":[{"name":"p","extra":{"mode":"m"}}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","extra":{"$patch":"foo","$x":{"a":1},"$retainKeys":["mode"]}}]}]}`, true),
		Entry("a part's map of an unknown \"$patch\" holding a set naming a value twice, the outcome's part lacking the map: dropped",
			`{"groups":[{"name":"g","parts":[{"name":"p"}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","extra":{"$patch":"foo","tags":["a","a"]}}]}]}`, false),
		Entry("a part's map of an unknown \"$patch\" holding a set its order contradicts, the outcome's part lacking the map: dropped",
			`{"groups":[{"name":"g","parts":[{"name":"p"}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","extra":{"$patch":"foo","$setElementOrder/tags":["b","a"],"tags":["a","b"]}}]}]}`, false),
		Entry("a part's map of a \"$patch\" not a string holding a list of two classes, where the outcome's part holds a map: the directive's error",
			`{"groups":[{"name":"g","parts":[{"name":"p","extra":{"mode":"m"}}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","extra":{"$patch":7,"tags":[1,{"a":1}]}}]}]}`, true),
		Entry("a keyed list's item holding a map of an unknown \"$patch\" with a list and a \"$\" key, where the outcome's item holds a map: the directive's error",
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A","q":{"b":2}}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","env":[{"name":"A","q":{"$patch":"foo","a":[1],"$b":{"c":1}}}]}]}]}`, true),
		Entry("a keyed list's item holding a map of an unknown \"$patch\" with a list and a \"$\" key, the outcome's item lacking it: dropped",
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A"}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","env":[{"name":"A","q":{"$patch":"foo","a":[1],"$b":{"c":1}}}]}]}]}`, false),
		Entry("a keyed list's item holding a map of an unknown \"$patch\" with a list, the outcome's item holding a scalar there: dropped",
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A","q":"s"}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","env":[{"name":"A","q":{"$patch":"foo","a":[1]}}]}]}]}`, false),
		Entry("a keyed list with a \"$patch: replace\" item beside its \"$setElementOrder\", naming a key twice: its data items, each kept, by the order",
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A","value":"1"},{"name":"B"}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","$setElementOrder/env":[{"name":"C"},{"name":"A"},{"name":"A"}],"env":[{"name":"C"},{"$patch":"replace"},{"name":"A","value":"2"},{"name":"A","value":"3"}]}]}]}`, false),
		Entry("a keyed list with a \"$patch: replace\" item, naming a key twice apart in its order: each at its key's first place there",
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A","value":"1"},{"name":"B"}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","$setElementOrder/env":[{"name":"A"},{"name":"C"},{"name":"A"}],"env":[{"name":"A","value":"2"},{"$patch":"replace"},{"name":"C"},{"name":"A","value":"3"}]}]}]}`, false),
		Entry("a keyed list with a \"$patch: replace\" item and a \"$patch: delete\" item beside its \"$setElementOrder\": its data items, by the order",
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A","value":"1"},{"name":"B"},{"name":"D"}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","$setElementOrder/env":[{"name":"C"},{"name":"A"}],"env":[{"name":"C"},{"$patch":"replace"},{"name":"B","$patch":"delete"},{"name":"A","value":"2"}]}]}]}`, false),
		Entry("a keyed list with a \"$patch: delete\" item before its \"$patch: replace\" item, of a key its data items name",
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A","value":"1"},{"name":"B"},{"name":"D"}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","$setElementOrder/env":[{"name":"D"},{"name":"A"}],"env":[{"name":"A","$patch":"delete"},{"name":"D"},{"$patch":"replace"},{"name":"A","value":"2"}]}]}]}`, false),
		Entry("a keyed list with a \"$patch: replace\" item, delete items and a key named twice",
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A","value":"1"},{"name":"B"},{"name":"D"}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","$setElementOrder/env":[{"name":"A"},{"name":"C"},{"name":"A"},{"name":"B"}],"env":[{"name":"D","$patch":"delete"},{"name":"A","value":"2"},{"$patch":"replace"},{"name":"C"},{"name":"A","value":"3"},{"name":"B","$patch":"delete"},{"name":"B","x":"y"}]}]}]}`, false),
		Entry("a keyed list with a \"$patch: replace\" item and a delete item of a key the outcome lacks",
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A","value":"1"}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","$setElementOrder/env":[{"name":"A"}],"env":[{"name":"Z","$patch":"delete"},{"$patch":"replace"},{"name":"A","value":"2"}]}]}]}`, false),
		Entry("a keyed list with a \"$patch: replace\" item beside its \"$setElementOrder\", the outcome's part lacking the list: its data items, by the order",
			`{"groups":[{"name":"g","parts":[{"name":"p","value":"v"}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","$setElementOrder/env":[{"name":"C"},{"name":"A"}],"env":[{"$patch":"replace"},{"name":"C"},{"name":"A","value":"2"}]}]}]}`, false),
		Entry("a keyed list with a \"$patch: replace\" item and delete items beside its \"$setElementOrder\", the outcome's part lacking the list: the delete items dropped",
			`{"groups":[{"name":"g","parts":[{"name":"p"}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","$setElementOrder/env":[{"name":"C"},{"name":"A"}],"env":[{"name":"B","$patch":"delete"},{"$patch":"replace"},{"name":"C","$patch":"delete"},{"name":"C"},{"name":"A","value":"2"}]}]}]}`, false),
		Entry("a keyed list with a \"$patch: replace\" item naming a key twice beside its \"$setElementOrder\", the outcome's part lacking the list: each kept, at its key's first place",
			`{"groups":[{"name":"g","parts":[{"name":"p"}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","$setElementOrder/env":[{"name":"A"},{"name":"C"},{"name":"A"}],"env":[{"name":"A","value":"2"},{"$patch":"replace"},{"name":"C"},{"name":"A","value":"3"}]}]}]}`, false),
		Entry("a keyed list with a \"$patch: replace\" item whose data items hold orders, \"$retainKeys\" and a set naming a value twice, the outcome's part lacking the list: taken",
			`{"groups":[{"name":"g","parts":[{"name":"p"}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","$setElementOrder/env":[{"name":"C"},{"name":"A"}],"env":[{"name":"C","$setElementOrder/flags":["y","x"],"flags":["y","x"]},{"$patch":"replace"},{"name":"A","$retainKeys":["name"],"flags":["z","z"]}]}]}]}`, false),
		Entry("a keyed list's \"$patch: delete\" item without the merge key, onto the outcome's part's list: the collation's error at that item",
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A"}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","env":[{"name":"B"},{"$patch":"delete","value":"x"}]}]}]}`, true),
		Entry("\"$patch: delete\" items without the merge key after a keyed one, in a part whose set merges: the first's error",
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A","flags":["a"]}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","env":[{"name":"A","flags":["b"]},{"name":"B","$patch":"delete"},{"$patch":"delete"},{"$patch":"delete","x":1}]}]}]}`, true),
		Entry("a \"$patch: delete\" item without the merge key onto an empty list: its error",
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","env":[{"$patch":"delete"}]}]}]}`, true),
		Entry("a \"$patch: delete\" item without the merge key after a set that fails, by field: the set's error",
			`{"groups":[{"name":"g","parts":[{"name":"p","aliases":["a"],"env":[{"name":"A"}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","aliases":[1],"env":[{"$patch":"delete"}]}]}]}`, true),
		Entry("a \"$patch: delete\" item without the merge key, the outcome's part lacking the list: dropped with the list's other \"$patch\" items",
			`{"groups":[{"name":"g","parts":[{"name":"p","value":"v"}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","env":[{"$patch":"delete"},{"name":"B"},{"name":"C","$patch":"delete"}]}]}]}`, false),
		Entry("a \"$patch: delete\" item without the merge key, the outcome's part holding a scalar there: the list less it",
			`{"groups":[{"name":"g","parts":[{"name":"p","env":"s"}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","env":[{"name":"B"},{"$patch":"delete","value":"x"}]}]}]}`, false),
		Entry("a set failing before a \"$setElementOrder\" that fails, by field: the set's error",
			`{"groups":[{"name":"g","parts":[{"name":"p","aliases":["a"],"ports":[]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","aliases":[1],"$setElementOrder/ports":[1],"ports":[]}]}]}`, true),
		Entry("a field before the failing set merged: the set's error",
			`{"groups":[{"name":"g","parts":[{"name":"p","aliases":["a"],"ports":[1]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","aliases":["b"],"ports":["x"]}]}]}`, true),
		Entry("a keyed list with a \"$patch: replace\" item beside its \"$setElementOrder\", the outcome's list holding a \"$patch: replace\" item: live's error at that item",
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"$patch":"replace"},{"name":"A","value":"1"}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","$setElementOrder/env":[{"name":"C"}],"env":[{"$patch":"replace"},{"name":"C"}]}]}]}`, true),
		Entry("a keyed list with a \"$patch: replace\" item beside its \"$setElementOrder\", after a set that merges, the outcome's list holding a \"$patch: delete\" item without the key: live's error at that item",
			`{"groups":[{"name":"g","parts":[{"name":"p","aliases":["b"],"env":[{"name":"A","value":"1"},{"$patch":"delete","value":"x"}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","aliases":["a"],"$setElementOrder/env":[{"name":"C"},{"name":"A"}],"env":[{"name":"C"},{"$patch":"replace"},{"name":"A","value":"2"}]}]}]}`, true),
		Entry("a keyed list with a \"$patch: replace\" item beside its \"$setElementOrder\", the outcome's list holding an item without the key, before a map of an unknown \"$patch\" onto the outcome's map: live's error at the list",
			`{"groups":[{"name":"g","parts":[{"name":"p","extra":{"mode":"m"},"env":[{"name":"A"},{"value":"1"}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","extra":{"$patch":"foo","mode":"n"},"$setElementOrder/env":[{"name":"C"}],"env":[{"$patch":"replace"},{"name":"C"}]}]}]}`, true),
		Entry("a keyed list with a \"$patch: replace\" item beside its \"$setElementOrder\", after a set that fails, the outcome's list holding a \"$patch: replace\" item: the set's error",
			`{"groups":[{"name":"g","parts":[{"name":"p","aliases":["b"],"env":[{"name":"A"},{"$patch":"replace"}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","aliases":[1],"$setElementOrder/env":[{"name":"C"}],"env":[{"$patch":"replace"},{"name":"C"}]}]}]}`, true),
	)

	DescribeTable("a group repeat whose part's keyed list holds an item without the merge key, or keyed by an object or a list, decided in Phase 2",
		decides,
		Entry("a data item lacking the key, onto the outcome's list: the collation's error at that item",
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A","value":"1"}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","env":[{"name":"B"},{"value":"x"}]}]}]}`, true),
		Entry("a data item lacking the key, onto an empty list: its error",
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","env":[{"value":"y"}]}]}]}`, true),
		Entry("a \"$patch: delete\" item lacking the key beside its \"$setElementOrder\", onto the outcome's list: its error",
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A","value":"1"}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","$setElementOrder/env":[{"name":"C"},{"name":"B"}],"env":[{"$patch":"delete"},{"name":"B"}]}]}]}`, true),
		Entry("a \"$patch: delete\" item lacking the key beside an order its list contradicts: its error, the items read before the order",
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A","value":"1"}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","$setElementOrder/env":[{"name":"B"},{"name":"A"}],"env":[{"name":"A"},{"$patch":"delete"},{"name":"B"}]}]}]}`, true),
		Entry("a \"$patch: delete\" item keyed by an object before one lacking the key: the first's error",
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A","value":"1"}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","env":[{"name":{"x":1},"$patch":"delete"},{"$patch":"delete"}]}]}]}`, true),
		Entry("a data item keyed by a list before one lacking the key: the first's error",
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A","value":"1"}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","env":[{"name":["x"]},{"value":"y"}]}]}]}`, true),
		Entry("a \"$patch: replace\" item before a data item lacking the key: that item's error",
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A","value":"1"}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","env":[{"$patch":"replace"},{"name":"B"},{"value":"y"}]}]}]}`, true),
		Entry("in a later part of its key, the earlier one merging: its error",
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A","value":"1"}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","value":"v"},{"name":"p","env":[{"value":"y"}]}]}]}`, true),
		Entry("a data item lacking the key, the outcome's part lacking the list: the list less its \"$patch\" items",
			`{"groups":[{"name":"g","parts":[{"name":"p"}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","env":[{"value":"B"},{"$patch":"delete"}]}]}]}`, false),
		Entry("a \"$patch: delete\" item keyed by an object, the outcome's part lacking the list: the list less it",
			`{"groups":[{"name":"g","parts":[{"name":"p"}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","env":[{"name":{"x":1},"$patch":"delete"},{"name":"B"}]}]}]}`, false),
		Entry("a data item keyed by a list and one lacking the key, the outcome's part holding a scalar there: the list",
			`{"groups":[{"name":"g","parts":[{"name":"p","env":"s"}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","env":[{"name":["x"]},{"value":"y"}]}]}]}`, false),
		Entry("in a part the outcome lacks: appended as it stands",
			`{"groups":[{"name":"g","parts":[{"name":"p"}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"q","env":[{"value":"y"},{"$patch":"delete"}]}]}]}`, false),
	)

	DescribeTable("a group repeat whose part holds a set beside its \"$setElementOrder\" that cannot merge with the outcome's, decided in Phase 2",
		decides,
		Entry("numbers onto strings: the set's error",
			`{"groups":[{"name":"g","parts":[{"name":"p","aliases":["a"]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","$setElementOrder/aliases":[1],"aliases":[1]}]}]}`, true),
		Entry("numbers onto strings beside an order they contradict: the set's error, the classes checked before the order",
			`{"groups":[{"name":"g","parts":[{"name":"p","aliases":["a"]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","$setElementOrder/aliases":[2,1],"aliases":[1,2]}]}]}`, true),
		Entry("the repeat's set of two classes",
			`{"groups":[{"name":"g","parts":[{"name":"p","aliases":["a"]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","$setElementOrder/aliases":["b",1],"aliases":["b",1]}]}]}`, true),
		Entry("the outcome's set of two classes: live's error",
			`{"groups":[{"name":"g","parts":[{"name":"p","aliases":["a",1]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","$setElementOrder/aliases":["b"],"aliases":["b"]}]}]}`, true),
		Entry("strings onto objects",
			`{"groups":[{"name":"g","parts":[{"name":"p","aliases":[{"a":1}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","$setElementOrder/aliases":["b"],"aliases":["b"]}]}]}`, true),
		Entry("in a keyed list's item, numbers onto strings: at the item's path",
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A","flags":["a"]}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","env":[{"name":"A","$setElementOrder/flags":[1],"flags":[1]}]}]}]}`, true),
		Entry("before a set failing without an order, by field: the first's error",
			`{"groups":[{"name":"g","parts":[{"name":"p","aliases":["a"],"ports":[1]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","$setElementOrder/aliases":[1],"aliases":[1],"ports":["x"]}]}]}`, true),
		Entry("after a set that merges: its error",
			`{"groups":[{"name":"g","parts":[{"name":"p","aliases":["a"],"ports":[1]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","aliases":["b"],"$setElementOrder/ports":["x"],"ports":["x"]}]}]}`, true),
	)

	DescribeTable("a group repeat whose part holds a \"$setElementOrder\" the outcome's holds otherwise, decided in Phase 2",
		decides,
		Entry("of a keyed list: the disagreement's error at the part",
			`{"groups":[{"name":"g","parts":[{"name":"p","$setElementOrder/env":[{"name":"A"}],"env":[{"name":"A"}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","$setElementOrder/env":[{"name":"B"}],"env":[{"name":"B"}]}]}]}`, true),
		Entry("of a set beside it",
			`{"groups":[{"name":"g","parts":[{"name":"p","$setElementOrder/aliases":["a"],"aliases":["a"]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","$setElementOrder/aliases":["b","a"],"aliases":["b"]}]}]}`, true),
		Entry("alone, the list left out",
			`{"groups":[{"name":"g","parts":[{"name":"p","$setElementOrder/aliases":["a"],"aliases":["a"]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","$setElementOrder/aliases":["b","a"]}]}]}`, true),
		Entry("before a set that fails, by field: the disagreement's error, the map's \"$\" keys built first",
			`{"groups":[{"name":"g","parts":[{"name":"p","$setElementOrder/ports":[1],"aliases":["a"],"ports":[1]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","$setElementOrder/ports":[2,1],"aliases":[1],"ports":[2]}]}]}`, true),
		Entry("in a keyed list's item: at that item",
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A","$setElementOrder/flags":["a"],"flags":["a"]}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","env":[{"name":"A","$setElementOrder/flags":["b"],"flags":["b"]}]}]}]}`, true),
		Entry("in a map of the part: at that map",
			`{"groups":[{"name":"g","parts":[{"name":"p","extra":{"$setElementOrder/tags":["a"],"tags":["a"]}}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","extra":{"$setElementOrder/tags":["b"],"tags":["b"]}}]}]}`, true),
	)

	DescribeTable("a group repeat whose part holds a \"$setElementOrder\" its list contradicts, in it or below it, decided in Phase 2",
		decides,
		Entry("in a map the outcome's part holds: the order check's error at the list",
			`{"groups":[{"name":"g","parts":[{"name":"p","extra":{"mode":"m"}}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","extra":{"$setElementOrder/tags":["b","a"],"tags":["a","b"]}}]}]}`, true),
		Entry("in a map the outcome's part lacks: taken, the order with it",
			`{"groups":[{"name":"g","parts":[{"name":"p"}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","extra":{"$setElementOrder/tags":["b","a"],"tags":["a","b"]}}]}]}`, false),
		Entry("in a keyed list's item the outcome's part holds: at that item's list",
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A"}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","env":[{"name":"A","$setElementOrder/flags":["b","a"],"flags":["a","b"]}]}]}]}`, true),
		Entry("in the second of a keyed list's items the outcome's part holds, the first merging",
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A"},{"name":"B","flags":["x"]}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","env":[{"name":"B","flags":["z"]},{"name":"A","$setElementOrder/flags":["b","a"],"flags":["a","b"]}]}]}]}`, true),
		Entry("of a keyed list holding a \"$patch: delete\" item between its items: the check's error, deletions aside",
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"X"}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","$setElementOrder/env":[{"name":"B"},{"name":"A"}],"env":[{"name":"A"},{"name":"C","$patch":"delete"},{"name":"B"}]}]}]}`, true),
		Entry("of a keyed list holding a \"$patch: delete\" item first",
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"X"}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","$setElementOrder/env":[{"name":"B"},{"name":"A"}],"env":[{"name":"X","$patch":"delete"},{"name":"A"},{"name":"B"}]}]}]}`, true),
		Entry("leaving out an item of a keyed list holding a \"$patch: delete\" item",
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"X"}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","$setElementOrder/env":[{"name":"A"}],"env":[{"name":"A"},{"name":"B"},{"name":"X","$patch":"delete"}]}]}]}`, true),
		Entry("naming a \"$patch: delete\" item's key among entries the list contradicts",
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"X"}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","$setElementOrder/env":[{"name":"B"},{"name":"X"},{"name":"A"}],"env":[{"name":"A"},{"name":"X","$patch":"delete"},{"name":"B"}]}]}]}`, true),
		Entry("of a keyed list naming a key twice, the order naming another before it",
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"X"}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","$setElementOrder/env":[{"name":"B"},{"name":"A"}],"env":[{"name":"A"},{"name":"B"},{"name":"A"}]}]}]}`, true),
		Entry("of a keyed list naming a key again after the order's last entry",
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"X"}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","$setElementOrder/env":[{"name":"A"},{"name":"B"}],"env":[{"name":"A"},{"name":"B"},{"name":"A"}]}]}]}`, true),
		Entry("leaving out an item of a keyed list naming a key twice",
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"X"}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","$setElementOrder/env":[{"name":"A"}],"env":[{"name":"A"},{"name":"B"},{"name":"A"}]}]}]}`, true),
		Entry("of a set naming a value twice",
			`{"groups":[{"name":"g","parts":[{"name":"p","aliases":["x"]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","$setElementOrder/aliases":["b","a"],"aliases":["a","b","a"]}]}]}`, true),
		Entry("of a keyed item's set naming a value twice",
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"X","flags":["q"]}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","env":[{"name":"X","$setElementOrder/flags":["b","a"],"flags":["a","b","a"]}]}]}]}`, true),
		Entry("in a keyed list's item the outcome's part lacks: appended as it stands",
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A"}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","env":[{"name":"B","$setElementOrder/flags":["b","a"],"flags":["a","b","a"]},{"name":"A","flags":["x"]}]}]}]}`, false),
		Entry("in a part the outcome's group lacks: appended as it stands",
			`{"groups":[{"name":"g","parts":[{"name":"p"}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"q","$setElementOrder/aliases":["b","a"],"aliases":["a","b"]},{"name":"p","aliases":["c"]}]}]}`, false),
		Entry("in a part the outcome's group lacks, before a part whose set fails: that set's error",
			`{"groups":[{"name":"g","parts":[{"name":"p","aliases":["x"]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"q","$setElementOrder/aliases":["b","a"],"aliases":["a","b"]},{"name":"p","aliases":[1]}]}]}`, true),
		Entry("of a keyed list holding a \"$patch: replace\" item after the order's last entry: the check's error",
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"X"}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","$setElementOrder/env":[{"name":"B"},{"name":"A"}],"env":[{"name":"A"},{"$patch":"replace"},{"name":"B"}]}]}]}`, true),
		Entry("of a keyed list holding a \"$patch: replace\" item first, its data items out of the order",
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"X"}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","$setElementOrder/env":[{"name":"B"},{"name":"A"}],"env":[{"$patch":"replace"},{"name":"A"},{"name":"B"}]}]}]}`, true),
		Entry("leaving out an item of a keyed list holding a \"$patch: replace\" item",
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"X"}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","$setElementOrder/env":[{"name":"A"}],"env":[{"name":"A"},{"name":"B"},{"$patch":"replace"}]}]}]}`, true),
		Entry("of a keyed list holding a \"$patch: replace\" item and a delete item, the outcome's part lacking the list",
			`{"groups":[{"name":"g","parts":[{"name":"p"}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","$setElementOrder/env":[{"name":"B"},{"name":"A"}],"env":[{"name":"A"},{"name":"C","$patch":"delete"},{"$patch":"replace"},{"name":"B"}]}]}]}`, true),
		Entry("in a map after a set that fails, by field: the set's error",
			`{"groups":[{"name":"g","parts":[{"name":"p","aliases":["a"],"extra":{"mode":"m"}}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","aliases":[1],"extra":{"$setElementOrder/tags":["b","a"],"tags":["a","b"]}}]}]}`, true),
		Entry("in a map before a set that fails, by field: the order's error",
			`{"groups":[{"name":"g","parts":[{"name":"p","ports":[1],"extra":{"mode":"m"}}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","ports":["x"],"extra":{"$setElementOrder/tags":["b","a"],"tags":["a","b"]}}]}]}`, true),
	)

	// refusedAs composes second into first with the nested schema, second merged as head then rest by the front-end (two
	// Composes naming no key twice): Phase 2 fails with the error the front-end's collation gives (holding msg), the
	// front-end applying no repeat again, where strategicpatch's merge of the patches succeeds (a documented
	// difference: docs/errors.md).
	refusedAs := func(first, second string, head, rest value.Value, msg string) {
		sp, t := nested()
		f, s := jsonv.MustDecode(first), jsonv.MustDecode(second)
		mid, err := patch.Compose(f, head, t, features.Kubectl())
		Expect(err).NotTo(HaveOccurred())
		_, feErr := patch.Compose(mid, rest, t, features.Kubectl())
		Expect(feErr).To(MatchError(ContainSubstring(msg)))
		Expect(again.Load()).To(BeZero(), "the two Composes name no key twice")
		_, werr := sp.MergePatchesWithoutRoom(f.JSON(), s.JSON())
		Expect(werr).NotTo(HaveOccurred())
		_, err = patch.Compose(f, s, t, features.Kubectl())
		var ee *elements.Error
		Expect(errors.As(err, &ee)).To(BeTrue(), "%v", err)
		Expect(err.Error()).To(Equal(feErr.Error()))
		Expect(repeats.Load()).To(BeNumerically(">", 0), "a repeat applied to its key's outcome")
		Expect(again.Load()).To(BeZero(), "the front-end applied a repeat again")
	}
	// refusesOtherKind is refusedAs of second, one group whose parts name a part twice, holding a list at a field the
	// schema types as a scalar or an object: strategicpatch takes the list ("a field of the wrong type"; the drop-in's
	// OtherKindsAtomic takes it too).
	refusesOtherKind := func(first, second string) {
		groups, _ := jsonv.MustDecode(second).Get("groups")
		g := groups.Items()[0]
		parts, _ := g.Get("parts")
		with := func(items []value.Value) value.Value {
			return value.MustMap(value.Field{Key: "groups", Value: value.List([]value.Value{g.With("parts", value.List(items))})})
		}
		refusedAs(first, second, with(parts.Items()[:1]), with(parts.Items()[1:]), "expected ")
	}
	// refusesKeyedByObject is refusedAs of second, a group named twice, whose part's keyed list holds an item keyed by
	// an object or a list onto the outcome's list: strategicpatch's merge deletes by such a "$patch: delete" item,
	// finding no item of its key (docs/errors.md, merge-missing-key).
	refusesKeyedByObject := func(first, second string) {
		groups, _ := jsonv.MustDecode(second).Get("groups")
		head := value.MustMap(value.Field{Key: "groups", Value: value.List(groups.Items()[:1])})
		rest := value.MustMap(value.Field{Key: "groups", Value: value.List(groups.Items()[1:])})
		refusedAs(first, second, head, rest, "must be a string, number or boolean")
	}

	DescribeTable("a group repeat whose part's keyed item holds a \"$\" field of an object holding a \"$setElementOrder\" where the outcome's item holds an object, decided in Phase 2: the collation's error at the list it orders",
		decides,
		Entry("beside its list, the outcome's object holding one",
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A","$foo":{"a":[1]}}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","env":[{"name":"A","$foo":{"a":[2],"$setElementOrder/a":[2]}}]}]}]}`, true),
		Entry("alone, the outcome's object holding the list",
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A","$foo":{"a":[1],"b":1}}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","env":[{"name":"A","$foo":{"x":[2],"$setElementOrder/a":[2]}}]}]}]}`, true),
		Entry("in a map of it, after a field merged",
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A","$foo":{"k":{"z":1}}}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","env":[{"name":"A","$foo":{"b":1,"k":{"a":[2],"$setElementOrder/a":[2]}}}]}]}]}`, true),
	)

	DescribeTable("a group repeat whose part's keyed list holds a \"$patch: delete\" item keyed by an object or a list onto the outcome's list, decided in Phase 2: the collation's error at that item",
		refusesKeyedByObject,
		Entry("keyed by an object, first",
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A","value":"1"},{"name":"B"}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","env":[{"name":{"x":1},"$patch":"delete"},{"name":"C"}]}]}]}`),
		Entry("keyed by a list, after a data item",
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A","value":"1"},{"name":"B"}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","env":[{"name":"C"},{"name":["x"],"$patch":"delete"}]}]}]}`),
		Entry("alone",
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A","value":"1"}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","env":[{"name":{"x":1},"$patch":"delete"}]}]}]}`),
		Entry("after a delete item of a key the outcome holds, before a data item merged into its item",
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A","value":"1"},{"name":"B"}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","env":[{"name":"B","$patch":"delete"},{"name":{"x":1},"$patch":"delete"},{"name":"A","value":"2"}]}]}]}`),
	)

	DescribeTable("a part repeat holding a list where the schema has a scalar or an object, decided in Phase 2: the collation's error there",
		refusesOtherKind,
		Entry("at a scalar field the outcome's part holds",
			`{"groups":[{"name":"g","parts":[{"name":"p","value":"v"}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p"},{"name":"p","value":["x"]}]}]}`),
		Entry("at a scalar field the outcome's part lacks",
			`{"groups":[{"name":"g","parts":[{"name":"p"}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p"},{"name":"p","value":["x"]}]}]}`),
		Entry("at an object's field the outcome's part holds, a scalar after it",
			`{"groups":[{"name":"g","parts":[{"name":"p","extra":{"mode":"m"}}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p"},{"name":"p","extra":[{"mode":"x"}],"value":"w"}]}]}`),
		Entry("at a scalar field of a keyed list's item the outcome's item holds",
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A","value":"v"}]}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p"},{"name":"p","env":[{"name":"A","value":["x"]}]}]}]}`),
		Entry("at a scalar field of a keyed list's item the outcome's item lacks, beside a set",
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A","flags":["f"]}]}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p"},{"name":"p","env":[{"name":"A","flags":["g"],"value":[1]}]}]}]}`),
		Entry("at a scalar field, after lists and an object of the outcome's part that the repeat lacks",
			`{"groups":[{"name":"g","parts":[{"name":"p","aliases":["a"],"args":["b"],"env":[{"name":"A"}],"extra":{"mode":"m"}}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p"},{"name":"p","value":[{"x":1}]}]}]}`),
	)

	DescribeTable("a part repeat whose keyed list holds a \"$patch: replace\" item beside its \"$setElementOrder\", or is held empty and ordered, decided in Phase 2",
		decidesPart,
		Entry("the outcome's list holding a \"$patch: replace\" item: live's error at that item",
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"$patch":"replace"},{"name":"A","value":"1"}]}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p"},{"name":"p","$setElementOrder/env":[{"name":"C"}],"env":[{"$patch":"replace"},{"name":"C"}]}]}]}`, true),
		Entry("the outcome's list holding a \"$patch: delete\" item without the key, after a set that merges: live's error at that item",
			`{"groups":[{"name":"g","parts":[{"name":"p","aliases":["b"],"env":[{"name":"A","value":"1"},{"$patch":"delete"}]}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p"},{"name":"p","aliases":["a"],"$setElementOrder/env":[{"name":"A"},{"name":"C"}],"env":[{"$patch":"replace"},{"name":"A"},{"name":"C"}]}]}]}`, true),
		Entry("the outcome's list holding each item's key: the patch's data items, by the order",
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A","value":"1"},{"name":"B","$patch":"delete"}]}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p"},{"name":"p","$setElementOrder/env":[{"name":"C"},{"name":"A"}],"env":[{"name":"C"},{"$patch":"replace"},{"name":"A","value":"2"}]}]}]}`, false),
		Entry("an empty list it orders whose \"$setElementOrder\" the outcome's part holds otherwise, the outcome's list empty: the order's disagreement",
			`{"groups":[{"name":"g","parts":[{"name":"p","$setElementOrder/env":[{"name":"A"}],"env":[]}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p"},{"name":"p","$setElementOrder/env":[],"env":[]}]}]}`, true),
		Entry("an empty list it orders after a \"$patch: replace\" item of the part's first item emptied it, the outcome's part holding another \"$setElementOrder\" of it: the order's disagreement",
			`{"groups":[{"name":"g","parts":[{"name":"p","$setElementOrder/env":[{"name":"A"}],"env":[{"name":"A"}]}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"$patch":"replace"}]},{"name":"p","$setElementOrder/env":[],"env":[]}]}]}`, true),
	)
})
