package consumersuite_test

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/test/consumersuite"
	"github.com/plyproject/ply/test/internal/gotestjson"
)

// smpTests are the tests of Helm's pkg/kube that reach strategicpatch: Update and UpdateThreeWayMerge patch a Pod with
// createPatch, which calls CreateThreeWayMergePatch over NewPatchMetaFromStruct, and compare the patch sent with the
// bytes they expect.
var smpTests = []string{"TestUpdate", "TestUpdateThreeWayMerge"}

var _ = Describe("Helm's pkg/kube tests", Ordered, func() {
	var scratch *consumersuite.Scratch
	var stock *gotestjson.Results

	BeforeAll(func(ctx SpecContext) {
		root, err := filepath.Abs(filepath.Join("..", ".."))
		Expect(err).NotTo(HaveOccurred())
		scratch, err = consumersuite.Prepare(root, GinkgoT().TempDir())
		Expect(err).NotTo(HaveOccurred())
		start := time.Now()
		stock, err = scratch.RunStock(ctx)
		Expect(err).NotTo(HaveOccurred())
		GinkgoWriter.Printf("stock apimachinery %s: %d tests and subtests (%d passed, %d skipped) in %s\n", scratch.Machinery.Version,
			len(stock.Outcomes), len(withOutcome(stock, "pass")), len(skipped(stock)), time.Since(start).Round(time.Second))
	}, NodeTimeout(30*time.Minute))

	It("pass on stock apimachinery (TestReal skips itself: it needs a cluster)", func() {
		Expect(failed(stock)).To(BeEmpty(), "%v", stock.Output)
		Expect(skipped(stock)).To(Equal([]string{"TestReal"}))
		Expect(len(stock.Outcomes)).To(BeNumerically(">=", 100))
	})

	It("pass alike with apimachinery's strategicpatch replaced by ply's, and reach it in TestUpdate and TestUpdateThreeWayMerge", func(ctx SpecContext) {
		start := time.Now()
		withPly, err := scratch.RunPly(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(failed(withPly)).To(BeEmpty(), "%v", withPly.Output)
		Expect(withPly.Outcomes).To(Equal(stock.Outcomes))
		GinkgoWriter.Printf("ply: %d tests and subtests, every outcome the same as on stock, in %s\n", len(withPly.Outcomes),
			time.Since(start).Round(time.Second))

		covered, err := scratch.Covered(ctx)
		Expect(err).NotTo(HaveOccurred())
		names := slices.Sorted(maps.Keys(covered))
		for i, name := range names {
			names[i] = fmt.Sprintf("%s %.1f%%", name, covered[name])
		}
		GinkgoWriter.Printf("covered: %s\n", strings.Join(names, ", "))
		Expect(covered).To(HaveKey("strategicpatch.CreateThreeWayMergePatch"))
		Expect(covered).To(HaveKey("engine.ThreeWayJSON"))

		// Without the two tests, no test reaches ply's CreateThreeWayMergePatch: they are the ones that exercise it.
		others, err := scratch.RunPly(ctx, "-skip", "^("+smpTests[0]+"|"+smpTests[1]+")$")
		Expect(err).NotTo(HaveOccurred())
		Expect(failed(others)).To(BeEmpty())
		Expect(others.Outcomes).NotTo(HaveKey(smpTests[0]))
		covered, err = scratch.Covered(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(covered).NotTo(HaveKey("strategicpatch.CreateThreeWayMergePatch"))
		Expect(covered).NotTo(HaveKey("engine.ThreeWayJSON"))
	}, NodeTimeout(30*time.Minute))
})

// failed lists the tests and subtests that failed, sorted.
func failed(r *gotestjson.Results) []string { return withOutcome(r, "fail") }

// skipped lists those that skipped themselves, sorted.
func skipped(r *gotestjson.Results) []string { return withOutcome(r, "skip") }

func withOutcome(r *gotestjson.Results, o gotestjson.Outcome) []string {
	var out []string
	for name, got := range r.Outcomes {
		if got == o {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}
