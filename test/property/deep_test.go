package property

import (
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/pkg/apply"
	"github.com/plyproject/ply/pkg/value"
)

// deepThing is an object of a kind without schema (merged by the fallback
// rules, so any nesting is valid) whose data field nests n maps.
func deepThing(n int) value.Value {
	v := value.MustMap()
	for range n {
		v = value.MapFromSorted([]value.Field{{Key: "a", Value: v}})
	}
	return value.MapFromSorted([]value.Field{
		{Key: "apiVersion", Value: value.String("x.example/v1")},
		{Key: "data", Value: v},
		{Key: "kind", Value: value.String("Thing")},
	})
}

// Values read by pkg/parse nest at most parse.DefaultMaxDepth levels;
// values built in memory by a library user are bounded by nothing but the
// goroutine stack.
var _ = Describe("merging objects built in memory", func() {
	It("merges 10,000 levels of nesting when MaxDepth allows them", func() {
		obj := deepThing(10000)
		opts := apply.DefaultOptions()
		opts.MaxDepth = 20000
		start := time.Now()
		res, err := apply.Merge(value.Null, obj, obj, opts)
		Expect(err).NotTo(HaveOccurred())
		Expect(value.Equal(res.Object, obj)).To(BeTrue())
		Expect(time.Since(start)).To(BeNumerically("<", 5*time.Second))
	})

	It("rejects 10,000 levels under the default limit, naming the source", func() {
		obj := deepThing(10000)
		_, err := apply.Merge(value.Null, deepThing(1), obj, apply.DefaultOptions())
		Expect(err).To(MatchError("live .: nesting is deeper than the limit of 1000 levels of maps and lists"))
	})

	It("rejects 1,000,000 levels of nesting with an error instead of exhausting the stack", func() {
		obj := deepThing(1000000)
		start := time.Now()
		_, err := apply.Merge(value.Null, obj, obj, apply.DefaultOptions())
		Expect(err).To(MatchError(ContainSubstring("local .: nesting is deeper than the limit of 1000 levels")))
		Expect(time.Since(start)).To(BeNumerically("<", time.Second))
	})
})
