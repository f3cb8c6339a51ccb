package elements_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/test/jsonv"
)

var _ = Describe("EarliestOfKeys", func() {
	object := &openapi.Type{Kind: openapi.KindStruct, Fields: map[string]*openapi.Field{}}
	scalar := &openapi.Type{Kind: openapi.KindPrimitive}
	list := func(item *openapi.Type, meta openapi.Meta) *elements.AtomicElement {
		return &elements.AtomicElement{Node: elements.Node{Type: &openapi.Type{Kind: openapi.KindList, Elem: item}, Meta: meta}}
	}
	keyed := list(object, openapi.Meta{Strategy: openapi.StrategyMerge, MergeKey: []string{"name"}})
	set := list(scalar, openapi.Meta{Strategy: openapi.StrategyMerge})
	setOfMaps := list(object, openapi.Meta{Strategy: openapi.StrategyMerge, Set: true})
	atomic := list(object, openapi.Meta{})

	DescribeTable("gives each item the earliest item not skipped of its key or value",
		func(b *elements.AtomicElement, live string, skip []bool, want []int) {
			Expect(elements.EarliestOfKeys(b, jsonv.MustDecode(live).Items(), skip)).To(Equal(want))
		},
		Entry("a list merged by key naming a key twice, and an item without the key",
			keyed, `[{"name":"a"},{"name":"b"},{"name":"a","x":1},{"x":2},{"x":2}]`, nil, []int{0, 1, 0, 3, 4}),
		Entry("a set naming a value three times",
			set, `["a","b","a",1,"a"]`, nil, []int{0, 1, 0, 3, 0}),
		Entry("a set whose first item of a value is skipped: the next is the earliest",
			set, `["a","b","a","a"]`, []bool{true}, []int{-1, 1, 2, 2}),
		Entry("a set of maps: equal objects are one value",
			setOfMaps, `[{"p":1},{"p":2},{"p":1}]`, nil, []int{0, 1, 0}),
		Entry("a list merged by no strategy: maps without identity, each its own",
			atomic, `[{"name":"a"},{"name":"a"}]`, nil, []int{0, 1}),
	)
})
