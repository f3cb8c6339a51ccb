package smp_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/internal/smp"
)

var _ = Describe("NullKeyMerge", func() {
	DescribeTable("reads back the message it builds",
		func(e smp.NullKeyMerge) {
			got, ok := smp.ReadNullKeyMerge(e.Msg())
			Expect(ok).To(BeTrue())
			Expect(got).To(Equal(e))
		},
		Entry("live's item", smp.NullKeyMerge{Item: 2, Field: "name", InLive: true, Other: 0}),
		Entry("an earlier item of the patch", smp.NullKeyMerge{Item: 12, Field: "containerPort", Other: 3}),
		Entry("a field holding the words around it", smp.NullKeyMerge{Item: 1, Field: `a" is null, naming `, Other: 7}),
	)

	DescribeTable("refuses another message",
		func(msg string) {
			_, ok := smp.ReadNullKeyMerge(msg)
			Expect(ok).To(BeFalse())
		},
		Entry("empty", ""),
		Entry("another item error", `item 0 has no merge key field "name" (the merge key is name)`),
		Entry("a whose the message never says", `item 1: its merge key field "name" is null, naming someone's item 0 too; merged into it, the null deletes the field, leaving an item without its merge key`),
		Entry("an index that is not a number", `item x: its merge key field "name" is null, naming live's item 0 too; merged into it, the null deletes the field, leaving an item without its merge key`),
		Entry("the end cut off", `item 1: its merge key field "name" is null, naming live's item 0 too;`),
	)
})

var _ = Describe("NullKeyDropped", func() {
	It("reads back the message it builds", func() {
		e := smp.NullKeyDropped{Item: 4, Field: "name"}
		got, ok := smp.ReadNullKeyDropped(e.Msg())
		Expect(ok).To(BeTrue())
		Expect(got).To(Equal(e))
	})

	DescribeTable("refuses another message",
		func(msg string) {
			_, ok := smp.ReadNullKeyDropped(msg)
			Expect(ok).To(BeFalse())
		},
		Entry("a null key naming another item", smp.NullKeyMerge{Item: 1, Field: "name", InLive: true}.Msg()),
		Entry("an index that is not a number", `item x: its merge key field "name"`+` is null where live lacks the list, copied without it, and a later item of the patch merges the list: the copy has no merge key`),
	)
})
