package smp_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/internal/smp"
	"github.com/plyproject/ply/pkg/value"
)

var _ = Describe("MissingMergeKey", func() {
	DescribeTable("reads back the message it builds",
		func(e smp.MissingMergeKey) {
			got, ok := smp.ReadMissingMergeKey(e.Msg())
			Expect(ok).To(BeTrue())
			Expect(got).To(Equal(e))
		},
		Entry("an item", smp.MissingMergeKey{What: "item", Item: 3, Field: "name", MergeKey: []string{"name"}}),
		Entry("live's item, a key of two fields", smp.MissingMergeKey{What: "item", Item: 0, Field: "protocol", MergeKey: []string{"containerPort", "protocol"}}),
		Entry("a field holding the words after it", smp.MissingMergeKey{What: "item", Item: 11, Field: `a" (the merge key is `, MergeKey: []string{"k"}}),
	)

	DescribeTable("refuses another message",
		func(msg string) {
			_, ok := smp.ReadMissingMergeKey(msg)
			Expect(ok).To(BeFalse())
		},
		Entry("empty", ""),
		Entry("a null key naming another item", smp.NullKeyMerge{Item: 1, Field: "name", InLive: true}.Msg()),
		Entry("a list the message never names", `entry 0 has no merge key field "name" (the merge key is name)`),
		Entry("an entry of an order", smp.MissingMergeKey{What: smp.OrderEntries("ports"), Item: 0, Field: "name", MergeKey: []string{"name"}}.Msg()),
		Entry("an index that is not a number", `item x has no merge key field "name" (the merge key is name)`),
		Entry("the end cut off", `item 0 has no merge key field "name" (the merge key is name`),
	)
})

var _ = Describe("MergeKeyNotScalar", func() {
	DescribeTable("reads back the message it builds",
		func(e smp.MergeKeyNotScalar) {
			got, ok := smp.ReadMergeKeyNotScalar(e.Msg())
			Expect(ok).To(BeTrue())
			Expect(got).To(Equal(e))
		},
		Entry("a map without the key", smp.MergeKeyNotScalar{Item: 2, MergeKey: []string{"name"}, Got: smp.GotWithoutKey}),
		Entry("a string, a key of two fields", smp.MergeKeyNotScalar{Item: 0, MergeKey: []string{"containerPort", "protocol"}, Got: "string"}),
	)

	DescribeTable("refuses another message",
		func(msg string) {
			_, ok := smp.ReadMergeKeyNotScalar(msg)
			Expect(ok).To(BeFalse())
		},
		Entry("empty", ""),
		Entry("an item without its merge key field", smp.MissingMergeKey{What: "item", Item: 1, Field: "name", MergeKey: []string{"name"}}.Msg()),
		Entry("an index that is not a number", `item x: expected an object with every merge key field (name) set to a scalar, got string`),
		Entry("what it got cut off", `item 1: expected an object with every merge key field (name)`),
	)
})

var _ = Describe("DeleteWithoutKey", func() {
	DescribeTable("reads back the message it builds for an item",
		func(e smp.DeleteWithoutKey) {
			got, ok := smp.ReadDeleteWithoutKey(e.Msg())
			Expect(ok).To(BeTrue())
			Expect(got).To(Equal(e))
		},
		Entry("a key of one field", smp.DeleteWithoutKey{What: "item", Item: 4, Field: "name", MergeKey: []string{"name"}}),
		Entry("a key of two fields", smp.DeleteWithoutKey{What: "item", Item: 0, Field: "protocol", MergeKey: []string{"containerPort", "protocol"}}),
	)

	DescribeTable("refuses another message",
		func(msg string) {
			_, ok := smp.ReadDeleteWithoutKey(msg)
			Expect(ok).To(BeFalse())
		},
		Entry("empty", ""),
		Entry("a data item without its merge key field", smp.MissingMergeKey{What: "item", Item: 1, Field: "name", MergeKey: []string{"name"}}.Msg()),
		Entry("an entry of an order", smp.DeleteWithoutKey{What: smp.OrderEntries("ports"), Item: 0, Field: "name", MergeKey: []string{"name"}}.Msg()),
		Entry("an index that is not a number", `item x: a "$patch: delete" item must give the merge key (name); it lacks "name"`),
		Entry("the end cut off", `item 0: a "$patch: delete" item must give the merge key (name); it lacks "name`),
	)
})

var _ = Describe("KeyedScalars", func() {
	It("is KeyedListClass's message for a keyed list holding scalars, which it reads back", func() {
		_, msg, _ := smp.KeyedListClass(nil, []value.Value{value.String("a")})
		got, ok := smp.ReadKeyedScalars(msg)
		Expect(ok).To(BeTrue())
		Expect(got).To(Equal(smp.KeyedScalars{Got: "strings"}))
		Expect(got.Msg()).To(Equal(msg))
	})

	DescribeTable("refuses another message",
		func(msg string) {
			_, ok := smp.ReadKeyedScalars(msg)
			Expect(ok).To(BeFalse())
		},
		Entry("empty", ""),
		Entry("an item without its merge key field", smp.MissingMergeKey{What: "item", Item: 1, Field: "name", MergeKey: []string{"name"}}.Msg()),
		Entry("the opening cut off", "a list merged by key holds objects"),
	)
})
