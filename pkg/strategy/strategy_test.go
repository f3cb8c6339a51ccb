package strategy_test

import (
	"github.com/plyproject/ply/test/treetest"
	"os"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/internal/order"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/collate"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/pkg/parse"
	"github.com/plyproject/ply/pkg/strategy"
	"github.com/plyproject/ply/pkg/value"
	"github.com/plyproject/ply/pkg/visitors"
)

func withStrategy(s openapi.Strategy) elements.Node {
	return elements.Node{Type: openapi.Unknown, Meta: openapi.Meta{Strategy: s}}
}

// structT is the type of a MapElement collated from a struct.
var structT = &openapi.Type{Kind: openapi.KindStruct}

var _ = Describe("Walker.For", func() {
	var w *strategy.Walker
	BeforeEach(func() { w = strategy.New(strategy.Options{Ordering: order.OrderKubectl}) })

	DescribeTable("decides leaves with Replace",
		func(e elements.Element) {
			Expect(visitorFor(w, e)).To(BeAssignableToTypeOf(visitors.Replace{}))
		},
		Entry("AtomicElement", &elements.AtomicElement{}),
		Entry("AtomicElement with strategy replace", &elements.AtomicElement{Node: withStrategy(openapi.StrategyReplace)}),
		Entry("AtomicElement with retainKeys", &elements.AtomicElement{Node: withStrategy(openapi.StrategyRetainKeys)}),
		Entry("AtomicElement no source gives a non-null value", &elements.AtomicElement{Node: elements.Node{Type: structT, Values: elements.Values{Local: value.Null, HasLocal: true}}}),
		Entry("AtomicElement with retainKeys (a struct no source sets)", &elements.AtomicElement{Node: elements.Node{Type: structT, Meta: openapi.Meta{Strategy: openapi.StrategyRetainKeys}}}),
	)

	DescribeTable("merges maps and structs, with RetainKeys when the strategy has retainKeys",
		func(e elements.Element, retain bool) {
			v := visitorFor(w, e)
			Expect(v).To(BeAssignableToTypeOf(visitors.Merge{}))
			Expect(v.(visitors.Merge).Walker).To(BeIdenticalTo(elements.Walker(w)))
			Expect(v.(visitors.Merge).Retain).To(Equal(retain))
		},
		Entry("MapElement, no strategy", &elements.MapElement{}, false),
		Entry("MapElement of a struct, no strategy", &elements.MapElement{Node: elements.Node{Type: structT}}, false),
		Entry("MapElement of a struct, merge", &elements.MapElement{Node: elements.Node{Type: structT, Meta: openapi.Meta{Strategy: openapi.StrategyMerge}}}, false),
		Entry("MapElement, replace", &elements.MapElement{Node: withStrategy(openapi.StrategyReplace)}, false),
		Entry("MapElement of a struct, retainKeys", &elements.MapElement{Node: elements.Node{Type: structT, Meta: openapi.Meta{Strategy: openapi.StrategyRetainKeys}}}, true),
		Entry("MapElement of a struct, merge,retainKeys", &elements.MapElement{Node: elements.Node{Type: structT, Meta: openapi.Meta{Strategy: openapi.StrategyMerge | openapi.StrategyRetainKeys}}}, true),
		Entry("MapElement, retainKeys", &elements.MapElement{Node: withStrategy(openapi.StrategyRetainKeys)}, true),
	)

	DescribeTable("orders lists and sets with Ordered and the configured Ordering, kubectl's with SeedOrdering off",
		func(e elements.Element) {
			for _, ord := range []order.Ordering{order.OrderSeed, order.OrderKubectl} {
				for _, g := range []features.Gates{{}, features.Gates{}.With(features.SeedOrdering, false),
					features.Kubectl(), features.Kubectl().With(features.SeedOrdering, true)} {
					w := strategy.New(strategy.Options{Ordering: ord, Gates: g})
					v := visitorFor(w, e)
					Expect(v).To(BeAssignableToTypeOf(visitors.Ordered{}))
					o := v.(visitors.Ordered)
					want := ord
					if !g.Enabled(features.SeedOrdering) {
						want = order.OrderKubectl
					}
					Expect(o.Ordering).To(Equal(want), g.String())
					Expect(o.Walker).To(BeIdenticalTo(elements.Walker(w)))
				}
			}
		},
		Entry("ListElement", &elements.ListElement{}),
		Entry("ListElement, merge,retainKeys (volumes)", &elements.ListElement{Node: withStrategy(openapi.StrategyMerge | openapi.StrategyRetainKeys)}),
		Entry("SetElement", &elements.SetElement{}),
	)

	It("refuses an Element type it does not know, naming it", func() {
		v, err := w.For(&failingElement{})
		Expect(v).To(BeNil())
		Expect(err).To(MatchError(".: no merge rule decides a *strategy_test.failingElement"))
		_, err = w.Walk(&failingElement{})
		Expect(err).To(MatchError(ContainSubstring("no merge rule decides")))
	})
})

// failingElement is an Element kind outside the built-in set that no registered rule decides.
type failingElement struct{ elements.Node }

