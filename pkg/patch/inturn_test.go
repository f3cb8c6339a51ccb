package patch_test

import (
	"errors"
	"sync/atomic"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"k8s.io/apimachinery/pkg/util/strategicpatch"

	"github.com/plyproject/ply/internal/probe"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/collate"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/pkg/patch"
	"github.com/plyproject/ply/pkg/strategy"
	"github.com/plyproject/ply/pkg/value"
	"github.com/plyproject/ply/pkg/visitors"
	"github.com/plyproject/ply/test/jsonv"
	"github.com/plyproject/ply/test/oracle"
)

// Phase 2 never calls a front-end: a repeat of a merge key it cannot decide from the patch's tree ends the walk with
// its question (visitors.InTurn), which the front-end answers (visitors.Answers) before walking the same tree again.
// The case: a later item of a container's key merging maps whose scalars lie at the depth limit (6), which Phase 2
// leaves to the item applied in turn (repeatdepth_test.go's "its scalars at the limit").
var _ = Describe("a walk asking the front-end to apply a repeat in turn", func() {
	const (
		live     = `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"a","resources":{"limits":{"memory":"1Gi"}}}]}}`
		first    = `{"name":"a","tty":true}`
		later    = `{"name":"a","$setElementOrder/args":[],"args":["c","a"],"resources":{"limits":{"cpu":"1"},"requests":{}}}`
		maxDepth = 6
	)
	var (
		tree  elements.Element
		gates features.Gates
	)
	BeforeEach(func() {
		schema, err := openapi.Default()
		Expect(err).NotTo(HaveOccurred())
		pod, ok := schema.Kubectl().ByName("io.k8s.api.core.v1.Pod")
		Expect(ok).To(BeTrue())
		gates = features.Kubectl()
		vals := elements.Values{Local: jsonv.MustDecode(`{"spec":{"containers":[` + first + `,` + later + `]}}`), HasLocal: true,
			Live: jsonv.MustDecode(live), HasLive: true}
		tree, err = collate.Collate(vals, pod, collate.Options{Patch: true, MaxDepth: maxDepth, Gates: gates})
		Expect(err).NotTo(HaveOccurred())
	})
	walker := func(answers *visitors.Answers) *strategy.Walker {
		return strategy.New(strategy.Options{Patch: true, Gates: gates, Answers: answers})
	}
	// question walks the tree with answers and expects the walk to end with a question, which it returns.
	question := func(answers *visitors.Answers) *visitors.InTurn {
		GinkgoHelper()
		_, err := walker(answers).Walk(tree)
		var q *visitors.InTurn
		Expect(errors.As(err, &q)).To(BeTrue(), "the walk's error: %v", err)
		return q
	}

	It("asks for the later item applied to its key's outcome, at the item's depth in the patch", func() {
		q := question(nil)
		Expect(q.Item.Path().String()).To(Equal("spec.containers[name=a]"))
		Expect(string(q.Patch.JSON())).To(Equal(string(jsonv.MustDecode(later).JSON())))
		Expect(string(q.Onto.JSON())).To(Equal(`{"name":"a","resources":{"limits":{"memory":"1Gi"}},"tty":true}`),
			"live's item with the first item of its key merged")
		Expect(q.Depth).To(Equal(3), "the item's nesting in the patch: spec, containers, the item")
		Expect(q.Error()).To(ContainSubstring("spec.containers[name=a]: the patch names this item's key again"))
	})

	It("takes the answer given to that question, and no answer to another", func() {
		answers := new(visitors.Answers)
		q := question(answers)
		other := *q
		other.Onto = value.MustMap()
		answers.Answer(&other, jsonv.MustDecode(`{"name":"a","image":"not this one"}`), nil)
		again := question(answers)
		Expect(again.Item).To(BeIdenticalTo(q.Item), "an answer to another outcome is not this question's")
		Expect(value.Identical(again.Onto, q.Onto)).To(BeTrue())

		answers.Answer(q, jsonv.MustDecode(`{"name":"a","image":"answered"}`), nil)
		out, err := walker(answers).Walk(tree)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(out.Value.JSON())).To(ContainSubstring(`"containers":[{"image":"answered","name":"a"}]`))
	})

	It("takes an answer's error at the item's path", func() {
		answers := new(visitors.Answers)
		q := question(answers)
		answers.Answer(q, value.Value{}, &elements.Error{Source: elements.Patch, Path: nil, Msg: "refused"})
		_, err := walker(answers).Walk(tree)
		Expect(err).To(MatchError("patch spec.containers[name=a]: refused"))
	})

	It("is answered by pkg/patch's Apply with one collation more, the repeats counted once", func() {
		var collations, repeats, answered atomic.Int64
		DeferCleanup(probe.OnCollation(func() { collations.Add(1) }))
		DeferCleanup(probe.OnRepeat(func(frontEnd bool) {
			repeats.Add(1)
			if frontEnd {
				answered.Add(1)
			}
		}))
		opts := patch.Options{Gates: gates, MaxDepth: maxDepth}
		const decided = `{"name":"b","image":"j"}` // (a repeat of "b" before "a"'s, merged in Phase 2)
		got, err := patch.Apply(jsonv.MustDecode(live),
			jsonv.MustDecode(`{"spec":{"containers":[{"name":"b"},`+decided+`,`+first+`,`+later+`]}}`), opts)
		Expect(err).NotTo(HaveOccurred())
		Expect(collations.Load()).To(BeEquivalentTo(2), "the patch's, and the later item's onto its key's outcome")
		Expect(repeats.Load()).To(BeEquivalentTo(2), "two repeats, each counted once though the tree was walked twice")
		Expect(answered.Load()).To(BeEquivalentTo(1))

		want, err := patch.Apply(jsonv.MustDecode(live), jsonv.MustDecode(`{"spec":{"containers":[{"name":"b"},`+first+`]}}`), opts)
		Expect(err).NotTo(HaveOccurred())
		want, err = patch.Apply(want, jsonv.MustDecode(`{"spec":{"containers":[`+decided+`,`+later+`]}}`), opts)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(got.JSON())).To(Equal(string(want.JSON())), "the items applied one after another")
	})
})

