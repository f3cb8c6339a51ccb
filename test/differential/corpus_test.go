package differential_test

import (
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/test/internal/difftest"
)

// The corpus under test/testdata/cases holds hand-reduced cases of kubectl
// behaviour that random runs once found ply getting wrong, or that are easy
// to get wrong; each must agree with strategicpatch (and get the class its
// "expect" field names). Add a failing run's case file here, with an
// expect line, to keep it as a regression test.
var _ = Describe("the regression corpus", func() {
	files, err := filepath.Glob(filepath.Join(difftest.RepoRoot(), "test", "testdata", "cases", "*.yaml"))
	It("is present", func() {
		Expect(err).NotTo(HaveOccurred())
		Expect(files).NotTo(BeEmpty())
	})
	entries := []TableEntry{}
	for _, f := range files {
		entries = append(entries, Entry(filepath.Base(f), f))
	}
	DescribeTable("case",
		func(path string) {
			c, err := difftest.ReadCase(path)
			Expect(err).NotTo(HaveOccurred())
			t, err := difftest.LoadTarget(c.Target)
			Expect(err).NotTo(HaveOccurred())
			o := t.Run(c)
			Expect(o.Class.Failed()).To(BeFalse(), "%s", difftest.Report(o, path))
			if c.HasExpect {
				Expect(o.Class).To(Equal(c.Expect), "%s", difftest.Report(o, path))
			}
		},
		entries,
	)
})
