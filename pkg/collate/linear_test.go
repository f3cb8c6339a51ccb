package collate_test

import (
	"github.com/plyproject/ply/test/treetest"
	"strconv"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/collate"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/value"
)

// containers builds a Widget whose spec.containers holds n keyed items,
// named c<i> for i in [from, from+n).
func containers(from, n int) value.Value {
	items := make([]value.Value, n)
	for i := range items {
		items[i] = value.MustMap(
			value.Field{Key: "image", Value: value.String("img")},
			value.Field{Key: "name", Value: value.String("c" + strconv.Itoa(from+i))},
		)
	}
	spec := value.MustMap(value.Field{Key: "containers", Value: value.List(items)})
	return value.MustMap(value.Field{Key: "spec", Value: spec})
}

// bigVals is a three-way input of n items per source: local names
// 0..n-1, live n/2..3n/2-1 (half shared), recorded all of local's.
func bigVals(n int) elements.Values {
	return elements.Values{
		Recorded: containers(0, n), HasRecorded: true,
		Local: containers(0, n), HasLocal: true,
		Live: containers(n/2, n), HasLive: true,
	}
}

var _ = Describe("Collate on long lists", func() {
	var t *openapi.Type
	BeforeEach(func() { t = widget() })

	It("collates 20,000 keyed items", func() {
		const n = 20000
		tree, err := collate.Collate(bigVals(n), t, collate.Options{})
		Expect(err).NotTo(HaveOccurred())
		l := treetest.Field(treetest.Field(tree, "spec"), "containers").(*elements.ListElement)
		Expect(l.Items).To(HaveLen(n + n/2))
		Expect(l.LiveExtra).To(BeEmpty())
		Expect(indexes(l.Items[:1])).To(Equal([]idx{{0, 0, -1}}))
		Expect(indexes(l.Items[n/2 : n/2+1])).To(Equal([]idx{{n / 2, n / 2, 0}}))
		Expect(indexes(l.Items[n : n+1])).To(Equal([]idx{{-1, -1, n / 2}}))
	})

	It("allocates a bounded amount per item (linear, not quadratic)", func() {
		allocs := func(n int) float64 {
			vals := bigVals(n)
			return testing.AllocsPerRun(3, func() {
				if _, err := collate.Collate(vals, t, collate.Options{}); err != nil {
					panic(err)
				}
			})
		}
		small, large := allocs(1000), allocs(10000)
		Expect(small).To(BeNumerically(">", 0))
		Expect(large).To(BeNumerically("<=", 11*small), "allocs(1000)=%v allocs(10000)=%v", small, large)
	})
})

var _ = Describe("CountIn of a patch whose maps hold directives", func() {
	It("allocates nothing for their data fields once its pooled memory has room: only the Arena", func() {
		if raceDetector {
			Skip("the race detector's sync.Pool drops pooled memory at random")
		}
		t := widget()
		vals := three(absent,
			"spec:\n  $setElementOrder/containers: [{name: c0}, {name: c1}]\n  containers: [{name: c0, image: x}]\n  replicas: 2\n",
			"spec:\n  replicas: 1\n  containers: [{name: c0, image: a}, {name: c1, image: b}]\n")
		count := func() {
			_, _, arena, err := collate.CountIn(vals, t, collate.Options{Patch: true})
			if err != nil {
				panic(err)
			}
			arena.Release()
		}
		count() // (the pooled memory made)
		Expect(testing.AllocsPerRun(20, count)).To(Equal(1.0))
	})
})
