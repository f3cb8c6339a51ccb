package strategy_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/internal/elements"
	"github.com/plyproject/ply/internal/strategy"
	"github.com/plyproject/ply/internal/visitors"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/value"
)

// countingVisitor decides every element as the number of calls so far,
// standing in for pkg/patch's visitor.
type countingVisitor struct{ calls int }

func (c *countingVisitor) visit() (elements.Outcome, error) {
	c.calls++
	return elements.Keep(value.Int(int64(c.calls))), nil
}

func (c *countingVisitor) VisitPrimitive(*elements.PrimitiveElement) (elements.Outcome, error) {
	return c.visit()
}
func (c *countingVisitor) VisitAtomic(*elements.AtomicElement) (elements.Outcome, error) {
	return c.visit()
}
func (c *countingVisitor) VisitMap(*elements.MapElement) (elements.Outcome, error) {
	return c.visit()
}
func (c *countingVisitor) VisitType(*elements.TypeElement) (elements.Outcome, error) {
	return c.visit()
}
func (c *countingVisitor) VisitList(*elements.ListElement) (elements.Outcome, error) {
	return c.visit()
}
func (c *countingVisitor) VisitSet(*elements.SetElement) (elements.Outcome, error) { return c.visit() }
func (c *countingVisitor) VisitEmpty(*elements.EmptyElement) (elements.Outcome, error) {
	return c.visit()
}

var _ = Describe("patch mode", func() {
	DescribeTable("hands every element to Options.Patch, whatever its strategy",
		func(e elements.Element) {
			pv := &countingVisitor{}
			w := strategy.New(strategy.Options{Ordering: visitors.OrderKubectl, Patch: pv, Record: true})
			Expect(visitorFor(w, e)).To(BeIdenticalTo(elements.Visitor(pv)))
			out, err := w.Walk(e)
			Expect(err).NotTo(HaveOccurred())
			Expect(pv.calls).To(Equal(1))
			Expect(w.Outcome(e.Base())).To(Equal(out))
		},
		Entry("PrimitiveElement", &elements.PrimitiveElement{}),
		Entry("AtomicElement", &elements.AtomicElement{}),
		Entry("EmptyElement", &elements.EmptyElement{}),
		Entry("MapElement", &elements.MapElement{}),
		Entry("TypeElement with retainKeys", &elements.TypeElement{Node: withStrategy(openapi.StrategyRetainKeys)}),
		Entry("ListElement", &elements.ListElement{}),
		Entry("SetElement", &elements.SetElement{}),
	)

	It("is off by default", func() {
		w := strategy.New(strategy.Options{})
		Expect(visitorFor(w, &elements.MapElement{})).To(BeAssignableToTypeOf(visitors.Merge{}))
	})
})