// Several questions in one walk: a front-end driving the walk (visitors.Answers.Pull) answers each as it is asked, the
// walk going on from it; the result is the API server's (strategicpatch), each question one collation more.
var _ = DescribeTable("a walk asking several questions, answered as they are asked",
	func(n int, chain bool, questions int) {
		var collations, answered atomic.Int64
		DeferCleanup(probe.OnCollation(func() { collations.Add(1) }))
		DeferCleanup(probe.OnRepeat(func(frontEnd bool) {
			if frontEnd {
				answered.Add(1)
			}
		}))
		live, p := answeredInputs(n, chain)
		got, err := patch.Apply(live, p, patch.Options{Gates: features.Kubectl(), MaxDepth: 6})
		Expect(err).NotTo(HaveOccurred())
		Expect(answered.Load()).To(BeEquivalentTo(questions))
		Expect(collations.Load()).To(BeEquivalentTo(1 + questions))
		sp, err := oracle.DefaultV3For("io.k8s.api.core.v1.Pod")
		Expect(err).NotTo(HaveOccurred())
		want, err := strategicpatch.StrategicMergePatchUsingLookupPatchMeta(live.JSON(), p.JSON(), sp.Meta())
		Expect(err).NotTo(HaveOccurred())
		Expect(string(got.JSON())).To(Equal(string(jsonv.MustDecode(string(want)).JSON())), "the API server's result")
	},
	Entry("three containers, each named twice", 3, false, 3),
	Entry("one container named seven times, its repeats in turn decided and asked about", 3, true, 3),
)
