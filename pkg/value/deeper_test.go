package value_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/pkg/value"
)

// nested returns n maps and lists nested alternately around 1.
func nested(n int) value.Value {
	v := value.Int(1)
	for i := range n {
		if i%2 == 0 {
			v = value.List([]value.Value{v})
		} else {
			v = value.MapFromSorted([]value.Field{{Key: "a", Value: v}})
		}
	}
	return v
}

var _ = DescribeTable("Deeper",
	func(v value.Value, max int, want bool) {
		Expect(value.Deeper(v, max)).To(Equal(want))
	},
	Entry("a scalar nests 0 levels", value.Int(1), 0, false),
	Entry("an empty map nests 1 level", value.MustMap(), 0, true),
	Entry("an empty map within 1", value.MustMap(), 1, false),
	Entry(`{"a": [1]} nests 2 levels: within 2`, nested(2), 2, false),
	Entry(`{"a": [1]} nests 2 levels: beyond 1`, nested(2), 1, true),
	Entry("1,000 levels within 1,000", nested(1000), 1000, false),
	Entry("1,001 levels beyond 1,000", nested(1001), 1000, true),
	Entry("1,000,000 levels: stops after 1,001", nested(1000000), 1000, true),
)

// unmarked rebuilds the top of v, dropping a Bounded mark.
func unmarked(v value.Value) value.Value {
	if v.IsMap() {
		return value.MapFromSorted(v.Fields())
	}
	return value.List(v.Items())
}

var _ = Describe("Bounded", func() {
	It("is what Deeper reads for a limit at or above the bound, without descending", func() {
		// The mark is vouched for, not checked: a false one is believed.
		v := value.Bounded(nested(10), 5)
		Expect(value.Deeper(v, 5)).To(BeFalse())
		Expect(value.Deeper(v, 6)).To(BeFalse())
		By("a limit below the bound descends")
		Expect(value.Deeper(v, 4)).To(BeTrue())
		Expect(value.Deeper(value.Bounded(nested(3), 5), 2)).To(BeTrue())
		Expect(value.Deeper(value.Bounded(nested(3), 5), 3)).To(BeFalse())
	})
	It("changes nothing else: equality, identity, length, encoding", func() {
		for _, v := range []value.Value{nested(3), nested(4), value.MustMap(), value.List(nil)} {
			m := value.Bounded(v, 7)
			Expect(value.Equal(m, v)).To(BeTrue())
			Expect(value.Equal(v, m)).To(BeTrue())
			Expect(value.Identical(m, v)).To(BeTrue())
			Expect(m.Len()).To(Equal(v.Len()))
			Expect(m.JSON()).To(Equal(v.JSON()))
			Expect(unmarked(m)).To(Equal(v))
		}
	})
	It("leaves scalars and bounds outside 0 to 2046 unmarked", func() {
		Expect(value.Bounded(value.Int(3), 1)).To(Equal(value.Int(3)))
		Expect(value.Bounded(value.String("x"), 1)).To(Equal(value.String("x")))
		two := nested(2)
		Expect(value.Bounded(two, 2047)).To(Equal(two))
		Expect(value.Bounded(two, -1)).To(Equal(two))
		Expect(value.Bounded(two, 2046)).NotTo(Equal(two))
		Expect(value.Deeper(value.Bounded(nested(2), 2046), 2046)).To(BeFalse())
	})
	It("keeps DollarFree's mark, and DollarFree keeps its bound", func() {
		v := value.DollarFree(value.Bounded(nested(10), 5))
		Expect(value.IsDollarFree(value.Bounded(v, 7))).To(BeTrue())
		Expect(value.Deeper(v, 5)).To(BeFalse(), "the bound is believed, not checked")
		Expect(value.Deeper(v, 4)).To(BeTrue())
	})
})

var _ = Describe("DollarFree", func() {
	It("is what IsDollarFree reads: vouched for, not checked", func() {
		Expect(value.IsDollarFree(nested(3))).To(BeFalse(), "unmarked says nothing")
		Expect(value.IsDollarFree(value.DollarFree(nested(3)))).To(BeTrue())
		held := value.MustMap(value.Field{Key: "$patch", Value: value.String("delete")})
		Expect(value.IsDollarFree(value.DollarFree(held))).To(BeTrue(), "a false mark is believed")
	})
	It("marks maps and lists only, and changes nothing else: equality, identity, length, encoding, bound", func() {
		Expect(value.DollarFree(value.Int(3))).To(Equal(value.Int(3)))
		Expect(value.IsDollarFree(value.DollarFree(value.String("x")))).To(BeFalse())
		for _, v := range []value.Value{nested(3), nested(4), value.MustMap(), value.List(nil)} {
			m := value.DollarFree(v)
			Expect(value.Equal(m, v)).To(BeTrue())
			Expect(value.Identical(m, v)).To(BeTrue())
			Expect(m.Len()).To(Equal(v.Len()))
			Expect(m.JSON()).To(Equal(v.JSON()))
			Expect(value.Deeper(m, 1)).To(Equal(value.Deeper(v, 1)))
			Expect(unmarked(m)).To(Equal(v))
		}
	})
	It("is not carried by a value built from a marked one", func() {
		m := value.DollarFree(value.MustMap(value.Field{Key: "a", Value: value.DollarFree(value.MustMap())}))
		Expect(value.IsDollarFree(unmarked(m))).To(BeFalse())
		inner, _ := value.DollarFree(nested(4)).Get("a")
		Expect(inner.IsList()).To(BeTrue())
		Expect(value.IsDollarFree(inner)).To(BeFalse())
	})
})

var _ = Describe("FlatMapFromSorted", func() {
	fields := func() []value.Field {
		return []value.Field{{Key: "a", Value: value.Int(1)}, {Key: "b", Value: value.String("x")}}
	}
	It("is MapFromSorted marked as Bounded(v, 1) marks it, which MarkedFlat tells", func() {
		fs := fields()
		m := value.FlatMapFromSorted(fs)
		Expect(value.Equal(m, value.MapFromSorted(fields()))).To(BeTrue())
		Expect(m.Len()).To(Equal(2))
		Expect(string(m.JSON())).To(Equal(`{"a":1,"b":"x"}`))
		Expect(value.MarkedFlat(m)).To(BeTrue())
		Expect(value.Deeper(m, 1)).To(BeFalse())
		Expect(value.Deeper(m, 0)).To(BeTrue())
		Expect(unmarked(m)).To(Equal(value.MapFromSorted(fs)))
		Expect(value.MarkedFlat(value.Bounded(value.MapFromSorted(fields()), 1))).To(BeTrue())
	})
	It("is the only mark MarkedFlat tells: not an unmarked map, another bound, a list or a scalar", func() {
		Expect(value.MarkedFlat(value.MapFromSorted(fields()))).To(BeFalse())
		Expect(value.MarkedFlat(value.Bounded(value.MapFromSorted(fields()), 2))).To(BeFalse())
		Expect(value.MarkedFlat(value.Bounded(value.List([]value.Value{value.Int(1)}), 1))).To(BeFalse())
		// An integer whose bits are a marked map's.
		bits := uint64(value.KindMap)<<60 | 2<<48 | 2
		Expect(value.MarkedFlat(value.Int(int64(bits)))).To(BeFalse())
	})
})
