package patchdiff_test

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
	"github.com/plyproject/ply/test/patchdiff"
)

// modeShare is the part of PLY_DIFF_N each mode gets, and targetShare the
// part of a mode's cases each target gets, in percent.
var (
	modeShare = map[patchdiff.Mode]int{
		patchdiff.ApplyThreeWay: 20, patchdiff.ApplyTwoWay: 15, patchdiff.ApplyDirectives: 25,
		patchdiff.GenThreeWay: 15, patchdiff.GenConflicts: 10, patchdiff.GenTwoWay: 15,
	}
	targetShare = map[string]int{"widget": 50, "deployment": 20, "pod": 20, "service": 10}
)

const (
	defaultN     = 24000
	defaultSeed  = 1
	keep, report = 100, 5
	shrinkBudget = 3000
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

// totalKey groups the summary: per mode, ply's gates and every gate off
// apart.
type totalKey struct {
	mode    patchdiff.Mode
	kubectl bool
}

var (
	totalsMu sync.Mutex
	totals   = map[totalKey]*patchdiff.Stats{}
	caseDir  string
)

var _ = AfterSuite(func() {
	totalsMu.Lock()
	defer totalsMu.Unlock()
	if len(totals) == 0 {
		return
	}
	var lines []string
	sum := 0
	for _, kubectl := range []bool{false, true} {
		for _, m := range patchdiff.Modes {
			if st, ok := totals[totalKey{m, kubectl}]; ok {
				lines = append(lines, st.String())
				sum += st.Runs
			}
		}
	}
	fmt.Fprintf(GinkgoWriter, "patch differential summary (%d cases):\n  %s\n", sum, strings.Join(lines, "\n  "))
	// Printed to stdout too, so that `go test` shows it without -v.
	fmt.Printf("patch differential summary (%d cases):\n  %s\n", sum, strings.Join(lines, "\n  "))
})

// runBatch runs the random cases of mode on the target with ID target (a
// spec's name, or "<name>/kubectl" for the same cases with every gate off).
func runBatch(mode patchdiff.Mode, target string) {
	name, _, _ := strings.Cut(target, "/")
	n := int(envInt("PLY_DIFF_N", defaultN)) * modeShare[mode] / 100 * targetShare[name] / 100
	seed := envInt("PLY_DIFF_SEED", defaultSeed)
	t, err := difftest.LoadTarget(target)
	Expect(err).NotTo(HaveOccurred())

	start := time.Now()
	stats, fails := patchdiff.RunMany(t, mode, seed, n, min(2, runtime.GOMAXPROCS(0)), keep)
	line := fmt.Sprintf("%s in %v (seed %d)", stats, time.Since(start).Round(time.Millisecond), seed)
	AddReportEntry("cases", line)
	fmt.Fprintln(GinkgoWriter, line)
	totalsMu.Lock()
	key := totalKey{mode, target != name}
	if totals[key] == nil {
		totals[key] = &patchdiff.Stats{Mode: mode}
		if key.kubectl {
			totals[key].Target = "(every gate off)"
		}
	}
	totals[key].Add(stats)
	totalsMu.Unlock()
	if len(fails) == 0 {
		return
	}

	if caseDir == "" {
		caseDir, err = os.MkdirTemp("", "ply-patchdiff-")
		Expect(err).NotTo(HaveOccurred())
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "%d of %d cases disagree with strategicpatch (%s).\n", stats.Failures(), stats.Runs, stats)
	picked := patchdiff.Pick(fails, report)
	fmt.Fprintf(&sb, "The %d smallest (distinct failure signatures first), shrunk; case files in %s:\n\n", len(picked), caseDir)
	for i, o := range picked {
		s := patchdiff.Shrink(t, o, shrinkBudget)
		name := fmt.Sprintf("%s-%s-%d.yaml", mode, strings.ReplaceAll(target, "/", "-"), i+1)
		path, werr := patchdiff.WriteCase(caseDir, name, s)
		if werr != nil {
			path = "(not written: " + werr.Error() + ")"
		}
		if s.Shrunk {
			patchdiff.WriteCase(caseDir, strings.TrimSuffix(name, ".yaml")+"-orig.yaml", o)
		}
		fmt.Fprintf(&sb, "[%d] %s\n", i+1, patchdiff.Report(s, path))
	}
	Fail(sb.String())
}

var _ = Describe("ply's strategic merge patches against strategicpatch", func() {
	for _, mode := range patchdiff.Modes {
		for _, spec := range difftest.Specs {
			It(fmt.Sprintf("%s: agree on random %s cases", mode, spec.Name), func() {
				runBatch(mode, spec.Name)
			})
		}
	}
})

// The same cases with every feature gate off (features.Kubectl()): ply
// must create and apply exactly what strategicpatch does, Kubernetes
// targets reading the embedded OpenAPI v3 documents on both sides (see
// difftest.Kubectl). No class excuses a gated difference.
var _ = Describe("ply's strategic merge patches with every feature gate off against strategicpatch", func() {
	for _, mode := range patchdiff.Modes {
		for _, spec := range difftest.Specs {
			target := spec.Name + "/" + difftest.Kubectl
			It(fmt.Sprintf("%s: agree on random %s cases", mode, spec.Name), func() {
				runBatch(mode, target)
			})
		}
	}
})
