package cli

import (
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
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
})
