package cli

import (
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/cmd/internal/command"
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

	DescribeTable("refuse the lanes they cannot hold",
		func(want string, args ...string) {
			captureOptions()
			r := runApply(append([]string{"-f", "testdata/cm.yaml"}, args...)...)
			Expect(r.code).To(Equal(command.ExitUsage))
			Expect(r.stderr).To(HavePrefix("error: " + want + "\n"))
		},
		Entry("--plan with --server-side", "--plan cannot be used with --server-side: a plan holds the client-side lane's writes "+
			"to the resourceVersions it read, and a server-side apply patch carries none", "--plan=plan.json", "--server-side"),
		Entry("--plan with --server-side=auto", "--plan cannot be used with --server-side: a plan holds the client-side lane's writes "+
			"to the resourceVersions it read, and a server-side apply patch carries none", "--plan=plan.json", "--server-side=auto"),
		Entry("--confirm with --server-side=auto", "--confirm cannot be used with --server-side=auto: the diff shows one lane "+
			"for every object; pass --server-side=true or false", "--confirm", "--yes", "--server-side=auto"),
	)

	It("--confirm goes on with --server-side: the diff is the server-side apply's dry run", func() {
		got := captureOptions()
		r := runApply("-f", "testdata/cm.yaml", "--confirm", "--yes", "--server-side")
		Expect(r.stderr).To(Equal("error: no cluster in unit tests\n"))
		Expect(got.Lane).To(Equal(cluster.LaneServerSide))
	})
})
