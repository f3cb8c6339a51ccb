package property

import (
	"strconv"
	"strings"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/pkg/apply"
	"github.com/plyproject/ply/pkg/patch"
	"github.com/plyproject/ply/pkg/patchgen"
	"github.com/plyproject/ply/pkg/value"
	"github.com/plyproject/ply/test/internal/gen"
)

// casesPerTarget is how many triples each property checks per target:
// with seven targets, 4,200 per property (about 15 s for the package
// under the race detector on two cores).
const casesPerTarget = 600

// maxErrorShare bounds the share of generated triples Merge may reject
// (bad input the generator produces on purpose is rare); properties that
// need a merged result skip those.
const maxErrorShare = 0.02

// forEachCase runs check on casesPerTarget triples of every target, and
// fails listing every case check reports a problem for (at most ten).
func forEachCase(base uint64, check func(t *target, tr gen.Triple) []string) {
	GinkgoHelper()
	var failures []string
	total := 0
	for _, spec := range targetSpecs {
		t, err := load(spec)
		Expect(err).NotTo(HaveOccurred())
		for i := range casesPerTarget {
			s := seed(base, spec.name, i)
			tr := t.gen.Triple(s)
			total++
			if probs := check(t, tr); len(probs) > 0 && len(failures) < 10 {
				failures = append(failures, spec.name+" seed "+strconv.FormatUint(s, 10)+":\n  "+
					strings.Join(probs, "\n  ")+"\n"+triple(tr))
			}
		}
	}
	if len(failures) > 0 {
		Fail("of " + strconv.Itoa(total) + " cases checked, these fail (the first ten):\n" + strings.Join(failures, "\n\n"))
	}
}

// deterministic merges tr twice with each ordering, with Overwrite true and
// false, and reports every difference between the two runs.
func deterministic(t *target, tr gen.Triple) []string {
	var probs []string
	for _, ord := range []apply.Ordering{apply.OrderingSeed, apply.OrderingKubectl} {
		for _, overwrite := range []bool{true, false} {
			opts := t.options(ord)
			opts.Overwrite = overwrite
			first := outcome(apply.Merge(tr.Recorded, tr.Local, tr.Live, opts))
			if again := outcome(apply.Merge(tr.Recorded, tr.Local, tr.Live, opts)); again != first {
				probs = append(probs, "ordering "+strconv.Itoa(int(ord))+", overwrite "+strconv.FormatBool(overwrite)+
					": second run differs:\n"+first+"\n---\n"+again)
			}
		}
	}
	return probs
}

// idempotent merges tr, then merges the result again with local as both
// recorded and local, and reports how the second merge differs from
// nothing to do; rejected is set when Merge rejects tr itself.
func idempotent(t *target, tr gen.Triple, ord apply.Ordering) (probs []string, rejected bool) {
	opts := t.options(ord)
	first, err := apply.Merge(tr.Recorded, tr.Local, tr.Live, opts)
	if err != nil {
		return nil, true
	}
	second, err := apply.Merge(tr.Local, tr.Local, first.Object, opts)
	switch {
	case err != nil:
		return []string{"second apply fails: " + err.Error()}, false
	case !value.Equal(second.Object, first.Object):
		return []string{"second apply changes the object:\n  first:  " + string(first.Object.JSON()) +
			"\n  second: " + string(second.Object.JSON())}, false
	case len(second.Changes) > 0:
		return []string{"second apply reports changes:\n" + outcome(second, nil)}, false
	}
	return nil, false
}

// samePatched merges tr with the kubectl ordering, and also computes
// kubectl's path to the same object: the three-way patch
// (patchgen.ThreeWay, overwriting) applied to live (patch.Apply,
// OrderKubectl). It reports how the two objects differ; rejected is set
// when Merge rejects tr.
func samePatched(t *target, tr gen.Triple) (probs []string, rejected bool) {
	merged, err := apply.Merge(tr.Recorded, tr.Local, tr.Live, t.options(apply.OrderingKubectl))
	if err != nil {
		return nil, true
	}
	p, err := patchgen.ThreeWay(tr.Recorded, tr.Local, tr.Live, patchgen.Options{Schema: t.schema, TypeName: t.typeName, Overwrite: true})
	if err != nil {
		return []string{"ThreeWay fails where Merge does not: " + err.Error()}, false
	}
	patched, err := patch.Apply(tr.Live, p, patch.Options{Schema: t.schema, TypeName: t.typeName, Ordering: patch.OrderKubectl})
	switch {
	case err != nil:
		return []string{"the three-way patch does not apply: " + err.Error() + "\n  patch: " + string(p.JSON())}, false
	case !value.Equal(patched, merged.Object):
		return []string{"patching differs from merging:\n  patch:   " + string(p.JSON()) +
			"\n  merged:  " + string(merged.Object.JSON()) + "\n  patched: " + string(patched.JSON())}, false
	}
	return nil, false
}

// inScope merges tr and walks the result with the scope check; rejected
// is set (and the scope empty) when Merge rejects tr.
func inScope(t *target, tr gen.Triple, ord apply.Ordering) (s scope, rejected bool) {
	res, err := apply.Merge(tr.Recorded, tr.Local, tr.Live, t.options(ord))
	if err != nil {
		return s, true
	}
	s.walk(t.root, rootMeta, rootAt(tr, res.Object), "")
	return s, false
}

