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
	"github.com/plyproject/ply/test/jsonv"
	"github.com/plyproject/ply/test/oracle"
)

// Compose of a second patch naming a key twice merges each repeat into its key's outcome in turn. A repeat whose item,
// merged into its key's outcome's item, orders by "$setElementOrder" a field the schema types as a scalar or an
// object, or holds a list there beside a "$deleteFromPrimitiveList" of it, is decided from the patches' one tree
// (Phase 2), the front-end applying none again (probe.OnRepeat), as the front-end decides it: the same merge made as
// two Composes, head then rest, neither naming a key twice. Where ply refuses such an order or list and strategicpatch
// takes it, the difference is the documented one (docs/errors.md, "a field of the wrong type", and its
// "$setElementOrder" errors); elsewhere strategicpatch's merge of the two patches fails where ply's does, or gives
// ply's result.
var _ = Describe("Compose of a repeat ordering a field the schema types as another kind, against the front-end and strategicpatch", func() {
	var repeats, again atomic.Int64
	BeforeEach(func() {
		countRepeats(&repeats, &again)
	})

	schemaOf := func(name string) (*oracle.Oracle, *openapi.Type) {
		if name == "pod" {
			sp, err := oracle.DefaultV3For("io.k8s.api.core.v1.Pod")
			Expect(err).NotTo(HaveOccurred())
			schema, err := openapi.Default()
			Expect(err).NotTo(HaveOccurred())
			t, ok := schema.Kubectl().ByName("io.k8s.api.core.v1.Pod")
			Expect(ok).To(BeTrue())
			return sp, t
		}
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

	// decided composes second (head then rest: its items of a key named twice, the first and the others) into first
	// with schema ("pod": kubectl's OpenAPI v3 Pod; "top": testdata/nested.json's OpenAPI v2 Top): Phase 2 decides the
	// repeat, giving the two Composes' result or error (msg, "" for none); strategicpatch fails too where smpFails,
	// else merges (to ply's result where ply merges).
	decided := func(schema, first, second, head, rest, msg string, smpFails bool) {
		sp, t := schemaOf(schema)
		f, s := jsonv.MustDecode(first), jsonv.MustDecode(second)
		mid, err := patch.Compose(f, jsonv.MustDecode(head), t, features.Kubectl())
		Expect(err).NotTo(HaveOccurred())
		frontEnd, feErr := patch.Compose(mid, jsonv.MustDecode(rest), t, features.Kubectl())
		Expect(again.Load()).To(BeZero(), "the two Composes name no key twice")
		want, werr := sp.MergePatchesWithoutRoom(f.JSON(), s.JSON())
		got, err := patch.Compose(f, s, t, features.Kubectl())
		Expect(repeats.Load()).To(BeNumerically(">", 0), "a repeat applied to its key's outcome")
		Expect(again.Load()).To(BeZero(), "the front-end applied a repeat again")
		if msg != "" {
			Expect(feErr).To(MatchError(ContainSubstring(msg)))
			var ee *elements.Error
			Expect(errors.As(err, &ee)).To(BeTrue(), "%v", err)
			Expect(err.Error()).To(Equal(feErr.Error()))
		} else {
			Expect(feErr).NotTo(HaveOccurred())
			Expect(err).NotTo(HaveOccurred())
			Expect(got).To(equalValue(frontEnd))
		}
		if smpFails {
			Expect(werr).To(HaveOccurred())
			return
		}
		Expect(werr).NotTo(HaveOccurred())
		if msg == "" {
			Expect(got).To(equalValue(jsonv.MustDecode(string(want))))
		}
	}

	DescribeTable("a keyed item's \"$setElementOrder\" of a field the schema types as a scalar or an object, merged into the outcome's item, decided in Phase 2",
		decided,
		Entry("beside a list at a scalar field the outcome's item holds as a string: the first patch's value is no list",
			"top", `{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A","value":"v"}]}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p"},{"name":"p","env":[{"name":"A","value":["x","y"],"$setElementOrder/value":["y","x"]}]}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p"}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A","value":["x","y"],"$setElementOrder/value":["y","x"]}]}]}]}`,
			"orders a list, but the first patch's value is string", true),
		Entry("alone, the outcome's item holding a string there: the first patch's value is no list",
			"top", `{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A","value":"v"}]}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p"},{"name":"p","env":[{"name":"A","$setElementOrder/value":["x"]}]}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p"}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A","$setElementOrder/value":["x"]}]}]}]}`,
			"orders a list, but the first patch's value is string", true),
		Entry("beside a list the outcome's item lacks, OpenAPI v2: the look-up's error at the item, before a set that fails",
			"top", `{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A","flags":["a"]}]}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p"},{"name":"p","env":[{"name":"A","flags":[1],"value":["x"],"$setElementOrder/value":["x"]}]}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p"}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A","flags":[1],"value":["x"],"$setElementOrder/value":["x"]}]}]}]}`,
			"as a list fails: expected slice, but got primitive", true),
		Entry("beside a list the outcome's item lacks, OpenAPI v2: the look-up's error at the item, before a \"$retainKeys\" the outcome's item holds otherwise",
			"top", `{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A","$retainKeys":["name"]}]}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p"},{"name":"p","env":[{"name":"A","$retainKeys":["name","value"],"value":["x"],"$setElementOrder/value":["x"]}]}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p"}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A","$retainKeys":["name","value"],"value":["x"],"$setElementOrder/value":["x"]}]}]}]}`,
			"as a list fails: expected slice, but got primitive", true),
		Entry("alone, the outcome's item lacking the field, OpenAPI v2: the look-up's error at the item",
			"top", `{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A"}]}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p"},{"name":"p","env":[{"name":"A","$setElementOrder/value":["x"]}]}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p"}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A","$setElementOrder/value":["x"]}]}]}]}`,
			"as a list fails: expected slice, but got primitive", true),
		Entry("of a field the item's type does not declare, beside a list: the look-up's error at the item",
			"top", `{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A"}]}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p"},{"name":"p","env":[{"name":"A","zzz":["x"],"$setElementOrder/zzz":["x"]}]}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p"}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A","zzz":["x"],"$setElementOrder/zzz":["x"]}]}]}]}`,
			"orders a field that dev.ply.nested.v1.Env does not declare", true),
		Entry("beside a string the outcome's item lacks: the patch's value is no list",
			"top", `{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A"}]}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p"},{"name":"p","env":[{"name":"A","value":"w","$setElementOrder/value":["x"]}]}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p"}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A","value":"w","$setElementOrder/value":["x"]}]}]}]}`,
			"orders a list, but the patch sets value to string", true),
		Entry("beside a list at an object field (a $ref: found by the look-up) the outcome's part lacks: the schema's kind",
			"top", `{"groups":[{"name":"g","parts":[{"name":"p","value":"v"}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","extra":["x"],"$setElementOrder/extra":["x"]}]}]}`,
			`{"groups":[{"name":"g"}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p","extra":["x"],"$setElementOrder/extra":["x"]}]}]}`,
			"orders a list, but the schema says this field is an object", false),
		Entry("in a map of the item, the outcome's map lacking the field, OpenAPI v2: the look-up's error at that map",
			"top", `{"groups":[{"name":"g","parts":[{"name":"p","extra":{"tags":["a"]}}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","extra":{"mode":["x"],"$setElementOrder/mode":["x"]}}]}]}`,
			`{"groups":[{"name":"g"}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p","extra":{"mode":["x"],"$setElementOrder/mode":["x"]}}]}]}`,
			"as a list fails: expected slice, but got primitive", true),
		Entry("beside a list the outcome's item lacks, OpenAPI v3: the schema's kind at the field",
			"pod", `{"spec":{"containers":[{"name":"a","env":[{"name":"E"}]}]}}`,
			`{"spec":{"containers":[{"name":"a","tty":true},{"name":"a","env":[{"name":"E","value":["y"],"$setElementOrder/value":["y"]}]}]}}`,
			`{"spec":{"containers":[{"name":"a","tty":true}]}}`,
			`{"spec":{"containers":[{"name":"a","env":[{"name":"E","value":["y"],"$setElementOrder/value":["y"]}]}]}}`,
			"orders a list, but the schema says this field is a scalar", false),
		Entry("beside a null, OpenAPI v3: the patch's value is no list",
			"pod", `{"spec":{"containers":[{"name":"a","env":[{"name":"E"}]}]}}`,
			`{"spec":{"containers":[{"name":"a","tty":true},{"name":"a","env":[{"name":"E","value":null,"$setElementOrder/value":["y"]}]}]}}`,
			`{"spec":{"containers":[{"name":"a","tty":true}]}}`,
			`{"spec":{"containers":[{"name":"a","env":[{"name":"E","value":null,"$setElementOrder/value":["y"]}]}]}}`,
			"orders a list, but the patch sets value to null", true),
		Entry("alone, the outcome's item holding an object there, OpenAPI v3: the first patch's value is no list",
			"pod", `{"spec":{"containers":[{"name":"a","env":[{"name":"E","valueFrom":{"fieldRef":{"fieldPath":"x"}}}]}]}}`,
			`{"spec":{"containers":[{"name":"a","tty":true},{"name":"a","env":[{"name":"E","$setElementOrder/valueFrom":["y"]}]}]}}`,
			`{"spec":{"containers":[{"name":"a","tty":true}]}}`,
			`{"spec":{"containers":[{"name":"a","env":[{"name":"E","$setElementOrder/valueFrom":["y"]}]}]}}`,
			"orders a list, but the first patch's value is object", true),
		Entry("alone, the outcome's item holding a list there, OpenAPI v3: the schema's kind at the field",
			"pod", `{"spec":{"containers":[{"name":"a","env":[{"name":"E","value":["q"]}]}]}}`,
			`{"spec":{"containers":[{"name":"a","tty":true},{"name":"a","env":[{"name":"E","$setElementOrder/value":["y"]}]}]}}`,
			`{"spec":{"containers":[{"name":"a","tty":true}]}}`,
			`{"spec":{"containers":[{"name":"a","env":[{"name":"E","$setElementOrder/value":["y"]}]}]}}`,
			"orders a list, but the schema says this field is a scalar", false),
		Entry("alone, the outcome's item lacking the field, OpenAPI v3: the order copied",
			"pod", `{"spec":{"containers":[{"name":"a","env":[{"name":"E"}]}]}}`,
			`{"spec":{"containers":[{"name":"a","tty":true},{"name":"a","env":[{"name":"E","$setElementOrder/value":["y"]}]}]}}`,
			`{"spec":{"containers":[{"name":"a","tty":true}]}}`,
			`{"spec":{"containers":[{"name":"a","env":[{"name":"E","$setElementOrder/value":["y"]}]}]}}`,
			"", false),
	)

	DescribeTable("a keyed item's list at a field the schema types as a scalar or an object beside a \"$deleteFromPrimitiveList\" of it, merged into the outcome's item, decided in Phase 2: the kind check's error there",
		decided,
		Entry("a list of the values to delete, the outcome's item holding a string there",
			"top", `{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A","value":"v"}]}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p"},{"name":"p","env":[{"name":"A","value":["x"],"$deleteFromPrimitiveList/value":["y"]}]}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p"}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A","value":["x"],"$deleteFromPrimitiveList/value":["y"]}]}]}]}`,
			"expected a string (dev.ply.nested.v1.Env.value), got array", false),
		Entry("a null, the outcome's item lacking the field",
			"top", `{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A"}]}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p"},{"name":"p","env":[{"name":"A","value":["x"],"$deleteFromPrimitiveList/value":null}]}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p"}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A","value":["x"],"$deleteFromPrimitiveList/value":null}]}]}]}`,
			"expected a string (dev.ply.nested.v1.Env.value), got array", false),
		Entry("a map, the outcome's item holding a deletion of its own",
			"top", `{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A","value":"v","$deleteFromPrimitiveList/value":["z"]}]}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p"},{"name":"p","env":[{"name":"A","value":["x"],"$deleteFromPrimitiveList/value":{"a":1}}]}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p"}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A","value":["x"],"$deleteFromPrimitiveList/value":{"a":1}}]}]}]}`,
			"expected a string (dev.ply.nested.v1.Env.value), got array", false),
		Entry("at an object's field of a part the outcome's part holds",
			"top", `{"groups":[{"name":"g","parts":[{"name":"p","extra":{"mode":"m"}}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","extra":[{"mode":"x"}],"$deleteFromPrimitiveList/extra":[1]}]}]}`,
			`{"groups":[{"name":"g"}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p","extra":[{"mode":"x"}],"$deleteFromPrimitiveList/extra":[1]}]}]}`,
			"expected an object (dev.ply.nested.v1.Extra), got array", false),
	)

	DescribeTable("a repeat's own map ordering by \"$setElementOrder\" a field the schema types as a scalar, or holding a list there beside a \"$deleteFromPrimitiveList\" of it, merged into its key's outcome, decided in Phase 2",
		decided,
		Entry("beside a list the outcome lacks, after a set that fails, OpenAPI v2: the look-up's error at the item",
			"top", `{"groups":[{"name":"g","parts":[{"name":"p","aliases":["a"]}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p"},{"name":"p","aliases":[1],"value":["x"],"$setElementOrder/value":["x"]}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p"}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p","aliases":[1],"value":["x"],"$setElementOrder/value":["x"]}]}]}`,
			"as a list fails: expected slice, but got primitive", true),
		Entry("alone, the outcome lacking the field, before a \"$retainKeys\" the outcome holds otherwise, OpenAPI v2: the look-up's error at the item",
			"top", `{"groups":[{"name":"g","parts":[{"name":"p","$retainKeys":["name"]}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p"},{"name":"p","$retainKeys":["value"],"$setElementOrder/value":["x"]}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p"}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p","$retainKeys":["value"],"$setElementOrder/value":["x"]}]}]}`,
			"as a list fails: expected slice, but got primitive", true),
		Entry("of a field the item's type does not declare, after one it sets to a string: the look-up's error at the item",
			"top", `{"groups":[{"name":"g","parts":[{"name":"p"}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p"},{"name":"p","value":"w","$setElementOrder/value":["x"],"$setElementOrder/zzz":["x"]}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p"}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p","value":"w","$setElementOrder/value":["x"],"$setElementOrder/zzz":["x"]}]}]}`,
			"orders a field that dev.ply.nested.v1.Part does not declare", true),
		Entry("an order that is no list: the directive's error at the item",
			"top", `{"groups":[{"name":"g","parts":[{"name":"p"}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p"},{"name":"p","$setElementOrder/value":"x"}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p"}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p","$setElementOrder/value":"x"}]}]}`,
			"$setElementOrder/value must be a list, got string", true),
		Entry("beside a list the outcome lacks, OpenAPI v3: the schema's kind at the field",
			"pod", `{"spec":{"containers":[{"name":"a"}]}}`,
			`{"spec":{"containers":[{"name":"a","tty":true},{"name":"a","image":["y"],"$setElementOrder/image":["y"]}]}}`,
			`{"spec":{"containers":[{"name":"a","tty":true}]}}`,
			`{"spec":{"containers":[{"name":"a","image":["y"],"$setElementOrder/image":["y"]}]}}`,
			"orders a list, but the schema says this field is a scalar", false),
		Entry("a list beside a deletion of it the outcome holds as a map: the kind check's error",
			"top", `{"groups":[{"name":"g","parts":[{"name":"p","value":"v","$deleteFromPrimitiveList/value":{"a":1}}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p"},{"name":"p","value":["x"],"$deleteFromPrimitiveList/value":null}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p"}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p","value":["x"],"$deleteFromPrimitiveList/value":null}]}]}`,
			"expected a string (dev.ply.nested.v1.Part.value), got array", false),
		Entry("a list at an object field after a deletion of another list: the kind check's error",
			"top", `{"groups":[{"name":"g","parts":[{"name":"p","extra":{"mode":"m"}}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p"},{"name":"p","$deleteFromPrimitiveList/aliases":["a"],"extra":[{"mode":"x"}]}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p"}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p","$deleteFromPrimitiveList/aliases":["a"],"extra":[{"mode":"x"}]}]}]}`,
			"expected an object (dev.ply.nested.v1.Extra), got array", false),
	)

	DescribeTable("a keyed item's list beside its \"$setElementOrder\" holding an item whose key the collation cannot read, the outcome's item lacking the list, decided in Phase 2: the collation's error at the first such item, before the order's check",
		decided,
		Entry("a \"$patch: delete\" item keyed by an object, first",
			"top", `{"groups":[{"name":"g","parts":[{"name":"p"}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","$setElementOrder/env":[{"name":"C"}],"env":[{"name":{"x":1},"$patch":"delete"},{"name":"C"}]}]}]}`,
			`{"groups":[{"name":"g"}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p","$setElementOrder/env":[{"name":"C"}],"env":[{"name":{"x":1},"$patch":"delete"},{"name":"C"}]}]}]}`,
			`item 0: merge key field "name" must be a string, number or boolean`, false),
		Entry("a \"$patch: delete\" item keyed by a list, after a data item holding a set of objects",
			"top", `{"groups":[{"name":"g","parts":[{"name":"p"}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","$setElementOrder/env":[{"name":"C"}],"env":[{"name":"C","flags":[{"a":1}]},{"name":["x"],"$patch":"delete"}]}]}]}`,
			`{"groups":[{"name":"g"}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p","$setElementOrder/env":[{"name":"C"}],"env":[{"name":"C","flags":[{"a":1}]},{"name":["x"],"$patch":"delete"}]}]}]}`,
			`item 1: merge key field "name" must be a string, number or boolean`, false),
		Entry("a \"$patch: delete\" item keyed by an object between data items out of the order",
			"top", `{"groups":[{"name":"g","parts":[{"name":"p"}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","$setElementOrder/env":[{"name":"D"},{"name":"C"}],"env":[{"name":"C"},{"name":{"x":1},"$patch":"delete"},{"name":"D"}]}]}]}`,
			`{"groups":[{"name":"g"}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p","$setElementOrder/env":[{"name":"D"},{"name":"C"}],"env":[{"name":"C"},{"name":{"x":1},"$patch":"delete"},{"name":"D"}]}]}]}`,
			`item 1: merge key field "name" must be a string, number or boolean`, true),
		Entry("a \"$patch: delete\" item keyed by an object after a \"$patch: replace\" item",
			"top", `{"groups":[{"name":"g","parts":[{"name":"p"}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","$setElementOrder/env":[{"name":"C"}],"env":[{"$patch":"replace"},{"name":{"x":1},"$patch":"delete"},{"name":"C"}]}]}]}`,
			`{"groups":[{"name":"g"}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p","$setElementOrder/env":[{"name":"C"}],"env":[{"$patch":"replace"},{"name":{"x":1},"$patch":"delete"},{"name":"C"}]}]}]}`,
			`item 1: merge key field "name" must be a string, number or boolean`, false),
		Entry("a \"$patch: delete\" item without the key",
			"top", `{"groups":[{"name":"g","parts":[{"name":"p"}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","$setElementOrder/env":[{"name":"C"}],"env":[{"$patch":"delete"},{"name":"C"}]}]}]}`,
			`{"groups":[{"name":"g"}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p","$setElementOrder/env":[{"name":"C"}],"env":[{"$patch":"delete"},{"name":"C"}]}]}]}`,
			`item 0: a "$patch: delete" item must give the merge key (name); it lacks "name"`, false),
		Entry("a data item keyed by an object",
			"top", `{"groups":[{"name":"g","parts":[{"name":"p"}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","$setElementOrder/env":[{"name":"C"}],"env":[{"name":{"x":1}},{"name":"C"}]}]}]}`,
			`{"groups":[{"name":"g"}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p","$setElementOrder/env":[{"name":"C"}],"env":[{"name":{"x":1}},{"name":"C"}]}]}]}`,
			`item 0: merge key field "name" must be a string, number or boolean`, true),
		Entry("a data item without the key",
			"top", `{"groups":[{"name":"g","parts":[{"name":"p"}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","$setElementOrder/env":[{"name":"C"}],"env":[{"value":"v"},{"name":"C"}]}]}]}`,
			`{"groups":[{"name":"g"}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p","$setElementOrder/env":[{"name":"C"}],"env":[{"value":"v"},{"name":"C"}]}]}]}`,
			`item 0 has no merge key field "name" (the merge key is name)`, true),
		Entry("in a part the outcome's group lacks: the part appended as it stands",
			"top", `{"groups":[{"name":"g","parts":[{"name":"q"}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","$setElementOrder/env":[{"name":"C"}],"env":[{"name":{"x":1},"$patch":"delete"},{"name":"C"}]}]}]}`,
			`{"groups":[{"name":"g"}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p","$setElementOrder/env":[{"name":"C"}],"env":[{"name":{"x":1},"$patch":"delete"},{"name":"C"}]}]}]}`,
			"", false),
	)

	DescribeTable("a repeat's own map ordering by \"$setElementOrder\" a field it sets to a string after a map at a field the schema types as a list or a scalar, decided in Phase 2",
		decided,
		Entry("after a map at a list field the outcome holds a map for: the order's error",
			"top", `{"groups":[{"name":"g","parts":[{"name":"p","aliases":{"a":1}}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p"},{"name":"p","aliases":{"b":2},"$setElementOrder/value":["x"],"value":"w"}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p"}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p","aliases":{"b":2},"$setElementOrder/value":["x"],"value":"w"}]}]}`,
			"orders a list, but the patch sets value to string", true),
		Entry("after a map at a scalar field holding a map and a null where the outcome's map holds a scalar and a list: the order's error",
			"top", `{"groups":[{"name":"g","parts":[{"name":"p","ports":{"a":1,"b":[1]}}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p"},{"name":"p","ports":{"a":{"x":1},"b":"s","c":null},"$setElementOrder/value":["x"],"value":"w"}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p"}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p","ports":{"a":{"x":1},"b":"s","c":null},"$setElementOrder/value":["x"],"value":"w"}]}]}`,
			"orders a list, but the patch sets value to string", true),
		Entry("after a map holding \"$patch\" maps at a list field the outcome holds a string for: the order's error",
			"top", `{"groups":[{"name":"g","parts":[{"name":"p","aliases":"s"}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p"},{"name":"p","aliases":{"b":{"$patch":"delete"},"c":[{"$patch":"replace"}]},"$setElementOrder/value":["x"],"value":"w"}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p"}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p","aliases":{"b":{"$patch":"delete"},"c":[{"$patch":"replace"}]},"$setElementOrder/value":["x"],"value":"w"}]}]}`,
			"orders a list, but the patch sets value to string", true),
		Entry("after a map at a list field the outcome lacks: the order's error",
			"top", `{"groups":[{"name":"g","parts":[{"name":"p"}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p"},{"name":"p","aliases":{"b":1},"$setElementOrder/value":["x"],"value":"w"}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p"}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p","aliases":{"b":1},"$setElementOrder/value":["x"],"value":"w"}]}]}`,
			"orders a list, but the patch sets value to string", true),
	)

	DescribeTable("a repeat's own keyed list beside its \"$setElementOrder\" holding an item whose key the collation cannot read, the outcome lacking the list, decided in Phase 2: the collation's error at the first such item",
		decided,
		Entry("a \"$patch: delete\" item keyed by an object, first",
			"top", `{"groups":[{"name":"g","parts":[{"name":"p"}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p"},{"name":"p","$setElementOrder/env":[{"name":"C"}],"env":[{"name":{"x":1},"$patch":"delete"},{"name":"C"}]}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p"}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p","$setElementOrder/env":[{"name":"C"}],"env":[{"name":{"x":1},"$patch":"delete"},{"name":"C"}]}]}]}`,
			`item 0: merge key field "name" must be a string, number or boolean`, false),
		Entry("a data item keyed by a list, after a set that merges",
			"top", `{"groups":[{"name":"g","parts":[{"name":"p","aliases":["a"]}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p"},{"name":"p","aliases":["b"],"$setElementOrder/env":[{"name":"C"}],"env":[{"name":"C"},{"name":["q"]}]}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p"}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p","aliases":["b"],"$setElementOrder/env":[{"name":"C"}],"env":[{"name":"C"},{"name":["q"]}]}]}]}`,
			`item 1: merge key field "name" must be a string, number or boolean`, true),
	)

	DescribeTable("a group repeat whose part's keyed item holds a \"$\" field of an object ordering a field by \"$setElementOrder\" where the outcome's item holds an object, decided in Phase 2",
		decided,
		Entry("beside a deletion of the list it orders, the outcome's object holding that list: a list of no schema",
			"top", `{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A","$foo":{"a":[1]}}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","env":[{"name":"A","$foo":{"a":[2],"$setElementOrder/a":[2],"$deleteFromPrimitiveList/a":[1]}}]}]}]}`,
			`{"groups":[{"name":"g"}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A","$foo":{"a":[2],"$setElementOrder/a":[2],"$deleteFromPrimitiveList/a":[1]}}]}]}]}`,
			"orders lists merged by key or value; the schema does not merge this list", true),
		Entry("alone beside a deletion, the outcome's object holding a string there: the first patch's value is no list",
			"top", `{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A","$foo":{"a":"s"}}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","env":[{"name":"A","$foo":{"$setElementOrder/a":[2],"$deleteFromPrimitiveList/a":[1]}}]}]}]}`,
			`{"groups":[{"name":"g"}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A","$foo":{"$setElementOrder/a":[2],"$deleteFromPrimitiveList/a":[1]}}]}]}]}`,
			"orders a list, but the first patch's value is string", true),
		Entry("beside a string there: the patch's value is no list",
			"top", `{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A","$foo":{"a":[1]}}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","env":[{"name":"A","$foo":{"a":"s","$setElementOrder/a":[2]}}]}]}]}`,
			`{"groups":[{"name":"g"}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A","$foo":{"a":"s","$setElementOrder/a":[2]}}]}]}]}`,
			"orders a list, but the patch sets a to string", true),
		Entry("in a map of it beside a null: the patch's value is no list",
			"top", `{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A","$foo":{"k":{"a":[1]}}}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","env":[{"name":"A","$foo":{"k":{"a":null,"$setElementOrder/a":[2]}}}]}]}]}`,
			`{"groups":[{"name":"g"}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A","$foo":{"k":{"a":null,"$setElementOrder/a":[2]}}}]}]}]}`,
			"orders a list, but the patch sets a to null", true),
		Entry("alone beside a deletion, neither object holding the list: both copied",
			"top", `{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A","$foo":{"b":1}}]}]}]}`,
			`{"groups":[{"name":"g"},{"name":"g","parts":[{"name":"p","env":[{"name":"A","$foo":{"$setElementOrder/a":[2],"$deleteFromPrimitiveList/a":[1]}}]}]}]}`,
			`{"groups":[{"name":"g"}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p","env":[{"name":"A","$foo":{"$setElementOrder/a":[2],"$deleteFromPrimitiveList/a":[1]}}]}]}]}`,
			"", true),
	)

	DescribeTable("a repeat's own map ordering by \"$setElementOrder\" a field it sets to a string after a map holding \"$\" keys at a field the schema types as a list, where the outcome holds no map there, decided in Phase 2",
		decided,
		Entry("holding \"$retainKeys\" and a \"$setElementOrder\" at a list field the outcome lacks: the order's error",
			"top", `{"groups":[{"name":"g","parts":[{"name":"p"}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p"},{"name":"p","aliases":{"$retainKeys":["b"],"b":1,"$setElementOrder/c":["x"]},"$setElementOrder/value":["x"],"value":"w"}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p"}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p","aliases":{"$retainKeys":["b"],"b":1,"$setElementOrder/c":["x"]},"$setElementOrder/value":["x"],"value":"w"}]}]}`,
			"orders a list, but the patch sets value to string", true),
		Entry("holding \"$patch: merge\" at a list field the outcome holds a string for: dropped, the order's error",
			"top", `{"groups":[{"name":"g","parts":[{"name":"p","aliases":"s"}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p"},{"name":"p","aliases":{"$patch":"merge","b":1},"$setElementOrder/value":["x"],"value":"w"}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p"}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p","aliases":{"$patch":"merge","b":1},"$setElementOrder/value":["x"],"value":"w"}]}]}`,
			"orders a list, but the patch sets value to string", true),
		Entry("holding an unknown \"$patch\" map and a \"$deleteFromPrimitiveList\" at a list field the outcome holds a null for: the order's error",
			"top", `{"groups":[{"name":"g","parts":[{"name":"p","aliases":null}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p"},{"name":"p","aliases":{"b":{"$patch":"bogus"},"$deleteFromPrimitiveList/c":["y"]},"$setElementOrder/value":["x"],"value":"w"}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p"}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p","aliases":{"b":{"$patch":"bogus"},"$deleteFromPrimitiveList/c":["y"]},"$setElementOrder/value":["x"],"value":"w"}]}]}`,
			"orders a list, but the patch sets value to string", true),
		Entry("holding a \"$\" field of its own at a list field of no strategy the outcome holds a list for: the order's error",
			"top", `{"groups":[{"name":"g","parts":[{"name":"p","args":["a"]}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p"},{"name":"p","args":{"$x":{"$retainKeys":[1]}},"$setElementOrder/value":["x"],"value":"w"}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p"}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p","args":{"$x":{"$retainKeys":[1]}},"$setElementOrder/value":["x"],"value":"w"}]}]}`,
			"orders a list, but the patch sets value to string", true),
	)

	DescribeTable("a repeat's own map failing at a set the outcome holds a list for, before a field it orders, decided in Phase 2: the set's error",
		decided,
		Entry("before a keyed list the outcome lacks holding an item without the key beside its order",
			"top", `{"groups":[{"name":"g","parts":[{"name":"p","aliases":["a"]}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p"},{"name":"p","aliases":[1],"$setElementOrder/env":[{"name":"A"}],"env":[{"value":"x"}]}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p"}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p","aliases":[1],"$setElementOrder/env":[{"name":"A"}],"env":[{"value":"x"}]}]}]}`,
			"aliases: the patch's items are numbers but live's are strings", true),
		Entry("before a field it sets to a string and orders, the outcome's list holding null",
			"top", `{"groups":[{"name":"g","parts":[{"name":"p","aliases":[null]}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p"},{"name":"p","aliases":["b"],"$setElementOrder/value":["x"],"value":"w"}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p"}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p","aliases":["b"],"$setElementOrder/value":["x"],"value":"w"}]}]}`,
			"aliases: the patch's items are strings but live's are nulls", true),
	)

	DescribeTable("a repeat's own map ordering by \"$setElementOrder\" a field it sets to a string after a map holding \"$\" keys at a field the schema types as a list, where the outcome holds a map there, decided in Phase 2",
		decided,
		Entry("holding \"$retainKeys\" the outcome's map holds otherwise: that directive's error, before the order's",
			"top", `{"groups":[{"name":"g","parts":[{"name":"p","aliases":{"$retainKeys":["c"],"c":2}}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p"},{"name":"p","aliases":{"$retainKeys":["b"],"b":1},"$setElementOrder/value":["x"],"value":"w"}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p"}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p","aliases":{"$retainKeys":["b"],"b":1},"$setElementOrder/value":["x"],"value":"w"}]}]}`,
			"$retainKeys", true),
		Entry("holding \"$retainKeys\" the outcome's map holds equal, and a \"$deleteFromPrimitiveList\": the order's error",
			"top", `{"groups":[{"name":"g","parts":[{"name":"p","aliases":{"$retainKeys":["b"],"c":2}}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p"},{"name":"p","aliases":{"$retainKeys":["b"],"b":1,"$deleteFromPrimitiveList/c":["y"]},"$setElementOrder/value":["x"],"value":"w"}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p"}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p","aliases":{"$retainKeys":["b"],"b":1,"$deleteFromPrimitiveList/c":["y"]},"$setElementOrder/value":["x"],"value":"w"}]}]}`,
			"orders a list, but the patch sets value to string", true),
		Entry("holding \"$patch: merge\": that directive's error at the map",
			"top", `{"groups":[{"name":"g","parts":[{"name":"p","aliases":{"c":2}}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p"},{"name":"p","aliases":{"$patch":"merge","b":1},"$setElementOrder/value":["x"],"value":"w"}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p"}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p","aliases":{"$patch":"merge","b":1},"$setElementOrder/value":["x"],"value":"w"}]}]}`,
			"$patch", true),
		Entry("holding an unknown \"$patch\": that directive's error at the map",
			"top", `{"groups":[{"name":"g","parts":[{"name":"p","aliases":{"c":2}}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p"},{"name":"p","aliases":{"$patch":"bogus"},"$setElementOrder/value":["x"],"value":"w"}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p"}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p","aliases":{"$patch":"bogus"},"$setElementOrder/value":["x"],"value":"w"}]}]}`,
			"bogus", true),
		Entry("holding \"$patch: replace\" beside a map holding \"$patch\": the order's error",
			"top", `{"groups":[{"name":"g","parts":[{"name":"p","aliases":{"c":2}}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p"},{"name":"p","aliases":{"$patch":"replace","b":{"$patch":"merge"}},"$setElementOrder/value":["x"],"value":"w"}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p"}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p","aliases":{"$patch":"replace","b":{"$patch":"merge"}},"$setElementOrder/value":["x"],"value":"w"}]}]}`,
			"orders a list, but the patch sets value to string", true),
		Entry("holding \"$patch: delete\": the order's error",
			"top", `{"groups":[{"name":"g","parts":[{"name":"p","aliases":{"c":2}}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p"},{"name":"p","aliases":{"$patch":"delete","b":1},"$setElementOrder/value":["x"],"value":"w"}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p"}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p","aliases":{"$patch":"delete","b":1},"$setElementOrder/value":["x"],"value":"w"}]}]}`,
			"orders a list, but the patch sets value to string", true),
		Entry("holding a \"$\" field of a map holding \"$patch: merge\" where the outcome's map holds a map: that directive's error below it",
			"top", `{"groups":[{"name":"g","parts":[{"name":"p","aliases":{"$x":{"a":1}}}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p"},{"name":"p","aliases":{"$x":{"$patch":"merge"}},"$setElementOrder/value":["x"],"value":"w"}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p"}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p","aliases":{"$x":{"$patch":"merge"}},"$setElementOrder/value":["x"],"value":"w"}]}]}`,
			"$patch", true),
		Entry("holding a \"$\" field of a map merging into the outcome's and a map holding an unknown \"$patch\" the outcome's map lacks: the order's error",
			"top", `{"groups":[{"name":"g","parts":[{"name":"p","aliases":{"$x":{"a":1}}}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p"},{"name":"p","aliases":{"$x":{"b":2},"d":{"$patch":"bogus"}},"$setElementOrder/value":["x"],"value":"w"}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p"}]}]}`,
			`{"groups":[{"name":"g","parts":[{"name":"p","aliases":{"$x":{"b":2},"d":{"$patch":"bogus"}},"$setElementOrder/value":["x"],"value":"w"}]}]}`,
			"orders a list, but the patch sets value to string", true),
	)
})
