package visitors_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/plyproject/ply/test/treetest"

	"github.com/plyproject/ply/internal/order"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/strategy"
	"github.com/plyproject/ply/pkg/value"
	"github.com/plyproject/ply/pkg/visitors"
)

// containerEnv returns the env ListElement of the first container of a
// collated Deployment.
func containerEnv(tree elements.Element) *elements.ListElement {
	pod := treetest.Field(treetest.Field(treetest.Field(tree, "spec"), "template"), "spec")
	cs := treetest.Field(pod, "containers").(*elements.ListElement)
	return treetest.Field(cs.Items[0].Element, "env").(*elements.ListElement)
}

var _ = Describe("Merge, without and with Retain", func() {
	It("differ exactly in the fields local leaves out of a map", func() {
		fx := loadFixture("retainkeys-strategy.yaml")
		strategyOf := func() *elements.MapElement {
			return treetest.Field(treetest.Field(collateVals(fx.vals), "spec"), "strategy").(*elements.MapElement)
		}
		w := strategy.New(strategy.Options{})

		merged, err := visitors.Merge{Walker: w}.VisitMap(strategyOf())
		Expect(err).NotTo(HaveOccurred())
		expectSame(merged.Value, treetest.YAML(`{type: Recreate, rollingUpdate: {maxSurge: 25%, maxUnavailable: 25%}}`), "merge")

		st := strategyOf()
		retained, err := visitors.Merge{Walker: w, Retain: true}.VisitMap(st)
		Expect(err).NotTo(HaveOccurred())
		expectSame(retained.Value, treetest.YAML(`{type: Recreate}`), "retainKeys")
		// The cleared field was not walked.
		Expect(w.Outcome(treetest.Field(st, "rollingUpdate").Base())).To(Equal(elements.Absent))
	})

	It("decide a map local does not set by the presence rule", func() {
		n := node(absent, "null", "{a: 1}")
		w := strategy.New(strategy.Options{})
		for _, v := range []elements.Visitor{visitors.Merge{Walker: w}, visitors.Merge{Walker: w, Retain: true}} {
			out, err := v.Visit(&elements.MapElement{Node: *n})
			Expect(err).NotTo(HaveOccurred())
			Expect(out).To(Equal(elements.Absent))
		}
		n = node(absent, absent, "{a: 1}")
		out, err := visitors.Merge{Walker: w}.Visit(&elements.MapElement{Node: *n})
		Expect(err).NotTo(HaveOccurred())
		expectSame(out.Value, treetest.YAML("{a: 1}"), "live kept")
	})
})

var _ = Describe("Ordered", func() {
	It("decides a list local does not set by the presence rule", func() {
		w := strategy.New(strategy.Options{})
		o := visitors.Ordered{Walker: w}
		out, err := o.VisitList(&elements.ListElement{Node: *node("[{name: a}]", "null", "[{name: a}]")})
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(Equal(elements.Absent))
		out, err = o.VisitSet(&elements.SetElement{Node: *node(absent, absent, "[a, b]")})
		Expect(err).NotTo(HaveOccurred())
		expectSame(out.Value, treetest.YAML("[a, b]"), "live kept")
	})

	It("stores Absent in a live duplicate whose key local deleted, and keeps the others", func() {
		fx := loadFixture("order-live-duplicates.yaml")
		tree := collateVals(fx.vals)
		w := strategy.New(strategy.Options{Ordering: order.OrderKubectl, Record: true})
		_, err := w.Walk(tree)
		Expect(err).NotTo(HaveOccurred())
		env := containerEnv(tree)
		Expect(env.LiveExtra).To(HaveLen(1))
		Expect(w.Outcome(env.LiveExtra[0].Element.Base())).To(Equal(elements.Absent))
		Expect(env.Items).To(HaveLen(2))
		Expect(w.Outcome(env.Items[0].Element.Base()).Present).To(BeTrue())
		Expect(w.Outcome(env.Items[1].Element.Base())).To(Equal(elements.Absent))
	})

	DescribeTable("orders by the seed rule: live-only first in live order, then local's order",
		func(local, live string, want string) {
			vals := elements.Values{
				Local: treetest.YAML("{apiVersion: v1, kind: ConfigMap, metadata: {name: c, finalizers: " + local + "}}"), HasLocal: true,
				Live: treetest.YAML("{apiVersion: v1, kind: ConfigMap, metadata: {name: c, finalizers: " + live + "}}"), HasLive: true,
			}
			out := merge(vals, order.OrderSeed)
			md, _ := out.Value.Get("metadata")
			fin, _ := md.Get("finalizers")
			expectSame(fin, treetest.YAML(want), "finalizers")
		},
		Entry("no live-only values", "[b, a]", "[a, b]", "[b, a]"),
		Entry("live-only values keep their live order", "[m]", "[z, m, a, y]", "[z, a, y, m]"),
		Entry("empty local keeps live", "[]", "[b, a]", "[b, a]"),
		Entry("live's repeated values collapse", "[a]", "[c, c, a]", "[c, a]"),
	)

	It("keeps numbers exact and kinds distinct in a set", func() {
		vals := elements.Values{
			Local: treetest.YAML(`{apiVersion: v1, kind: ConfigMap, metadata: {name: c, finalizers: ["1", "true"]}}`), HasLocal: true,
			Live: treetest.YAML(`{apiVersion: v1, kind: ConfigMap, metadata: {name: c, finalizers: ["1"]}}`), HasLive: true,
		}
		out := merge(vals, order.OrderSeed)
		md, _ := out.Value.Get("metadata")
		fin, _ := md.Get("finalizers")
		Expect(fin.Items()).To(HaveLen(2))
		Expect(value.Equal(fin.Items()[1], value.String("true"))).To(BeTrue())
	})
})
