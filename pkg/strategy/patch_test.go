package strategy_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/internal/order"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/strategy"
	"github.com/plyproject/ply/pkg/visitors"
)

var _ = Describe("patch mode", func() {
	retainDirective := &elements.Directives{RetainKeys: []string{"a"}, HasRetainKeys: true}
	DescribeTable("decides maps by the patch's $retainKeys, not the schema's strategy",
		func(e elements.Element, retain bool) {
			w := strategy.New(strategy.Options{Patch: true})
			Expect(visitorFor(w, e)).To(Equal(visitors.Merge{Walker: w, Retain: retain}))
		},
		Entry("retainKeys strategy, no directive", &elements.MapElement{Node: elements.Node{Type: structT, Meta: openapi.Meta{Strategy: openapi.StrategyRetainKeys}}}, false),
		Entry("no strategy, $retainKeys", &elements.MapElement{Node: elements.Node{Type: openapi.Unknown, Dirs: retainDirective}}, true),
		Entry("retainKeys strategy and $retainKeys", &elements.MapElement{Node: elements.Node{Type: structT, Meta: openapi.Meta{Strategy: openapi.StrategyRetainKeys}, Dirs: retainDirective}}, true),
	)

	It("orders lists as the patch orders them", func() {
		w := strategy.New(strategy.Options{Patch: true, Ordering: order.OrderKubectl})
		v := visitorFor(w, &elements.ListElement{})
		Expect(v).To(BeAssignableToTypeOf(visitors.Ordered{}))
		Expect(v.(visitors.Ordered).Patch).To(BeTrue())
		Expect(v.(visitors.Ordered).Ordering).To(Equal(order.OrderKubectl))
	})

	It("is off by default", func() {
		w := strategy.New(strategy.Options{})
		Expect(visitorFor(w, &elements.MapElement{Node: elements.Node{Type: structT, Meta: openapi.Meta{Strategy: openapi.StrategyRetainKeys}}})).To(Equal(visitors.Merge{Walker: w, Retain: true}))
		Expect(visitorFor(w, &elements.ListElement{}).(visitors.Ordered).Patch).To(BeFalse())
	})
})
