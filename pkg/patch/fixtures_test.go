package patch_test

import (
	"errors"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/patch"
)

// check runs one fixture under both orderings: its result (seedResult
// under OrderSeed when given), or its error with source and path.
func check(path string) {
	f := loadFixture(path)
	for _, o := range []patch.Ordering{patch.OrderSeed, patch.OrderKubectl} {
		By(orderingName(o))
		checkOrdering(f, o)
	}
}

func orderingName(o patch.Ordering) string {
	if o == patch.OrderKubectl {
		return "OrderKubectl"
	}
	return "OrderSeed"
}

func checkOrdering(f fixture, o patch.Ordering) {
	got, err := f.run(o)
	if f.has("patches") {
		// Patches applied in turn.
		got = f.get("live")
		for _, p := range f.get("patches").Items() {
			got, err = patch.Apply(got, p, f.options(o))
			Expect(err).NotTo(HaveOccurred())
		}
	}
	if f.has("error") {
		Expect(err).To(HaveOccurred())
		Expect(err.Error()).To(ContainSubstring(f.str("error")))
		var ee *elements.Error
		Expect(errors.As(err, &ee)).To(BeTrue(), "an *elements.Error")
		if f.has("errorSource") {
			Expect(ee.Source.String()).To(Equal(f.str("errorSource")))
		}
		if f.has("errorPath") {
			Expect(ee.Path.String()).To(Equal(f.str("errorPath")))
		}
		return
	}
	Expect(err).NotTo(HaveOccurred(), orderingName(o))
	Expect(got).To(equalValue(f.want(o)), orderingName(o))
}

var _ = Describe("Apply", func() {
	DescribeTable("the design documents' patch examples, verbatim", check, entries("seeds"))
	DescribeTable("directives", check, entries("directives"))
	DescribeTable("rejection rules", check, entries("reject"))
	DescribeTable("bad input", check, entries("bad"))
})
