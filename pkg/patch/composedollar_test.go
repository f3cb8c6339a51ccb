package patch_test

import (
	"path/filepath"
	"sync/atomic"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/pkg/patch"
	"github.com/plyproject/ply/test/jsonv"
)

// Compose of a second patch naming a part's key twice (testdata/nested.json's Top), its repeat holding "$" fields the
// merge of patches merges as data ("$retainKeys" holding a map or a list, "$x"), or, gate MultiFieldMergeKeys on, a map
// at a field the schema types as a list, is decided from the patches' one tree (Phase 2), the front-end applying none
// again (probe.OnRepeat), as the front-end decides it: the same merge made as two Composes, head then rest, neither
// naming a key twice, the same object or the same error.
var _ = Describe("Compose of a repeat holding \"$\" fields merged as data, against the front-end", func() {
	var repeats, again atomic.Int64
	BeforeEach(func() {
		countRepeats(&repeats, &again)
	})

	// decided composes the part's item (its fields: item) after an item naming the key alone into a first patch
	// holding the part with fields held, gate MultiFieldMergeKeys multiField: Phase 2 decides the repeat, giving the
	// two Composes' result, or their error, which holds msg ("" for none).
	decided := func(held, item, msg string, multiField bool) {
		schema, err := openapi.LoadV2Named("nested.json", mustRead(filepath.Join("testdata", "nested.json")))
		Expect(err).NotTo(HaveOccurred())
		t, ok := schema.Kubectl().ByName("dev.ply.nested.v1.Top")
		Expect(ok).To(BeTrue())
		gates := features.Kubectl().With(features.MultiFieldMergeKeys, multiField)
		first := jsonv.MustDecode(`{"groups":[{"name":"g","parts":[{"name":"p",` + held + `}]}]}`)
		mid, err := patch.Compose(first, jsonv.MustDecode(`{"groups":[{"name":"g","parts":[{"name":"p"}]}]}`), t, gates)
		Expect(err).NotTo(HaveOccurred())
		rest := jsonv.MustDecode(`{"groups":[{"name":"g","parts":[{"name":"p",` + item + `}]}]}`)
		want, wantErr := patch.Compose(mid, rest, t, gates)
		Expect(again.Load()).To(BeZero(), "the two Composes name no key twice")
		second := jsonv.MustDecode(`{"groups":[{"name":"g","parts":[{"name":"p"},{"name":"p",` + item + `}]}]}`)
		got, err := patch.Compose(first, second, t, gates)
		Expect(repeats.Load()).To(BeNumerically(">", 0), "a repeat applied to its key's outcome")
		Expect(again.Load()).To(BeZero(), "the front-end applied a repeat again")
		if msg != "" {
			Expect(wantErr).To(MatchError(ContainSubstring(msg)))
			Expect(err).To(HaveOccurred())
			Expect(err.Error()).To(Equal(wantErr.Error()))
			return
		}
		Expect(wantErr).NotTo(HaveOccurred())
		Expect(err).NotTo(HaveOccurred())
		Expect(got).To(equalValue(want))
	}

	DescribeTable("decided in Phase 2",
		decided,
		Entry("a \"$retainKeys\" map in a map at a list field the outcome's map lacks: copied",
			`"ports":{"c":"s"}`, `"ports":{"$retainKeys":{"b":1}}`, "", false),
		Entry("a \"$retainKeys\" map the outcome's map holds otherwise: patches merged must agree on it",
			`"ports":{"$retainKeys":["b"]}`, `"ports":{"$retainKeys":{"b":1}}`, "$retainKeys differs from the first patch's", false),
		Entry("a \"$retainKeys\" map the outcome's map holds equal, holding a \"$patch: merge\" map: that directive's error",
			`"args":{"$retainKeys":{"a":{"$patch":"merge"}}}`, `"args":{"$retainKeys":{"a":{"$patch":"merge"}}}`,
			"$retainKeys.a: $patch: merge is a schema strategy", false),
		Entry("a \"$retainKeys\" list the outcome's map holds equal, holding a \"$patch: replace\" map: the list as it stands",
			`"args":{"$retainKeys":[{"$patch":"replace"}]}`, `"args":{"$retainKeys":[{"$patch":"replace"}]}`, "", false),
		Entry("a \"$\" field's list over the outcome's map there: the patch's list",
			`"aliases":{"$x":{"a":1}}`, `"aliases":{"$x":["m"],"d":{"f":1}}`, "", false),
		Entry("a \"$\" field's list over the outcome's list there: the patch's list",
			`"aliases":{"$x":["l"]}`, `"aliases":{"$x":["m"]}`, "", false),
		Entry("an equal \"$\" map holding an unknown \"$patch\" before a map whose \"$retainKeys\" the outcome holds otherwise: that directive's error first",
			`"$x":{"a":{"$patch":"bogus"}},"aliases":{"$retainKeys":["c"]}`,
			`"$x":{"a":{"$patch":"bogus"}},"aliases":{"$retainKeys":["b"]}`, "$x.a: unknown $patch value bogus", false),
		Entry("an equal \"$\" map holding an unknown \"$patch\" before a field ordered and set to a string: that directive's error first",
			`"$x":{"a":{"$patch":"bogus"}}`, `"$x":{"a":{"$patch":"bogus"}},"$setElementOrder/value":["x"],"value":"w"`,
			"$x.a: unknown $patch value bogus", false),
		Entry("gate MultiFieldMergeKeys on, a map at a list field, nothing after it: the kind check's error",
			`"aliases":{"b":1}`, `"aliases":{"c":"t"}`, "expected a list (dev.ply.nested.v1.Part.aliases), got object", true),
		Entry("gate MultiFieldMergeKeys on, a map at a list field holding a \"$retainKeys\" map: the kind check's error",
			`"ports":{"$retainKeys":["b"]}`, `"ports":{"$retainKeys":{"b":1}}`, "expected a list (dev.ply.nested.v1.Part.ports), got object", true),
	)
})
