package apply_test

import (
	"errors"
	"os"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/apply"
	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/pkg/parse"
	"github.com/plyproject/ply/pkg/value"
	"github.com/plyproject/ply/test/oracle"
)

// gateOf returns the gate a testdata/gates fixture is about.
func (f fixture) gateOf() features.Gate {
	name := f.str("gate")
	for _, g := range features.All() {
		if g.String() == name {
			return g
		}
	}
	Fail(f.file + ": gate " + name + " is not a feature gate")
	return 0
}

// mergeGated merges the fixture's inputs with the default (v3) schema and
// gates, expecting no error.
func mergeGated(f fixture, gates features.Gates) value.Value {
	GinkgoHelper()
	opts := apply.DefaultOptions()
	opts.Gates = gates
	res, err := apply.Merge(f.get("recorded"), f.get("local"), f.get("live"), opts)
	Expect(err).NotTo(HaveOccurred())
	return res.Object
}

// kubectlMerge is what kubectl apply leaves on a server publishing the
// embedded OpenAPI v3 documents: strategicpatch's three-way patch applied
// to live, with the merge metadata kubectl reads from the v3 documents.
func kubectlMerge(f fixture) value.Value {
	GinkgoHelper()
	v, err := kubectlApply(f, true)
	Expect(err).NotTo(HaveOccurred())
	return v
}

// kubectlApply is kubectlMerge with kubectl's --overwrite given: its error when
// strategicpatch refuses to make or apply the patch, or reports a conflict.
func kubectlApply(f fixture, overwrite bool) (value.Value, error) {
	GinkgoHelper()
	s, err := openapi.Default()
	Expect(err).NotTo(HaveOccurred())
	av, _ := f.get("local").Get("apiVersion")
	k, _ := f.get("local").Get("kind")
	apiVersion, _ := av.AsString()
	kind, _ := k.AsString()
	t, ok := s.ForKind(apiVersion, kind)
	Expect(ok).To(BeTrue())
	o, err := oracle.DefaultV3For(t.Name)
	Expect(err).NotTo(HaveOccurred())
	var recorded []byte
	if r := f.get("recorded"); !r.IsNull() {
		recorded = r.JSON()
	}
	res, err := o.Apply(recorded, f.get("local").JSON(), f.get("live").JSON(), overwrite)
	if err != nil {
		return value.Value{}, err
	}
	if res.Conflict {
		return value.Value{}, errors.New("kubectl: conflict")
	}
	v, err := parse.Document(res.Object)
	Expect(err).NotTo(HaveOccurred())
	return v, nil
}

var _ = Describe("feature gates", func() {
	DescribeTable("on: ply's documented result; off: strategicpatch's with the v3 default schema",
		func(path string) {
			f := loadFixture(path)
			gate := f.gateOf()
			on := mergeGated(f, features.Gates{})
			Expect(on).To(equalValue(f.get("want")), "gate on")
			off := mergeGated(f, features.Gates{}.With(gate, false))
			Expect(off).To(equalValue(f.get("wantOff")), "gate off")
			Expect(value.Equal(on, off)).To(BeFalse(), "the gate decides this case")

			kubectl := kubectlMerge(f)
			Expect(off).To(equalValue(kubectl), "gate off against strategicpatch")
			Expect(mergeGated(f, features.Kubectl())).To(equalValue(kubectl), "every gate off against strategicpatch")
		},
		entries("gates"),
	)

	DescribeTable("SeedOrdering off orders as OrderingKubectl does, whatever Ordering says",
		func(path string) {
			f := loadFixture(path)
			want := f.get("wantKubectl")
			if want.IsNull() {
				want = f.get("want")
			}
			for _, ordering := range []apply.Ordering{apply.OrderingSeed, apply.OrderingKubectl} {
				opts := apply.DefaultOptions()
				opts.Schema = f.schema()
				opts.Ordering = ordering
				opts.Gates = features.Gates{}.With(features.SeedOrdering, false)
				res, err := apply.Merge(f.get("recorded"), f.get("local"), f.get("live"), opts)
				Expect(err).NotTo(HaveOccurred())
				Expect(res.Object).To(equalValue(want))
			}
		},
		entries("seeds"),
	)

	It("MultiFieldMergeKeys off reads a comma-separated merge key as one field, which items lack", func() {
		// The seeds schema keys the list by "foo,bar"; strategicpatch
		// looks that up as one field name and fails, and so does ply.
		f := loadFixture("testdata/seeds/multi-field-key-merge.yaml")
		opts := apply.DefaultOptions()
		opts.Schema = f.schema()
		_, err := apply.Merge(f.get("recorded"), f.get("local"), f.get("live"), opts)
		Expect(err).NotTo(HaveOccurred())
		opts.Gates = features.Gates{}.With(features.MultiFieldMergeKeys, false)
		_, err = apply.Merge(f.get("recorded"), f.get("local"), f.get("live"), opts)
		Expect(err).To(MatchError(ContainSubstring(`no merge key field "foo,bar"`)))

		data, err := os.ReadFile(filepath.Join("testdata", "seeds-swagger.json"))
		Expect(err).NotTo(HaveOccurred())
		models, err := oracle.Load(data)
		Expect(err).NotTo(HaveOccurred())
		t, ok := f.schema().ForKind("seeds.ply.dev/v1", "Example")
		Expect(ok).To(BeTrue())
		o, err := models.Oracle(t.Name)
		Expect(err).NotTo(HaveOccurred())
		_, err = o.Apply(nil, f.get("local").JSON(), f.get("live").JSON(), true)
		Expect(err).To(MatchError(ContainSubstring("foo,bar")), "strategicpatch fails too")
	})
})
