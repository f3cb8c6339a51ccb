package smpsuite_test

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/test/smpsuite"
)

// tally counts a run's tests: top-level functions and subtests, passed, excepted, failed.
type tally struct {
	run, passed, excepted int
	failed                []string
	exceptionsMet         map[string]int
}

// count classifies every outcome; a test whose failures are all in excepted subtests is excepted.
func count(outcomes map[string]smpsuite.Outcome, topLevel bool) tally {
	t := tally{exceptionsMet: map[string]int{}}
	for name, o := range outcomes {
		if strings.Contains(name, "/") == topLevel {
			continue
		}
		t.run++
		switch {
		case o == "pass" || o == "skip":
			t.passed++
		case onlyExcepted(name, outcomes):
			t.excepted++
			if e, ok := smpsuite.Excepted(name); ok {
				t.exceptionsMet[e.Name]++
			}
		default:
			t.failed = append(t.failed, name)
		}
	}
	slices.Sort(t.failed)
	return t
}

// onlyExcepted reports whether test name is excepted itself, or fails only through excepted subtests.
func onlyExcepted(name string, outcomes map[string]smpsuite.Outcome) bool {
	if _, ok := smpsuite.Excepted(name); ok {
		return true
	}
	failing := 0
	for sub, o := range outcomes {
		if strings.HasPrefix(sub, name+"/") && o == "fail" {
			if _, ok := smpsuite.Excepted(sub); !ok && !hasFailingChild(sub, outcomes) {
				return false
			}
			failing++
		}
	}
	return failing > 0
}

func hasFailingChild(name string, outcomes map[string]smpsuite.Outcome) bool {
	for sub, o := range outcomes {
		if strings.HasPrefix(sub, name+"/") && o == "fail" {
			return true
		}
	}
	return false
}

var _ = Describe("apimachinery's strategicpatch tests, run against pkg/strategicpatch", Ordered, func() {
	var scratch *smpsuite.Scratch
	var results *smpsuite.Results

	BeforeAll(func() {
		root, err := filepath.Abs(filepath.Join("..", ".."))
		Expect(err).NotTo(HaveOccurred())
		scratch, err = smpsuite.Prepare(root, GinkgoT().TempDir())
		Expect(err).NotTo(HaveOccurred())
		ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
		defer cancel()
		results, err = scratch.Run(ctx)
		Expect(err).NotTo(HaveOccurred())
	})

	It("keeps nothing of patch.go but the API's types and the fixture normaliser, and removes only TestSortMergeLists", func() {
		Expect(scratch.Kept).To(Equal(smpsuite.Kept))
		Expect(scratch.Removed).To(HaveLen(1))
		Expect(scratch.Removed[0].Test).To(Equal("TestSortMergeLists"))
	})

	It("passes every test but the documented exceptions, each of which still fails", func() {
		top, subs := count(results.Outcomes, true), count(results.Outcomes, false)
		report := fmt.Sprintf("apimachinery %s, pkg/util/strategicpatch:\n"+
			"  test functions: %d run, %d passed, %d excepted, %d failed; left out: %d (%s)\n"+
			"  subtests:       %d run, %d passed, %d excepted, %d failed\n",
			scratch.Version, top.run, top.passed, top.excepted, len(top.failed), len(scratch.Removed), removed(scratch),
			subs.run, subs.passed, subs.excepted, len(subs.failed))
		distinct, distinctExcepted := distinctSubtests(results.Outcomes)
		report += fmt.Sprintf("  distinct subtests (repeats and schema field lists folded): %d, of which %d excepted\n", distinct, distinctExcepted)
		for _, e := range smpsuite.Exceptions {
			report += fmt.Sprintf("  excepted (%s, %d runs): %s\n", e.Class, subs.exceptionsMet[e.Name], e.Name)
		}
		AddReportEntry("apimachinery strategicpatch tests", report, ReportEntryVisibilityAlways)
		for _, name := range append(top.failed, subs.failed...) {
			AddReportEntry("failed: "+name, results.Output[name])
		}
		Expect(append(top.failed, subs.failed...)).To(BeEmpty(), "tests failing without a documented exception")
		for _, e := range smpsuite.Exceptions {
			Expect(subs.exceptionsMet).To(HaveKey(e.Name), "exception no longer failing: remove it (and from docs/strategicpatch.md)")
		}
		Expect(top.passed).To(BeNumerically(">=", 4), "TestCustomStrategicMergePatch, TestNumberConversion, TestReplaceWithRawExtension, TestUnknownField pass")
	})
})

// distinctSubtests counts the subtests by normalized name, and those of them excepted.
func distinctSubtests(outcomes map[string]smpsuite.Outcome) (all, excepted int) {
	seen := map[string]bool{}
	for name := range outcomes {
		if !strings.Contains(name, "/") {
			continue
		}
		n := smpsuite.Normalize(name)
		if !seen[n] {
			seen[n] = true
			if _, ok := smpsuite.Excepted(n); ok {
				excepted++
			}
		}
	}
	return len(seen), excepted
}

func removed(s *smpsuite.Scratch) string {
	var names []string
	for _, r := range s.Removed {
		names = append(names, r.Test+": "+r.Reason)
	}
	return strings.Join(names, "; ")
}
