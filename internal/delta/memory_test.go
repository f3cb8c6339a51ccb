package delta_test

import (
	"fmt"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/internal/delta"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/collate"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/pkg/value"
)

var _ = Describe("A patch's maps, built in the walk's memory", func() {
	// Fields are visited in key order: "a"'s one-field patch is made first, then "b"'s of n fields, each larger than
	// what the walk's memory holds so far.
	DescribeTable("hold every entry, however many follow a small map",
		func(n int) {
			small := func(v int64) value.Value { return value.MustMap(value.Field{Key: "x", Value: value.Int(v)}) }
			wide := func(v int64) value.Value {
				fields := make([]value.Field, n)
				for i := range fields {
					fields[i] = value.Field{Key: fmt.Sprintf("f%04d", i), Value: value.Int(v + int64(i))}
				}
				return value.MustMap(fields...)
			}
			doc := func(v int64) value.Value {
				return value.MustMap(value.Field{Key: "a", Value: small(v)}, value.Field{Key: "b", Value: wide(v)})
			}
			tree, err := collate.Collate(elements.Values{Recorded: doc(1), HasRecorded: true, Local: doc(2), HasLocal: true}, openapi.Unknown, collate.Options{})
			Expect(err).NotTo(HaveOccurred())
			got, ok, err := delta.Patch(tree, nil, delta.TwoWay, features.Gates{})
			Expect(err).NotTo(HaveOccurred())
			Expect(ok).To(BeTrue())
			Expect(value.Equal(got, doc(2))).To(BeTrue(), "got %s", got.JSON())
		},
		Entry("20 fields", 20),
		Entry("1,000 fields", 1000),
		Entry("3,000 fields (more than half a chunk: memory of their own)", 3000),
	)
})

var _ = Describe("ThreeWayIn, one Memory reset walk after walk", func() {
	// env builds a Pod's container with n env entries, the values prefixed by v.
	env := func(n int, v string) string {
		var b strings.Builder
		b.WriteString("spec:\n  containers:\n  - name: web\n    image: " + v + "\n    env:\n")
		for i := range n {
			fmt.Fprintf(&b, "    - name: VAR_%04d\n      value: %s-%d\n", i, v, i)
		}
		return b.String()
	}
	It("gives the patches a walk in memory of its own gives, larger and smaller walks in turn", func() {
		var mem delta.Memory
		for _, n := range []int{3, 600, 1, 5000, 40, 2} {
			c := newCase("Pod", env(n, "old"), env(n, "new"), env(n, "old"))
			tree, beside := c.collated(features.Gates{})
			want, wantOK, err := delta.ThreeWay(tree, beside, features.Gates{}, true)
			Expect(err).NotTo(HaveOccurred())
			got, ok, err := delta.ThreeWayIn(&mem, tree, beside, features.Gates{}, true)
			Expect(err).NotTo(HaveOccurred())
			Expect(ok).To(Equal(wantOK))
			Expect(string(got.JSON())).To(Equal(string(want.JSON())), "%d entries", n)
			mem.Reset()
		}
	})
})
