package delta_test

import (
	"errors"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/internal/delta"
	"github.com/plyproject/ply/pkg/apply"
	"github.com/plyproject/ply/pkg/collate"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/features"
)

// Where a merge decides a node whole but kubectl's patch compares it member by member, patch generation reads the
// node's elements.Below, collated in the same pass as the tree: the patch equals kubectl's, and an error of that
// subtree is patch generation's alone.
var _ = Describe("patches of nodes a merge decides whole (elements.Below)", func() {
	DescribeTable("equal kubectl's three-way patch",
		func(recorded, local, live string) {
			c := newCase("Deployment", recorded, local, live)
			tree, beside := c.collated(features.Gates{})
			p, ok, err := delta.ThreeWay(tree, beside, features.Gates{}, true)
			Expect(err).NotTo(HaveOccurred())
			Expect(ok).To(BeTrue())
			Expect(p.JSON()).To(MatchJSON(kubectlThreeWay(c.def(), c.recorded, c.hasRecorded, c.local, c.live).JSON()))
		},
		Entry("live holds a list where recorded and local hold a map: the deletions compare recorded's",
			`{spec: {template: {spec: {containers: [{name: a, image: "1"}], hostname: h}}}}`,
			`{spec: {template: {spec: {containers: [{name: a, image: "2"}]}}}}`,
			`{spec: {template: {spec: [x]}}}`),
		Entry("live holds a string where recorded and local hold a keyed list",
			`{spec: {template: {spec: {containers: [{name: a, ports: [{containerPort: 1}, {containerPort: 2}]}]}}}}`,
			`{spec: {template: {spec: {containers: [{name: a, ports: [{containerPort: 1}]}]}}}}`,
			`{spec: {template: {spec: {containers: [{name: a, ports: x}]}}}}`),
		Entry("an item all sources agree on holds an unsorted set: kubectl's delta orders it",
			`{metadata: {finalizers: [b, a]}, spec: {template: {spec: {containers: [{name: a, image: "1"}]}}}}`,
			`{metadata: {finalizers: [b, a, c]}, spec: {template: {spec: {containers: [{name: a, image: "1"}]}}}}`,
			`{metadata: {finalizers: [b, a]}, spec: {template: {spec: {containers: [{name: a, image: "1"}]}}}}`),
	)

	const (
		recorded = `{spec: {template: {spec: {containers: [{name: a, image: "1"}]}}}}`
		local    = `{spec: {template: {spec: {containers: [{name: a, image: "2"}, {name: a}]}}}}`
		live     = `{spec: {template: {spec: [x]}}}`
	)

	It("report an error of the subtree at its full path, and only when a patch is made", func() {
		c := newCase("Deployment", recorded, local, live)
		tree, beside := c.collated(features.Gates{})
		_, _, err := delta.ThreeWay(tree, beside, features.Gates{}, true)
		var e *elements.Error
		Expect(errors.As(err, &e)).To(BeTrue(), "%v", err)
		Expect(e.Source).To(Equal(elements.Local))
		Expect(e.Path.String()).To(Equal("spec.template.spec.containers[name=a]"))
		Expect(e.Msg).To(HaveSuffix("are both spec.template.spec.containers[name=a]"))

		// A merge that makes no patch never reads it: local wins whole.
		res, err := apply.Merge(c.recorded, c.local, c.live, apply.DefaultOptions())
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Object.JSON()).To(MatchJSON(c.local.JSON()))
	})

	It("refuse a tree not collated for patches, never making another patch", func() {
		c := newCase("Deployment", recorded, `{spec: {template: {spec: {containers: [{name: a, image: "2"}]}}}}`, live)
		tree, _, arena, err := collate.CountIn(c.vals(), rootType(c.kind), collate.Options{})
		Expect(err).NotTo(HaveOccurred())
		_, _, err = delta.ThreeWay(tree, arena, features.Gates{}, true)
		Expect(err).To(MatchError(ContainSubstring("not collated for patches")))
	})
})
