package differential_test

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/test/internal/difftest"
)

// share is the part of PLY_DIFF_N each target gets, in percent.
var share = map[string]int{"widget": 50, "deployment": 20, "pod": 20, "service": 10}

const (
	defaultN    = 20000
	defaultSeed = 1
	// keep is how many of the smallest failures a batch remembers; report
	// how many it shrinks and prints.
	keep, report = 200, 5
	shrinkBudget = 4000
)

func envInt(name string, def uint64) uint64 {
	s := os.Getenv(name)
	if s == "" {
		return def
	}
	n, err := strconv.ParseUint(s, 0, 64)
	Expect(err).NotTo(HaveOccurred(), "%s=%q is not a number", name, s)
	return n
}

var (
	summaryMu sync.Mutex
	summary   []string
	failDir   string
	failDirMu sync.Mutex
)

// caseDir returns the temporary directory failing cases are written to,
// creating it on first use.
func caseDir() string {
	failDirMu.Lock()
	defer failDirMu.Unlock()
	if failDir == "" {
		d, err := os.MkdirTemp("", "ply-diff-")
		Expect(err).NotTo(HaveOccurred())
		failDir = d
	}
	return failDir
}

var _ = AfterSuite(func() {
	summaryMu.Lock()
	defer summaryMu.Unlock()
	if len(summary) > 0 {
		fmt.Fprintf(GinkgoWriter, "differential summary:\n  %s\n", strings.Join(summary, "\n  "))
	}
})

// runBatch runs the random cases of the target with ID target (a spec's
// name, or "<name>/kubectl" for the same cases with every gate off).
func runBatch(target string, overwrite bool) {
	n := int(envInt("PLY_DIFF_N", defaultN))
	if !overwrite {
		n /= 5
	}
	name, _, _ := strings.Cut(target, "/")
	n = n * share[name] / 100
	seed := envInt("PLY_DIFF_SEED", defaultSeed)

	t, err := difftest.LoadTarget(target)
	Expect(err).NotTo(HaveOccurred())
	difftest.RawOracle = os.Getenv("PLY_DIFF_RAW") == "1"

	start := time.Now()
	stats, fails := t.RunMany(seed, n, overwrite, min(2, runtime.GOMAXPROCS(0)), keep)
	line := fmt.Sprintf("%s in %v (seed %d)", stats, time.Since(start).Round(time.Millisecond), seed)
	AddReportEntry("cases", line)
	fmt.Fprintln(GinkgoWriter, line)
	summaryMu.Lock()
	summary = append(summary, line)
	summaryMu.Unlock()

	if len(fails) == 0 {
		return
	}
	dir := caseDir()
	var sb strings.Builder
	fmt.Fprintf(&sb, "%d of %d cases disagree with strategicpatch (%s).\n", stats.Failures(), stats.Runs, stats)
	picked := difftest.Pick(fails, report)
	fmt.Fprintf(&sb, "The %d smallest (distinct failure signatures first), shrunk; case files in %s:\n\n", len(picked), dir)
	for i, o := range picked {
		s := t.Shrink(o, shrinkBudget)
		name := fmt.Sprintf("%s-%s-%d.yaml", strings.ReplaceAll(target, "/", "-"), map[bool]string{true: "overwrite", false: "no-overwrite"}[overwrite], i+1)
		path, werr := difftest.WriteCase(dir, name, s)
		if werr != nil {
			path = "(not written: " + werr.Error() + ")"
		}
		// Keep the unshrunk original too: its seed replays it exactly.
		if s.Shrunk {
			difftest.WriteCase(dir, strings.TrimSuffix(name, ".yaml")+"-orig.yaml", o)
		}
		fmt.Fprintf(&sb, "[%d] %s\n", i+1, difftest.Report(s, path))
	}
	Fail(sb.String())
}

var _ = Describe("ply apply.Merge against strategicpatch", func() {
	for _, spec := range difftest.Specs {
		It(fmt.Sprintf("agrees on random %s triples with overwrite", spec.Name), func() {
			runBatch(spec.Name, true)
		})
		It(fmt.Sprintf("agrees on random %s triples without overwrite (conflicts)", spec.Name), func() {
			runBatch(spec.Name, false)
		})
	}
})

// The same cases (same generator, same seeds) with every feature gate off:
// ply must compute exactly what strategicpatch computes, with no exception
// for the gated differences. Kubernetes targets read the embedded OpenAPI
// v3 documents on both sides, as ply and kubectl do against a server: ply
// through the schema's kubectl view (MultiFieldMergeKeys off), list order
// by the SeedOrdering gate alone (Options.Ordering left at seed).
var _ = Describe("ply apply.Merge with every feature gate off (features.Kubectl()) against strategicpatch", func() {
	for _, spec := range difftest.Specs {
		target := spec.Name + "/" + difftest.Kubectl
		It(fmt.Sprintf("agrees on random %s triples with overwrite", spec.Name), func() {
			runBatch(target, true)
		})
		It(fmt.Sprintf("agrees on random %s triples without overwrite (conflicts)", spec.Name), func() {
			runBatch(target, false)
		})
	}
})
