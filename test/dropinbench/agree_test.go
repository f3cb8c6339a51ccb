package dropinbench_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/test/dropinbench"
	"github.com/plyproject/ply/test/internal/benchcase"
)

var _ = Describe("the benchmarked calls", func() {
	for _, op := range dropinbench.Ops {
		for _, n := range dropinbench.Sizes {
			for _, change := range benchcase.Changes {
				It("give the same bytes in ply and apimachinery: "+op+" "+benchcase.Make(n, change).Name(), func() {
					c, err := dropinbench.NewCase(n, change)
					Expect(err).NotTo(HaveOccurred())
					want, err := dropinbench.Call(dropinbench.APIs[1], op, c, true)
					Expect(err).NotTo(HaveOccurred())
					got, err := dropinbench.Call(dropinbench.APIs[0], op, c, true)
					Expect(err).NotTo(HaveOccurred())
					Expect(string(got)).To(Equal(string(want)))
					Expect(len(c.Patch)).To(BeNumerically(">", 100), "the patch changes something")
				})
			}
		}
	}
})

var _ = Describe("the benchmarked ConfigMap calls", func() {
	for _, keys := range dropinbench.ConfigMapSizes {
		for _, sorted := range []bool{true, false} {
			c := dropinbench.NewConfigMapCase(keys, sorted)
			It("give the same bytes in ply and apimachinery: "+c.Name(), func() {
				want, err := c.Call(dropinbench.APIs[1])
				Expect(err).NotTo(HaveOccurred())
				got, err := c.Call(dropinbench.APIs[0])
				Expect(err).NotTo(HaveOccurred())
				Expect(string(got)).To(Equal(string(want)))
				Expect(string(got)).To(ContainSubstring(`"key-0000":"changed"`), "the patch changes something")
			})
		}
	}
})
