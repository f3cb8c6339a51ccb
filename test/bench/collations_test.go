package bench_test

import (
	"sync/atomic"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/internal/probe"
	"github.com/plyproject/ply/pkg/apply"
	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/pkg/patch"
	"github.com/plyproject/ply/pkg/patchgen"
	"github.com/plyproject/ply/pkg/value"
	"github.com/plyproject/ply/test/internal/benchcase"
	"github.com/plyproject/ply/test/jsonv"
)

// Phase 1 builds one tree per operation and Phase 2 only reads it: each front-end collates the benchmark's 10-entry
// Deployment exactly once, the conflict check (Overwrite false) and patch generation included.
var _ = Describe("collations per operation", func() {
	var recorded, local, live value.Value
	var collations atomic.Int64
	BeforeEach(func() {
		in := benchcase.Make(10, "one")
		var err error
		for _, doc := range []struct {
			to   *value.Value
			data []byte
		}{{&recorded, in.Recorded}, {&local, in.Local}, {&live, in.Live}} {
			*doc.to, err = jsonv.Decode(doc.data)
			Expect(err).NotTo(HaveOccurred())
		}
		collations.Store(0)
		DeferCleanup(probe.OnCollation(func() { collations.Add(1) }))
	})

	DescribeTable("apply.Merge",
		func(overwrite bool, ordering apply.Ordering) {
			opts := apply.DefaultOptions()
			opts.Overwrite, opts.Ordering = overwrite, ordering
			res, err := apply.Merge(recorded, local, live, opts)
			Expect(err).NotTo(HaveOccurred())
			Expect(res.Changes).NotTo(BeEmpty(), "the input changes the image")
			Expect(collations.Load()).To(BeEquivalentTo(1))
		},
		Entry("Overwrite false", false, apply.OrderingSeed),
		Entry("Overwrite false, kubectl's order", false, apply.OrderingKubectl),
		Entry("Overwrite true", true, apply.OrderingSeed),
		Entry("Overwrite true, kubectl's order", true, apply.OrderingKubectl),
	)

	DescribeTable("patchgen",
		func(make func() (value.Value, error)) {
			p, err := make()
			Expect(err).NotTo(HaveOccurred())
			Expect(p.Len()).To(BeNumerically(">", 0), "the input changes the image")
			Expect(collations.Load()).To(BeEquivalentTo(1))
		},
		Entry("ThreeWay, Overwrite false", func() (value.Value, error) {
			return patchgen.ThreeWay(recorded, local, live, patchgen.Options{})
		}),
		Entry("ThreeWay, Overwrite true", func() (value.Value, error) {
			return patchgen.ThreeWay(recorded, local, live, patchgen.Options{Overwrite: true})
		}),
		Entry("TwoWay", func() (value.Value, error) { return patchgen.TwoWay(recorded, local, patchgen.Options{}) }),
	)

	// docs/extending.md: the one path that collates more than once, kubectl's pipeline for a list repeating a merge key.
	It("a merge through kubectl's patch (gate UniqueMergeKeys off, a repeated key) collates per step of that pipeline", func() {
		doc := func(values ...string) value.Value {
			items := ""
			for i, v := range values {
				if i > 0 {
					items += ","
				}
				items += `{"name":"A","value":"` + v + `"}`
			}
			v, err := jsonv.Decode([]byte(`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":` +
				`{"template":{"spec":{"containers":[{"name":"web","env":[` + items + `]}]}}}}`))
			Expect(err).NotTo(HaveOccurred())
			return v
		}
		opts := apply.DefaultOptions()
		opts.Gates = features.Kubectl()
		_, err := apply.Merge(doc("1"), doc("2", "3"), doc("1"), opts)
		Expect(err).NotTo(HaveOccurred())
		// The tree; the patch applied to live, and its repeated item applied again in turn; the change list.
		Expect(collations.Load()).To(BeEquivalentTo(4))
	})

	It("a merge through kubectl's patch whose deletions have entries merges its two halves without collating", func() {
		doc := func(env string) value.Value {
			v, err := jsonv.Decode([]byte(`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":` +
				`{"template":{"spec":{"containers":[{"name":"web","env":` + env + `}]}}}}`))
			Expect(err).NotTo(HaveOccurred())
			return v
		}
		opts := apply.DefaultOptions()
		opts.Gates = features.Kubectl()
		recorded := doc(`[{"name":"A","value":"1"},{"name":"B","value":"x"}]`)
		res, err := apply.Merge(recorded, doc(`[{"name":"A","value":"2"},{"name":"A","value":"3"}]`), recorded, opts)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(res.Object.JSON())).To(Equal(string(doc(`[{"name":"A","value":"2"}]`).JSON())), "kubectl's result")
		// The tree (the patch's halves, B's deletion among them, are values of it, merged as values); the patch applied
		// to live; the change list.
		Expect(collations.Load()).To(BeEquivalentTo(3))
	})

	It("a merge through kubectl's patch for a set repeating a value (gate UniqueMergeKeys off) collates per step of that pipeline", func() {
		doc := func(finalizers string) value.Value {
			v, err := jsonv.Decode([]byte(`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","finalizers":` + finalizers + `}}`))
			Expect(err).NotTo(HaveOccurred())
			return v
		}
		opts := apply.DefaultOptions()
		opts.Gates = features.Kubectl()
		res, err := apply.Merge(doc(`["a"]`), doc(`["a","b","a"]`), doc(`["a","c"]`), opts)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(res.Object.JSON())).To(Equal(string(doc(`["a","b","c"]`).JSON())), "kubectl's result")
		// The tree; the patch applied to live; the change list.
		Expect(collations.Load()).To(BeEquivalentTo(3))
	})

	It("patch.Apply of kubectl's patch collates once", func() {
		p, err := patchgen.ThreeWay(recorded, local, live, patchgen.Options{Overwrite: true})
		Expect(err).NotTo(HaveOccurred())
		collations.Store(0)
		_, err = patch.Apply(live, p, patch.Options{})
		Expect(err).NotTo(HaveOccurred())
		Expect(collations.Load()).To(BeEquivalentTo(1))
	})
})
