package cli

import (
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/pkg/cluster"
)

var _ = Describe("the approval prompt", func() {
	DescribeTable("approves only y or yes",
		func(input string, want bool) {
			var out strings.Builder
			Expect(ask(strings.NewReader(input), &out, "Apply these changes? [y/N]: ")).To(Equal(want))
			Expect(out.String()).To(HavePrefix("Apply these changes? [y/N]: "))
		},
		Entry("y", "y\n", true),
		Entry("yes in capitals, with blanks", "  YES \n", true),
		Entry("Y without a newline (end of input)", "Y", true),
		Entry("an empty line: the default, no", "\n", false),
		Entry("n", "n\n", false),
		Entry("anything else", "sure\n", false),
		Entry("the end of input at once", "", false),
		Entry("only the first line counts", "no\ny\n", false),
	)

	It("refuses without a terminal unless --yes", func() {
		f := confirmFlags{confirm: true}
		Expect(f.checkAsker(strings.NewReader("y\n"))).To(MatchError("--confirm: standard input is not a terminal to ask on; pass --yes to approve without asking"))
		f.yes = true
		Expect(f.checkAsker(strings.NewReader(""))).To(Succeed())
	})

	DescribeTable("hold every lane: --plan and --confirm go on with --server-side=true|auto, the writes and deletions held to the plan",
		func(lane cluster.Lane, args ...string) {
			plan := filepath.Join(GinkgoT().TempDir(), "plan.json")
			Expect(os.WriteFile(plan, []byte(`{"apiVersion":"ply.dev/v1alpha1","kind":"Plan","objects":[],"summary":{}}`), 0o600)).To(Succeed())
			got := captureOptions()
			r := runApply(append([]string{"-f", "testdata/cm.yaml", "--plan", plan}, args...)...)
			Expect(r.stderr).To(Equal("error: no cluster in unit tests\n"))
			Expect(got.Lane).To(Equal(lane))
			Expect(got.Expect).NotTo(BeNil())
			Expect(got.ExpectPrune).NotTo(BeNil())
		},
		Entry("--plan with --server-side", cluster.LaneServerSide, "--server-side"),
		Entry("--plan with --server-side=auto", cluster.LaneAuto, "--server-side=auto"),
		Entry("--plan and --confirm with --server-side=auto", cluster.LaneAuto, "--confirm", "--yes", "--server-side=auto"),
	)

	It("--confirm goes on with --server-side: the diff is the server-side apply's dry run", func() {
		got := captureOptions()
		r := runApply("-f", "testdata/cm.yaml", "--confirm", "--yes", "--server-side")
		Expect(r.stderr).To(Equal("error: no cluster in unit tests\n"))
		Expect(got.Lane).To(Equal(cluster.LaneServerSide))
	})
})