var _ = Describe("Walker.Walk", func() {
	It("keeps the outcome by node ID and returns it", func() {
		e := &elements.AtomicElement{Node: elements.Node{Type: openapi.Unknown,
			Values: elements.Values{Local: value.Int(5), HasLocal: true, Live: value.Int(3), HasLive: true}}}
		w := strategy.New(strategy.Options{Record: true})
		out, err := w.Walk(e)
		Expect(err).NotTo(HaveOccurred())
		Expect(out.Present).To(BeTrue())
		Expect(value.Equal(out.Value, value.Int(5))).To(BeTrue())
		Expect(w.Outcome(&e.Node)).To(Equal(out))
	})

	It("stores an absent outcome too", func() {
		e := &elements.AtomicElement{Node: elements.Node{Type: openapi.Unknown,
			Values: elements.Values{Recorded: value.Int(1), HasRecorded: true, Live: value.Int(1), HasLive: true}}}
		w := strategy.New(strategy.Options{Record: true})
		out, err := w.Walk(e)
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(Equal(elements.Absent))
		Expect(w.Outcome(&e.Node)).To(Equal(elements.Absent))
	})

	It("returns a child's error and an absent outcome, keeping none", func() {
		vals := elements.Values{Local: value.List([]value.Value{value.String("a")}), HasLocal: true}
		e := &elements.SetElement{Node: elements.Node{Type: openapi.Unknown, Values: vals, ID: 1}}
		e.Items = []elements.Item{{Element: &failingElement{Node: elements.Node{Parent: e, Values: vals}}, LocalIndex: 0, LiveIndex: -1, RecordedIndex: -1, OrderIndex: -1}}
		w := strategy.New(strategy.Options{Record: true})
		out, err := w.Walk(e)
		Expect(err).To(MatchError(ContainSubstring("no merge rule decides a *strategy_test.failingElement")))
		Expect(out).To(Equal(elements.Absent))
		Expect(w.Outcome(&e.Node)).To(Equal(elements.Absent))
	})
})

type fixture struct {
	vals   elements.Values
	result value.Value
}

func load(path string) fixture {
	data, err := os.ReadFile(path)
	Expect(err).NotTo(HaveOccurred())
	doc, err := parse.Document(data)
	Expect(err).NotTo(HaveOccurred())
	var fx fixture
	fx.vals.Recorded, fx.vals.HasRecorded = doc.Get("recorded")
	fx.vals.Local, fx.vals.HasLocal = doc.Get("local")
	fx.vals.Live, fx.vals.HasLive = doc.Get("live")
	fx.result, _ = doc.Get("result")
	return fx
}

func collateDeployment(vals elements.Values) elements.Element {
	schema, err := openapi.Default()
	Expect(err).NotTo(HaveOccurred())
	t, ok := schema.ForKind("apps/v1", "Deployment")
	Expect(ok).To(BeTrue())
	tree, err := collate.Collate(vals, t, collate.Options{})
	Expect(err).NotTo(HaveOccurred())
	return tree
}

func containerNames(v value.Value) []string {
	spec, _ := v.Get("spec")
	tmpl, _ := spec.Get("template")
	pod, _ := tmpl.Get("spec")
	cs, _ := pod.Get("containers")
	var names []string
	for _, c := range cs.Items() {
		n, _ := c.Get("name")
		s, _ := n.AsString()
		names = append(names, s)
	}
	return names
}

var _ = Describe("Walk over a collated Deployment", func() {
	It("clears a retainKeys union's other members and merges plain maps", func() {
		fx := load("testdata/retain-keys.yaml")
		tree := collateDeployment(fx.vals)
		nodes := treetest.ByPath(tree)
		w := strategy.New(strategy.Options{Record: true})
		Expect(visitorFor(w, nodes["spec.strategy"])).To(Equal(visitors.Merge{Walker: w, Retain: true}))
		Expect(visitorFor(w, nodes["metadata.labels"])).To(Equal(visitors.Merge{Walker: w}))
		Expect(visitorFor(w, nodes["spec.replicas"])).To(BeAssignableToTypeOf(visitors.Replace{}))

		out, err := w.Walk(tree)
		Expect(err).NotTo(HaveOccurred())
		Expect(out.Present).To(BeTrue())
		Expect(string(out.Value.JSON())).To(Equal(string(fx.result.JSON())))
		Expect(w.Outcome(tree.Base())).To(Equal(out))
	})

	It("stores an outcome in every node it walks", func() {
		fx := load("testdata/retain-keys.yaml")
		tree := collateDeployment(fx.vals)
		w := strategy.New(strategy.Options{Record: true})
		_, err := w.Walk(tree)
		Expect(err).NotTo(HaveOccurred())
		nodes := treetest.ByPath(tree)
		for _, p := range []string{".", "metadata", "metadata.labels", "metadata.labels.tier", "metadata.labels.injected", "spec.strategy", "spec.strategy.type"} {
			Expect(nodes).To(HaveKey(p))
			Expect(w.Outcome(nodes[p].Base()).Present).To(BeTrue(), p)
		}
		// rollingUpdate is cleared by retainKeys without being walked.
		Expect(w.Outcome(nodes["spec.strategy.rollingUpdate"].Base())).To(Equal(elements.Absent))
		labels := w.Outcome(nodes["metadata.labels"].Base()).Value
		Expect(string(labels.JSON())).To(Equal(`{"app":"web","injected":"true","tier":"front"}`))
	})

	DescribeTable("passes the Ordering option to the list visitor",
		func(ord order.Ordering, want []string) {
			fx := load("testdata/ordering.yaml")
			out, err := strategy.New(strategy.Options{Ordering: ord}).Walk(collateDeployment(fx.vals))
			Expect(err).NotTo(HaveOccurred())
			Expect(containerNames(out.Value)).To(Equal(want))
		},
		Entry("seed: live-only items first", order.OrderSeed, []string{"x", "a", "b", "c"}),
		Entry("kubectl: live-only items where the patch leaves them", order.OrderKubectl, []string{"a", "x", "b", "c"}),
	)
})

// visitorFor is Walker.For for a known element type.
func visitorFor(w *strategy.Walker, e elements.Element) elements.Visitor {
	GinkgoHelper()
	v, err := w.For(e)
	Expect(err).NotTo(HaveOccurred())
	return v
}
