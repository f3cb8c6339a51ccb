package patchgen_test

import (
	"errors"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/internal/delta"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/patchgen"
	"github.com/plyproject/ply/pkg/value"
)

// generate runs the fixture's mode through the public API.
func (f fixture) generate() (value.Value, error) {
	opts := patchgen.Options{Schema: f.schema(), Overwrite: f.flag("overwrite", true)}
	if f.str("mode") == "twoway" {
		return patchgen.TwoWay(f.input("original"), f.input("modified"), opts)
	}
	return patchgen.ThreeWay(f.input("original"), f.input("modified"), f.input("current"), opts)
}

var _ = Describe("TwoWay", func() {
	DescribeTable("fixtures: the patch kubectl's two-way diff sends",
		func(path string) {
			f := loadFixture(path)
			Expect(f.str("mode")).To(Equal("twoway"), path)
			got, err := f.generate()
			Expect(err).NotTo(HaveOccurred())
			want, ok := f.get("want")
			Expect(ok).To(BeTrue(), "fixture has no want")
			Expect(got).To(equalJSON(want))
			if design, ok := f.get("design"); ok {
				Expect(canonical(got)).To(equalJSON(canonical(design)))
			}
			if f.flag("oracle", true) {
				name := rootOf(f.schema(), f.input("modified")).Name
				Expect(got).To(equalJSON(kubectlTwoWay(f.patchMeta(name), f.input("original"), f.input("modified"))), "strategicpatch's patch")
			}
		},
		entries("twoway"),
	)
})

var _ = Describe("ThreeWay", func() {
	DescribeTable("fixtures: the patch kubectl apply sends, or its conflicts",
		func(path string) {
			f := loadFixture(path)
			Expect(f.str("mode")).To(Equal("threeway"), path)
			got, err := f.generate()
			overwrite := f.flag("overwrite", true)
			if wantC, ok := f.get("wantConflicts"); ok {
				var ce *delta.ConflictError
				Expect(errors.As(err, &ce)).To(BeTrue(), "want a conflict, got %v", err)
				var paths []string
				for _, c := range ce.Conflicts {
					paths = append(paths, c.Path.String())
				}
				var want []string
				for _, p := range wantC.Items() {
					s, _ := p.AsString()
					want = append(want, s)
				}
				Expect(paths).To(Equal(want))
				if f.flag("oracle", true) {
					name := rootOf(f.schema(), f.input("modified")).Name
					_, conflict := kubectlThreeWay(f.patchMeta(name), f.input("original"), f.input("modified"), f.input("current"), false)
					Expect(conflict).To(BeTrue(), "strategicpatch reports a conflict too")
				}
				return
			}
			Expect(err).NotTo(HaveOccurred())
			want, ok := f.get("want")
			Expect(ok).To(BeTrue(), "fixture has no want")
			Expect(got).To(equalJSON(want))
			if design, ok := f.get("design"); ok {
				Expect(canonical(got)).To(equalJSON(canonical(design)))
			}
			if f.flag("oracle", true) {
				name := rootOf(f.schema(), f.input("modified")).Name
				kp, conflict := kubectlThreeWay(f.patchMeta(name), f.input("original"), f.input("modified"), f.input("current"), overwrite)
				Expect(conflict).To(BeFalse(), "strategicpatch reports no conflict either")
				Expect(got).To(equalJSON(kp), "strategicpatch's patch")
			}
		},
		entries("threeway"),
	)
})

var _ = Describe("bad input", func() {
	DescribeTable("is an *elements.Error naming the source and the path",
		func(path string) {
			f := loadFixture(path)
			_, err := f.generate()
			want, _ := f.get("wantError")
			expectElementsError(err, want)
		},
		entries("bad"),
	)
})

// expectElementsError checks that err is an *elements.Error of want's source and path (as strings) whose message
// contains want's contains.
func expectElementsError(err error, want value.Value) {
	GinkgoHelper()
	Expect(err).To(HaveOccurred())
	var ee *elements.Error
	Expect(errors.As(err, &ee)).To(BeTrue(), "got %T %v", err, err)
	src, _ := want.Get("source")
	p, _ := want.Get("path")
	contains, _ := want.Get("contains")
	s, _ := src.AsString()
	ps, _ := p.AsString()
	cs, _ := contains.AsString()
	Expect(ee.Source.String()).To(Equal(s))
	Expect(ee.Path.String()).To(Equal(ps))
	Expect(ee.Error()).To(ContainSubstring(cs))
}
