package smp_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"strconv"

	"github.com/plyproject/ply/pkg/value"
	"github.com/plyproject/ply/test/treetest"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/internal/smp"
)

var _ = Describe("KeyString", func() {
	DescribeTable("renders a key as fmt's %v of what encoding/json decodes",
		func(literal, want string) {
			var decoded any
			Expect(json.Unmarshal([]byte(literal), &decoded)).To(Succeed())
			Expect(fmt.Sprintf("%v", decoded)).To(Equal(want), "the table's expectation")
			Expect(smp.KeyString(treetest.YAML(literal))).To(Equal(want))
		},
		Entry("small integer", `80`, "80"),
		Entry("zero", `0`, "0"),
		Entry("negative integer", `-3`, "-3"),
		Entry("a million", `1000000`, "1e+06"),
		Entry("exponent notation", `1e6`, "1e+06"),
		Entry("integral float", `80.0`, "80"),
		Entry("fraction", `1.5`, "1.5"),
		Entry("small fraction", `0.0001`, "0.0001"),
		Entry("tiny fraction", `0.00001`, "1e-05"),
		Entry("large integer", `123456789`, "1.23456789e+08"),
		Entry("beyond float64 precision", `9007199254740993`, "9.007199254740992e+15"),
		Entry("true", `true`, "true"),
		Entry("false", `false`, "false"),
		Entry("string", `"TCP"`, "TCP"),
		Entry("numeric string", `"80"`, "80"),
		Entry("empty string", `""`, ""),
		Entry("null", `null`, "<nil>"),
	)
})

// kubectlSort is kubectl's sort of a list of maps by one field (its
// SortableSliceOfMaps): sort.Sort, the %v renderings compared with <=.
type kubectlSort struct {
	pos  []int
	keys []string
}

func (s kubectlSort) Len() int           { return len(s.pos) }
func (s kubectlSort) Less(i, j int) bool { return s.keys[i] <= s.keys[j] }
func (s kubectlSort) Swap(i, j int) {
	s.pos[i], s.pos[j] = s.pos[j], s.pos[i]
	s.keys[i], s.keys[j] = s.keys[j], s.keys[i]
}

var _ = Describe("SortByKey and PatchOrder", func() {
	It("sort as kubectl's sort.Sort does, short lists (insertion sort) and long ones (pdqsort), and rank each key's items", func() {
		r := rand.New(rand.NewPCG(1, 2))
		for n := range 60 {
			list := make([]value.Value, n)
			s := kubectlSort{pos: make([]int, n), keys: make([]string, n)}
			for i := range list {
				k := strconv.Itoa(r.IntN(max(1, n/3)))
				list[i] = value.MustMap(value.Field{Key: "name", Value: value.String(k)}, value.Field{Key: "at", Value: value.Int(int64(i))})
				s.pos[i], s.keys[i] = i, k
			}
			sort.Sort(s)
			sorted, rank := smp.SortByKey(list, "name")
			Expect(sorted).To(Equal(s.pos), "n=%d", n)
			seen := map[string]int{}
			for _, i := range sorted {
				k, _ := list[i].Get("name")
				Expect(rank[i]).To(Equal(seen[k.Short()]), "n=%d item %d", n, i)
				seen[k.Short()]++
			}
		}
	})

	It("reverses one key's items in a short list and lists each key where it first stands, its items by rank", func() {
		list := []value.Value{treetest.YAML(`{name: b, at: 0}`), treetest.YAML(`{name: a, at: 1}`), treetest.YAML(`{name: b, at: 2}`), treetest.YAML(`{name: a, at: 3}`)}
		sorted, rank := smp.SortByKey(list, "name")
		Expect(sorted).To(Equal([]int{3, 1, 2, 0}))
		Expect(rank).To(Equal([]int{1, 1, 0, 0}))
		Expect(smp.PatchOrder(sorted, rank)).To(Equal([]int{2, 0, 3, 1}))
	})
})

var _ = Describe("DedupScalars", func() {
	DescribeTable("leaves one copy of each value, in the order kubectl's deduplication leaves them",
		func(in, want string) {
			got := value.List(smp.DedupScalars(slices.Clone(treetest.YAML(in).Items())))
			Expect(string(got.JSON())).To(Equal(string(treetest.YAML(want).JSON())))
		},
		Entry("no repeats", `[a, b, c]`, `[a, b, c]`),
		Entry("a repeat, sorted", `[a, a, b]`, `[a, b]`),
		Entry("the last value moves into a repeat's place, unsorting the list", `[a, a, a, b, c]`, `[a, c, b]`),
		Entry("numbers and strings are distinct", `[1, "1", 1]`, `[1, "1"]`),
	)
})
