package value_test

import (
	"math"
	"unsafe"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/pkg/value"
)

var _ = Describe("the two-word layout", func() {
	It("keeps a Value at two words and a map field at four", func() {
		Expect(unsafe.Sizeof(value.Value{})).To(Equal(2 * unsafe.Sizeof(uintptr(0))))
		Expect(unsafe.Sizeof(value.Field{})).To(Equal(4 * unsafe.Sizeof(uintptr(0))))
	})

	// Scalars use every bit of n, so bits that would read as a container's
	// kind must not make one: the kind of a scalar comes from p.
	DescribeTable("tells every scalar's kind whatever its bits",
		func(v value.Value, kind value.Kind) {
			Expect(v.Kind()).To(Equal(kind))
			Expect(v.IsMap()).To(BeFalse())
			Expect(v.IsList()).To(BeFalse())
			Expect(v.IsNull()).To(BeFalse())
			Expect(v.IsScalar()).To(BeTrue())
			Expect(v.Len()).To(Equal(0))
			Expect(v.Fields()).To(BeNil())
			Expect(v.Items()).To(BeNil())
			_, isStr := v.AsString()
			Expect(isStr).To(Equal(kind == value.KindString))
		},
		Entry("int -1", value.Int(-1), value.KindInt),
		Entry("int 0", value.Int(0), value.KindInt),
		Entry("int with a map's kind bits", value.Int(int64(value.KindMap)<<60), value.KindInt),
		Entry("int with a list's kind bits", value.Int(int64(value.KindList)<<60|7), value.KindInt),
		Entry("min int64", value.Int(math.MinInt64), value.KindInt),
		Entry("float -0", value.Float(math.Copysign(0, -1)), value.KindFloat),
		Entry("float NaN bits", value.Float(math.NaN()), value.KindFloat),
		Entry("float -Inf", value.Float(math.Inf(-1)), value.KindFloat),
		Entry("false", value.Bool(false), value.KindBool),
		Entry("true", value.Bool(true), value.KindBool),
		Entry("the empty string", value.String(""), value.KindString),
		Entry("a string", value.String("abc"), value.KindString),
	)

	It("keeps empty containers apart from null and from each other", func() {
		Expect(value.List(nil).Kind()).To(Equal(value.KindList))
		Expect(value.MapFromSorted(nil).Kind()).To(Equal(value.KindMap))
		Expect(value.String("").IsNull()).To(BeFalse())
		Expect(value.Equal(value.List(nil), value.MapFromSorted(nil))).To(BeFalse())
		Expect(value.Equal(value.String(""), value.Null)).To(BeFalse())
	})

	It("keeps the bits of integers and floats exactly", func() {
		for _, i := range []int64{math.MinInt64, -1, 0, 1, 1 << 62, math.MaxInt64} {
			got, ok := value.Int(i).AsInt()
			Expect(ok).To(BeTrue())
			Expect(got).To(Equal(i))
		}
		got, ok := value.Float(1.5).AsFloat()
		Expect(ok).To(BeTrue())
		Expect(got).To(Equal(1.5))
	})
})
