package differential_test

import (
	"fmt"
	"os"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/test/internal/difftest"
)

// Replay is a developer tool, not a check of its own: with PLY_DIFF_CASE
// naming a case file or a case id it reruns that one case, prints what
// both implementations did and fails when they disagree. Without the
// variable it is skipped.
//
//	PLY_DIFF_CASE=/tmp/ply-diff-123/widget-overwrite-1.yaml \
//	  go test ./test/differential -ginkgo.focus=Replay -ginkgo.v
var _ = Describe("Replay (dev tool: set PLY_DIFF_CASE)", func() {
	It("reruns the case named by PLY_DIFF_CASE", func() {
		ref := os.Getenv("PLY_DIFF_CASE")
		if ref == "" {
			Skip("PLY_DIFF_CASE is not set")
		}
		var c difftest.Case
		if strings.Contains(ref, "@") && !strings.HasSuffix(ref, ".yaml") {
			target, seed, overwrite, err := difftest.ParseID(ref)
			Expect(err).NotTo(HaveOccurred())
			t, err := difftest.LoadTarget(target)
			Expect(err).NotTo(HaveOccurred())
			c = t.Generate(seed, overwrite)
		} else {
			var err error
			c, err = difftest.ReadCase(ref)
			Expect(err).NotTo(HaveOccurred())
		}
		t, err := difftest.LoadTarget(c.Target)
		Expect(err).NotTo(HaveOccurred())
		difftest.RawOracle = os.Getenv("PLY_DIFF_RAW") == "1"
		o := t.Run(c)
		fmt.Fprintf(GinkgoWriter, "%s\n", difftest.Report(o, ref))
		Expect(o.Class.Failed()).To(BeFalse(), "ply disagrees with strategicpatch:\n%s", difftest.Report(o, ref))
	})
})
