package patchdiff_test

import (
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/test/internal/difftest"
	"github.com/plyproject/ply/test/patchdiff"
)

// testdata/cases holds reduced cases that random runs found, or that are
// easy to get wrong; each must get the class its "expect" field names
// (agree unless it says otherwise).
var _ = Describe("the patch regression corpus", func() {
	files, entries := corpusFiles("cases")
	It("has a regression case for every known-difference class", func() {
		expected := map[patchdiff.Class]bool{}
		for _, f := range files {
			c, err := patchdiff.ReadCase(f)
			Expect(err).NotTo(HaveOccurred())
			if c.HasExpect {
				expected[c.Expect] = true
			}
		}
		for c := patchdiff.DuplicateItems; c < patchdiff.ObjectMismatch; c++ {
			Expect(c.Failed()).To(BeFalse())
			Expect(expected[c]).To(BeTrue(), "no case in testdata/cases expects %s", c)
		}
	})
	DescribeTable("case",
		func(path string) {
			c, err := patchdiff.ReadCase(path)
			Expect(err).NotTo(HaveOccurred())
			t, err := difftest.LoadTarget(c.Target)
			Expect(err).NotTo(HaveOccurred())
			o := patchdiff.Run(t, c)
			want := patchdiff.Agree
			if c.HasExpect {
				want = c.Expect
			}
			Expect(o.Class).To(Equal(want), "%s", patchdiff.Report(o, path))
		},
		entries,
	)
})

// corpusFiles lists the YAML files of testdata/dir, with a table entry for each named after its file, and adds a spec
// that fails unless there are some (call it in a container).
func corpusFiles(dir string) ([]string, []TableEntry) {
	files, err := filepath.Glob(filepath.Join("testdata", dir, "*.yaml"))
	It("is present", func() {
		Expect(err).NotTo(HaveOccurred())
		Expect(files).NotTo(BeEmpty())
	})
	entries := make([]TableEntry, len(files))
	for i, f := range files {
		entries[i] = Entry(filepath.Base(f), f)
	}
	return files, entries
}
