package strategy_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/internal/order"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/pkg/strategy"
	"github.com/plyproject/ply/pkg/visitors"
)

// walkVisitor is the visitor of rule TestWalkVisitor: walk numbers the walks its rule's visitors were made for.
type walkVisitor struct{ walk int }

func (walkVisitor) Visit(e elements.Element) (elements.Outcome, error) {
	return elements.Outcome{Value: e.Base().Local, Present: e.Base().HasLocal}, nil
}

// walkVisitorsMade counts the visitors rule TestWalkVisitor made.
var walkVisitorsMade int

func init() {
	elements.MustRegisterRule(elements.Rule{Name: "TestWalkVisitor", Patch: elements.PatchRefused,
		Gate: features.MustRegister("TestWalkVisitor", "a rule whose visitors number the walks they were made for"),
		Visitor: func(elements.Walker) elements.Visitor {
			walkVisitorsMade++
			return walkVisitor{walk: walkVisitorsMade}
		}})
}

var _ = Describe("Walker.Renew", func() {
	ruled := &elements.AtomicElement{Node: elements.Node{Meta: openapi.Meta{Rule: &openapi.RuleRef{Name: "TestWalkVisitor"}}}}

	It("keeps the built-in visitors and makes a registered rule's visitor anew for the next walk", func() {
		w := strategy.New(strategy.Options{Ordering: order.OrderKubectl})
		merge, list := visitorFor(w, &elements.MapElement{}), visitorFor(w, &elements.ListElement{})
		first := visitorFor(w, ruled)
		Expect(visitorFor(w, ruled)).To(Equal(first), "one visitor a walk")
		w.Renew()
		second := visitorFor(w, ruled)
		Expect(second).To(BeAssignableToTypeOf(walkVisitor{}))
		Expect(second.(walkVisitor).walk).To(Equal(first.(walkVisitor).walk + 1))
		Expect(visitorFor(w, &elements.MapElement{})).To(Equal(merge))
		Expect(visitorFor(w, &elements.ListElement{})).To(Equal(list))
		Expect(merge.(visitors.Merge).Walker).To(BeIdenticalTo(elements.Walker(w)))
	})
})
