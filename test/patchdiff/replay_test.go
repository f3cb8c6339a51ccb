package patchdiff_test

import (
	"fmt"
	"os"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/test/internal/difftest"
	"github.com/plyproject/ply/test/patchdiff"
)

// Replay is a developer tool, not a check of its own: with PLY_DIFF_CASE
// naming a patchdiff case file or case id ("<mode>:<target>@<seed>") it
// reruns that one case, prints what both sides did and fails when they
// disagree. Without the variable, or with a test/differential case, it is
// skipped.
//
//	PLY_DIFF_CASE=/tmp/ply-patchdiff-1/apply-directives-widget-1.yaml \
//	  go test ./test/patchdiff -ginkgo.focus=Replay -ginkgo.v
var _ = Describe("Replay (dev tool: set PLY_DIFF_CASE)", func() {
	It("reruns the case named by PLY_DIFF_CASE", func() {
		ref := os.Getenv("PLY_DIFF_CASE")
		var c patchdiff.Case
		switch {
		case ref == "":
			Skip("PLY_DIFF_CASE is not set")
		case strings.HasSuffix(ref, ".yaml"):
			var err error
			c, err = patchdiff.ReadCase(ref)
			if err != nil && strings.Contains(err.Error(), "needs mode") {
				Skip("PLY_DIFF_CASE is not a patchdiff case: " + err.Error())
			}
			Expect(err).NotTo(HaveOccurred())
		case strings.Contains(ref, ":"):
			mode, target, seed, err := patchdiff.ParseID(ref)
			Expect(err).NotTo(HaveOccurred())
			t, err := difftest.LoadTarget(target)
			Expect(err).NotTo(HaveOccurred())
			c = patchdiff.Generate(t, mode, seed)
		default:
			Skip("PLY_DIFF_CASE is not a patchdiff case id")
		}
		t, err := difftest.LoadTarget(c.Target)
		Expect(err).NotTo(HaveOccurred())
		o := patchdiff.Run(t, c)
		fmt.Fprintf(GinkgoWriter, "%s\n", patchdiff.Report(o, ref))
		Expect(o.Class.Failed()).To(BeFalse(), "ply disagrees with strategicpatch:\n%s", patchdiff.Report(o, ref))
	})
})
