package main

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// The cluster commands are tested in cmd/internal/cli; these specs check
// that ply dispatches to them under its own name.
var _ = Describe("ply apply and ply diff", func() {
	DescribeTable("dispatch with ply's name",
		func(cmd string, code int) {
			r := ply(cmd, "-h")
			Expect(r.code).To(Equal(0))
			Expect(r.stdout).To(ContainSubstring("\nUsage:\n  ply " + cmd + " -f FILENAME [flags]\n"))
			r = ply(cmd)
			Expect(r.code).To(Equal(code))
			Expect(r.stderr).To(ContainSubstring("must specify one of -f and -k"))
			Expect(r.stderr).To(ContainSubstring("Run 'ply " + cmd + " -h' for usage."))
		},
		Entry("apply: usage errors exit 2", "apply", exitUsage),
		Entry("diff: errors exit 2 (1 means differences)", "diff", 2),
	)

	It("lists them in the usage", func() {
		r := ply("help")
		Expect(r.stdout).To(ContainSubstring("ply apply -f FILE|DIR|URL|-"))
		Expect(r.stdout).To(ContainSubstring("ply diff -f FILE|DIR|URL|-"))
		Expect(r.stdout).To(MatchRegexp(`\n  apply +Apply manifests`))
		Expect(r.stdout).To(MatchRegexp(`\n  diff +Show what apply would change`))
	})
})
