package carve_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/internal/carve"
)

var _ = Describe("Chunks", func() {
	// carveAll carves each size in turn, fills each slice with its index + 1, and returns the slices.
	carveAll := func(c *carve.Chunks[*int], sizes []int) [][]*int {
		out := make([][]*int, len(sizes))
		for i, n := range sizes {
			s := c.Carve(n)
			Expect(s).To(HaveLen(n))
			Expect(cap(s)).To(Equal(n))
			for j := range s {
				Expect(s[j]).To(BeNil(), "slice %d of %d handed out not zero", i, n)
				s[j] = new(i + 1)
			}
			out[i] = s
		}
		return out
	}
	sizes := []int{1, 3, 7, 8, 40, 2000, 1, 3000, 5, 2048, 2049, 17}

	It("hands out zero slices of the length and capacity asked that share no memory, walk after walk", func() {
		var c carve.Chunks[*int]
		for range 3 {
			slices := carveAll(&c, sizes)
			for i, s := range slices {
				for _, p := range s {
					Expect(*p).To(Equal(i+1), "slice %d was written through another", i)
				}
				// Appending past the capacity never writes into the next slice.
				_ = append(s, new(-1))
			}
			for i := range len(slices) - 1 {
				Expect(*slices[i+1][0]).To(Equal(i+2), "slice %d's append reached the next", i)
			}
			c.Reset()
		}
	})

	It("refers to nothing carved before Reset: the memory carved again is zero", func() {
		var c carve.Chunks[*int]
		first := carveAll(&c, sizes)
		c.Reset()
		again := c.Carve(len(first[0]) + len(first[1]) + len(first[2]))
		Expect(again).To(HaveEach(BeNil()))
	})

	It("gives memory of its own from a nil Chunks", func() {
		var c *carve.Chunks[int]
		Expect(c.Carve(5)).To(Equal(make([]int, 5)))
	})
})
