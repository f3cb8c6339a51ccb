package elements

import (
	"strconv"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/pkg/value"
)

var _ = Describe("Index.Reset", func() {
	DescribeTable("keeps no key of the list before, whatever it held",
		func(fields, size, keys int) {
			x := NewIndex(fields, size)
			for i := range keys {
				k := Key{{Kind: value.KindString, Str: "k" + strconv.Itoa(i)}}
				x.ID(&k)
			}
			for _, next := range []int{0, 40} {
				x.Reset(1, next)
				Expect(x.small).To(BeZero())
				Expect(x.byID[:cap(x.byID)]).NotTo(ContainElement(Not(BeZero())))
				Expect(x.n).To(BeZero())
				Expect(x.next).To(BeZero())
				Expect(x.mapped).To(Equal(next > smallIndex))
				Expect(x.keyed).To(BeFalse())
			}
		},
		Entry("a list of one key, searched in place", 1, 1, 1),
		Entry("a list at the in-place limit", 1, 12, 12),
		Entry("a list that outgrew the in-place search", 1, 3, 40),
		Entry("a large list, hashed from the start", 1, 40, 40),
		Entry("keys of two fields", 2, 5, 5),
	)
})
