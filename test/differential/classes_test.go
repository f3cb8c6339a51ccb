package differential_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/test/internal/difftest"
	"github.com/plyproject/ply/test/jsonv"
)

// absorbedCase is a kubectl-variant case of target (recorded, local, live),
// overwrite on: every gate off, so recorded and local may name a merge key
// twice.
func absorbedCase(target, recorded, local, live string) (*difftest.Target, difftest.Case) {
	GinkgoHelper()
	t, err := difftest.LoadTarget(target + "/" + difftest.Kubectl)
	Expect(err).NotTo(HaveOccurred())
	return t, difftest.Case{Target: t.ID(), Overwrite: true,
		Recorded: jsonv.MustDecode(recorded), Local: jsonv.MustDecode(local), Live: jsonv.MustDecode(live)}
}

// Recorded naming part q twice, the first with env entry e valued, and
// live lacking q: kubectl's three-way patch names q twice, the first with
// a "$patch: delete" item for e (recorded's first e, which local's first q
// lacks), the second with e's value deleted and e ordered. strategicpatch
// copies the first q raw, its delete item inside, and merges the second q
// into that copy: e's entry merges into the copied delete item and is
// ordered as it, so the delete item, not a leak left in the result but an
// entry, comes back after a. ply applies the delete to content live lacks.
const (
	absorbedRecorded = `{"spec":{"parts":[{"name":"q","env":[{"name":"e","value":"v"}]},{"name":"q","env":[{"name":"e"}]}]}}`
	absorbedLocal    = `{"spec":{"parts":[{"name":"q","env":[{"name":"e"}]},{"name":"q","env":[{"name":"a"}]}]}}`
	absorbedLive     = `{"spec":{"parts":[]}}`
)

// The differential run's classification of a leaked directive absorbed by
// a later item of its key (difftest.AbsorbedLeak, shared with
// test/patchdiff): each row a triple and the class its run must get.
var _ = Describe("the oracle-leaks-directive classification of absorbed leaks in three-way applies", func() {
	DescribeTable("names the class",
		func(target, recorded, local, live string, want difftest.Class) {
			t, c := absorbedCase(target, recorded, local, live)
			Expect(t.Run(c).Class).To(Equal(want))
		},
		Entry("a copied delete item merged into and ordered by the second item of its key",
			"widget", absorbedRecorded, absorbedLocal, absorbedLive, difftest.OracleLeaksDirective),
		Entry("the same beside another part live holds",
			"widget", absorbedRecorded, absorbedLocal, `{"spec":{"parts":[{"name":"c"}]}}`, difftest.OracleLeaksDirective),
		Entry("two copied delete items, one left, one absorbed",
			"widget", `{"spec":{"parts":[{"name":"q","env":[{"name":"e","value":"v"}]},{"name":"q","env":[{"name":"e"},{"name":"b"}]}]}}`,
			absorbedLocal, absorbedLive, difftest.OracleLeaksDirective),
		Entry("a container's env, the second container of the name emptied",
			"pod", `{"spec":{"containers":[{"name":"q","env":[{"name":"e","value":"v"}]},{"name":"q","env":[{"name":"e"}]}]}}`,
			`{"spec":{"containers":[{"name":"q","env":[{"name":"e"},{"name":"b"}]},{"name":"q","env":[]}]}}`,
			`{"spec":{"containers":[]}}`, difftest.OracleLeaksDirective),
		Entry("live holding q: the delete item merged, nothing leaked, both agree",
			"widget", absorbedRecorded, absorbedLocal, `{"spec":{"parts":[{"name":"q","env":[{"name":"e","value":"v"}]}]}}`, difftest.Agree),
	)

	// The class holds only where ply's object is strategicpatch's result on
	// the patch with the copied directives' effect given first.
	DescribeTable("excuses exactly the absorbed directives",
		func(live, ply string, want bool) {
			t, c := absorbedCase("widget", absorbedRecorded, absorbedLocal, live)
			o := t.Run(c)
			p, err := jsonv.Decode(o.OraclePatch)
			Expect(err).NotTo(HaveOccurred())
			Expect(difftest.AbsorbedLeak(t, c.Live, p, jsonv.MustDecode(ply))).To(Equal(want))
		},
		Entry("ply's object: e first, as ordered",
			absorbedLive, `{"spec":{"parts":[{"name":"q","env":[{"name":"e"},{"name":"a"}]}]}}`, true),
		Entry("strategicpatch's order instead",
			absorbedLive, `{"spec":{"parts":[{"name":"q","env":[{"name":"a"},{"name":"e"}]}]}}`, false),
		Entry("e keeping recorded's value besides",
			absorbedLive, `{"spec":{"parts":[{"name":"q","env":[{"name":"e","value":"v"},{"name":"a"}]}]}}`, false),
		Entry("live holding q: no directive copied, nothing to excuse",
			`{"spec":{"parts":[{"name":"q","env":[{"name":"e","value":"v"}]}]}}`, `{"spec":{"parts":[{"name":"q","env":[{"name":"e"},{"name":"a"}]}]}}`, false),
	)
})
