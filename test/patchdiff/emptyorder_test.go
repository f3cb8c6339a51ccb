package patchdiff_test

import (
	"fmt"
	"math/rand/v2"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/test/internal/difftest"
	"github.com/plyproject/ply/test/jsonv"
	"github.com/plyproject/ply/test/patchdiff"
)

// An empty "$setElementOrder" with patch items, every gate off: strategicpatch sorts every item as one the order
// leaves out, by index in live's list (a composed patch: the first's), with a comparator that answers "less" whenever
// either item lacks one; ply runs the same sort (internal/order's sortUnnamed). The cases: a Widget's parts (keyed by
// name: plain items, items with a field, "$patch: delete" items) or tags (a set), live (or the first patch) and the
// patch each a random draw of up to 47 names, so that the stable sort's blocks of 20 are merged too; the patch
// applied to live (ApplyDirectives) and composed with the first. PLY_DIFF_EMPTY_ORDER_N sets the cases.
var _ = Describe("an empty $setElementOrder with patch items, every gate off, against strategicpatch", func() {
	It("agrees applying and composing on random lists", func() {
		t, err := difftest.LoadTarget("widget/" + difftest.Kubectl)
		Expect(err).NotTo(HaveOccurred())
		n := int(envInt("PLY_DIFF_EMPTY_ORDER_N", 400))
		counts := map[string]int{}
		var fails []string
		for i := range n {
			r := rand.New(rand.NewPCG(envInt("PLY_DIFF_SEED", defaultSeed), uint64(i)))
			first, live, second := emptyOrderCase(r)
			c := patchdiff.Case{Mode: patchdiff.ApplyDirectives, Target: t.ID(), Seed: uint64(i), Live: jsonv.MustDecode(live), Patch: jsonv.MustDecode(second)}
			o := patchdiff.Run(t, c)
			counts["apply "+o.Class.String()]++
			if o.Class.Failed() {
				fails = append(fails, patchdiff.Report(o, ""))
			}
			class, _, fail := composeCase(t, c, jsonv.MustDecode(first), c.Patch)
			counts["compose "+class]++
			if fail != "" {
				fails = append(fails, fail)
			}
		}
		line := reportCounts("widget/kubectl, empty orders: ", n, counts)
		Expect(fails).To(BeEmpty(), "%s\n%s", line, strings.Join(fails[:min(len(fails), 3)], "\n"))
		Expect(counts["apply agree"]).To(BeNumerically(">", n/2), line)
		Expect(counts["compose agree"]).To(BeNumerically(">", n/2), line)
	})
})

// emptyOrderCase returns a first patch, a live object and a second patch ordering their list with an empty
// "$setElementOrder": parts (first's with "$patch: delete" items) or tags, named from a pool of 3 to 47 names.
func emptyOrderCase(r *rand.Rand) (first, live, second string) {
	pool := 3 + r.IntN(45)
	if r.IntN(2) == 0 {
		first = `{"spec":{"tags":` + randomTags(r, r.IntN(pool), pool) + `}}`
		return first, first, `{"spec":{"$setElementOrder/tags":[],"tags":` + randomTags(r, 1+r.IntN(pool), pool) + `}}`
	}
	first = `{"spec":{"parts":` + randomParts(r, r.IntN(pool), pool, true) + `}}`
	live = `{"spec":{"parts":` + randomParts(r, r.IntN(pool), pool, false) + `}}`
	if r.IntN(5) == 0 {
		first, live = `{"spec":{"replicas":1}}`, `{"spec":{"replicas":1}}`
	}
	return first, live, `{"spec":{"$setElementOrder/parts":[],"parts":` + randomParts(r, 1+r.IntN(pool), pool, r.IntN(2) == 0) + `}}`
}

// randomParts is a list of n parts named from a pool of size pool, each plain, with a weight, or (deletes) a "$patch:
// delete" item.
func randomParts(r *rand.Rand, n, pool int, deletes bool) string {
	items := make([]string, 0, n)
	for _, k := range r.Perm(pool)[:min(n, pool)] {
		switch {
		case deletes && r.IntN(4) == 0:
			items = append(items, fmt.Sprintf(`{"$patch":"delete","name":"k%d"}`, k))
		case r.IntN(3) == 0:
			items = append(items, fmt.Sprintf(`{"name":"k%d","weight":%d}`, k, r.IntN(9)))
		default:
			items = append(items, fmt.Sprintf(`{"name":"k%d"}`, k))
		}
	}
	return "[" + strings.Join(items, ",") + "]"
}

// randomTags is a set of n values from a pool of size pool.
func randomTags(r *rand.Rand, n, pool int) string {
	items := make([]string, 0, n)
	for _, k := range r.Perm(pool)[:min(n, pool)] {
		items = append(items, fmt.Sprintf(`"s%d"`, k))
	}
	return "[" + strings.Join(items, ",") + "]"
}
