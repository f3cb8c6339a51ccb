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