var _ = Describe("merge properties", func() {
	// This spec comes first in its container (Ginkgo keeps the order of
	// specs in one container) and no other container resolves a
	// Kubernetes kind, so the v3 schema's documents (apps/v1, v1) are
	// parsed lazily while the goroutines merge.
	It("shares one schema between 16 goroutines merging different objects at once", func() {
		const workers, perWorker = 16, 40
		var wg sync.WaitGroup
		results := make([][]string, workers)
		errs := make([]error, workers)
		start := make(chan struct{})
		for w := range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer GinkgoRecover()
				<-start
				// Each worker loads its target itself: the lazily
				// parsed v3 documents are read concurrently.
				spec := targetSpecs[w%len(targetSpecs)]
				t, err := load(spec)
				if err != nil {
					errs[w] = err
					return
				}
				for i := range perWorker {
					tr := t.gen.Triple(seed(1, spec.name, w*perWorker+i))
					results[w] = append(results[w], outcome(apply.Merge(tr.Recorded, tr.Local, tr.Live, t.options(apply.OrderingSeed))))
				}
			}()
		}
		close(start)
		wg.Wait()
		for w := range workers {
			Expect(errs[w]).NotTo(HaveOccurred())
			spec := targetSpecs[w%len(targetSpecs)]
			t, err := load(spec)
			Expect(err).NotTo(HaveOccurred())
			Expect(results[w]).To(HaveLen(perWorker))
			for i := range perWorker {
				tr := t.gen.Triple(seed(1, spec.name, w*perWorker+i))
				want := outcome(apply.Merge(tr.Recorded, tr.Local, tr.Live, t.options(apply.OrderingSeed)))
				Expect(results[w][i]).To(Equal(want), "worker %d case %d of %s:\n%s", w, i, spec.name, triple(tr))
			}
		}
	})

	It("is deterministic: the same triple merges to the same object, changes and warnings, also in parallel", func() {
		forEachCase(2, deterministic)
		// In parallel: four goroutines merge the same triples at once.
		for _, spec := range targetSpecs {
			t, err := load(spec)
			Expect(err).NotTo(HaveOccurred())
			const n = 50
			want := make([]string, n)
			for i := range n {
				tr := t.gen.Triple(seed(3, spec.name, i))
				want[i] = outcome(apply.Merge(tr.Recorded, tr.Local, tr.Live, t.options(apply.OrderingSeed)))
			}
			got := make([][]string, 4)
			var wg sync.WaitGroup
			for g := range got {
				wg.Go(func() {
					for i := range n {
						tr := t.gen.Triple(seed(3, spec.name, i))
						got[g] = append(got[g], outcome(apply.Merge(tr.Recorded, tr.Local, tr.Live, t.options(apply.OrderingSeed))))
					}
				})
			}
			wg.Wait()
			for g := range got {
				Expect(got[g]).To(Equal(want), "goroutine %d on %s", g, spec.name)
			}
		}
	})

	DescribeTable("is idempotent: applying the same local again changes nothing",
		func(ord apply.Ordering) {
			errorsSeen, total := 0, 0
			forEachCase(4+uint64(ord), func(t *target, tr gen.Triple) []string {
				total++
				probs, rejected := idempotent(t, tr, ord)
				if rejected {
					errorsSeen++
				}
				return probs
			})
			Expect(float64(errorsSeen)).To(BeNumerically("<=", maxErrorShare*float64(total)), "Merge rejected %d of %d triples", errorsSeen, total)
			AddReportEntry("triples Merge rejected", strconv.Itoa(errorsSeen)+" of "+strconv.Itoa(total))
		},
		Entry("seed ordering", apply.OrderingSeed),
		Entry("kubectl ordering", apply.OrderingKubectl),
	)

	It("gives what kubectl's path gives: the three-way patch applied to live", func() {
		errorsSeen, total := 0, 0
		forEachCase(8, func(t *target, tr gen.Triple) []string {
			total++
			probs, rejected := samePatched(t, tr)
			if rejected {
				errorsSeen++
			}
			return probs
		})
		Expect(float64(errorsSeen)).To(BeNumerically("<=", maxErrorShare*float64(total)), "Merge rejected %d of %d triples", errorsSeen, total)
	})

	It("never touches a field or item that neither recorded nor local holds", func() {
		untouched := 0
		forEachCase(6, func(t *target, tr gen.Triple) []string {
			s, _ := inScope(t, withLiveOnly(tr), apply.OrderingSeed)
			untouched += s.untouched
			return s.lost
		})
		// The property must have had something to check.
		Expect(untouched).To(BeNumerically(">", 2*7*casesPerTarget))
		AddReportEntry("untouched values checked", untouched)
	})

	It("drops nothing outside the schema-declared merge scope", func() {
		merged, untouched, multiKey := 0, 0, 0
		forEachCase(7, func(t *target, tr gen.Triple) []string {
			s, _ := inScope(t, withLiveOnly(tr), apply.OrderingKubectl)
			merged += s.merged
			untouched += s.untouched
			multiKey += s.multiKeyItems
			return append(s.dropped, s.lost...)
		})
		Expect(merged).To(BeNumerically(">", 7*casesPerTarget))
		Expect(untouched).To(BeNumerically(">", 7*casesPerTarget))
		// The v3 targets' lists with multi-field keys (containerPort,
		// protocol and the like) were among them.
		Expect(multiKey).To(BeNumerically(">", casesPerTarget/10))
		AddReportEntry("merged maps and lists checked", merged)
		AddReportEntry("items of multi-field-key lists checked", multiKey)
	})
})
