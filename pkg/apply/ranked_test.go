package apply_test

import (
	"strconv"
	"sync/atomic"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/internal/probe"
	"github.com/plyproject/ply/pkg/apply"
	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/pkg/value"
)

// A merge whose list repeats a merge key or a set value (gate UniqueMergeKeys off: Ranked), or whose local value below a
// value live holds as another kind repeats a key, is decided there by kubectl's three-way patch entry applied to live's
// value, which Phase 1 collates beside the tree (elements.Patched): the result is kubectl's, in one collation, and the
// change list compares live with that outcome.
var _ = Describe("a merge kubectl's pipeline decides where a list repeats a key (testdata/ranked)", func() {
	collations := countCollations()
	DescribeTable("is kubectl's, in one collation, its changes read off the outcome",
		func(path string) {
			f := loadFixture(path)
			opts := rankedOptions(f)
			res, err := apply.Merge(f.get("recorded"), f.get("local"), f.get("live"), opts)
			Expect(err).NotTo(HaveOccurred())
			Expect(collations.Load()).To(BeEquivalentTo(1))
			expectKubectls(f, res, opts.Overwrite)
		},
		entries("ranked"),
	)

	DescribeTable("fails where kubectl fails, naming local and the path (testdata/ranked-errors)",
		func(path string) {
			f := loadFixture(path)
			opts := rankedOptions(f)
			_, err := apply.Merge(f.get("recorded"), f.get("local"), f.get("live"), opts)
			Expect(err).To(MatchError(f.str("error")))
			_, err = kubectlApply(f, opts.Overwrite)
			Expect(err).To(HaveOccurred(), "kubectl fails too")
		},
		entries("ranked-errors"),
	)

	DescribeTable("gives the paths of the changes below the Ranked list, materialised or read lazily",
		func(annotations int) {
			// 80 env entries whose values all change, the first repeated; annotations changed besides, more of them than
			// Merge materialises at once (64) keeping every path lazy.
			annotated := func(d value.Value, tag string) value.Value {
				fields := make([]value.Field, annotations)
				for i := range fields {
					fields[i] = value.Field{Key: "a" + strconv.Itoa(i), Value: value.String(tag)}
				}
				meta, _ := d.Get("metadata")
				return d.With("metadata", meta.With("annotations", value.MustMap(fields...)))
			}
			recorded, live := annotated(deployment(80, "a", false), "a"), annotated(deployment(80, "a", true), "a")
			local := annotated(repeatFirstEnv(deployment(80, "b", false)), "b")
			opts := apply.DefaultOptions()
			opts.Gates = features.Kubectl()
			res, err := apply.Merge(recorded, local, live, opts)
			Expect(err).NotTo(HaveOccurred())
			Expect(collations.Load()).To(BeEquivalentTo(1))
			want := []string{"replace spec.template.spec.containers[name=app].image (local)"}
			for i := range 80 {
				want = append(want, "replace spec.template.spec.containers[name=app].env[name=ENV_"+strconv.Itoa(i)+"].value (local)")
			}
			for i := range annotations {
				want = append(want, "replace metadata.annotations.a"+strconv.Itoa(i)+" (local)")
			}
			Expect(changeLines(res.Changes)).To(ConsistOf(want))
		},
		Entry("materialised: few changes at nodes", 0),
		Entry("lazily: many changes at nodes", 70),
	)
})

// countCollations returns the number of collations of the running spec, counted from each spec of the container
// it is called in.
func countCollations() *atomic.Int64 {
	var n atomic.Int64
	BeforeEach(func() {
		n.Store(0)
		DeferCleanup(probe.OnCollation(func() { n.Add(1) }))
	})
	return &n
}

// expectKubectls checks the Result res of fixture f's merge: its object is the fixture's want, its changes the
// fixture's changes (lines: changeLines), and want is what kubectl apply leaves (with overwrite).
func expectKubectls(f fixture, res apply.Result, overwrite bool) {
	GinkgoHelper()
	Expect(res.Object).To(equalValue(f.get("want")))
	want := []string{}
	for _, c := range f.get("changes").Items() {
		s, _ := c.AsString()
		want = append(want, s)
	}
	Expect(changeLines(res.Changes)).To(Equal(want))
	kubectl, err := kubectlApply(f, overwrite)
	Expect(err).NotTo(HaveOccurred())
	Expect(f.get("want")).To(equalValue(kubectl), "the fixture's want is kubectl's")
}

// rankedOptions are the options of a testdata/ranked fixture's merge: every gate off, Overwrite unless the fixture's
// overwrite is false, its maxDepth if it gives one.
func rankedOptions(f fixture) apply.Options {
	opts := apply.DefaultOptions()
	opts.Gates = features.Kubectl()
	if b, ok := f.get("overwrite").AsBool(); ok {
		opts.Overwrite = b
	}
	if d, ok := f.get("maxDepth").AsInt(); ok {
		opts.MaxDepth = int(d)
	}
	return opts
}
