package main

import (
	"os"
	"os/exec"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// The cluster commands are tested in cmd/internal/cli; these specs check
// that ply runs them through kubectl-ply under its own name.
var _ = Describe("ply apply and ply diff", func() {
	DescribeTable("run kubectl-ply with ply's name and exit codes",
		func(cmd string, code int) {
			r := ply(cmd, "-h")
			Expect(r.code).To(Equal(0))
			Expect(r.stdout).To(ContainSubstring("\nUsage:\n  ply " + cmd + " -f FILENAME [flags]\n"))
			r = ply(cmd)
			Expect(r.code).To(Equal(code))
			Expect(r.stderr).To(ContainSubstring("must specify one of -f and -k"))
			Expect(r.stderr).To(ContainSubstring("Run 'ply " + cmd + " -h' for usage."))
			r = ply("help", cmd)
			Expect(r.code).To(Equal(0))
			Expect(r.stdout).To(ContainSubstring("\nUsage:\n  ply " + cmd + " -f FILENAME [flags]\n"))
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

	It("completes their names itself and their flags through kubectl-ply", func() {
		r := ply("__complete", "")
		Expect(r.code).To(Equal(0))
		for _, c := range []string{"apply", "diff", "merge", "patch", "version"} {
			Expect(r.stdout).To(MatchRegexp(`(?m)^` + c + `\t`))
		}
		r = ply("__complete", "apply", "--dry")
		Expect(r.code).To(Equal(0))
		Expect(r.stdout).To(MatchRegexp(`(?m)^--dry-run\t`))
		r = ply("__complete", "merge", "--ove")
		Expect(r.stdout).To(MatchRegexp(`(?m)^--overwrite\t`))
	})

	It("passes standard input, output and error through", func() {
		r := plyWithStdin(strings.NewReader("kind: [\n"), "diff", "-f", "-", "--kubeconfig", "/nonexistent")
		Expect(r.code).To(Equal(2))
		Expect(r.stderr).To(Equal("error: -: line 1: invalid YAML: did not find expected node content\n"))
		Expect(r.stdout).To(BeEmpty())
	})

	It("runs them for a help flag before the command too", func() {
		for _, args := range [][]string{{"-h", "apply"}, {"--help", "diff"}} {
			r := ply(args...)
			Expect(r.code).To(Equal(0), "%v", args)
			Expect(r.stdout).To(ContainSubstring("\nUsage:\n  ply "+args[1]+" -f FILENAME [flags]\n"), "%v", args)
		}
	})

	It("exits with diff's error code, not its differences code, when kubectl-ply cannot run", func() {
		path := os.Getenv("PATH")
		DeferCleanup(os.Setenv, "PATH", path)
		os.Setenv("PATH", GinkgoT().TempDir())
		Expect(ply("diff", "-f", "x.yaml").code).To(Equal(2))
		Expect(ply("apply", "-f", "x.yaml").code).To(Equal(exitInput))
	})

	It("says where kubectl-ply was looked for when it is missing", func() {
		path := os.Getenv("PATH")
		DeferCleanup(os.Setenv, "PATH", path)
		os.Setenv("PATH", GinkgoT().TempDir())
		r := ply("apply", "-f", "x.yaml")
		Expect(r.code).To(Equal(exitInput))
		Expect(r.stderr).To(Equal("ply: the cluster commands (apply, diff) are kubectl-ply's, which is neither beside ply nor on PATH: " +
			"install it with ply (go install github.com/plyproject/ply/cmd/...)\n"))
		Expect(ply("merge", "-h").code).To(Equal(exitOK))
	})

	It("finds kubectl-ply beside the ply binary, PATH empty", func() {
		cmd := exec.Command(plyBin, "apply", "-h")
		cmd.Env = []string{"PATH="}
		out, err := cmd.Output()
		Expect(err).NotTo(HaveOccurred())
		Expect(string(out)).To(ContainSubstring("\nUsage:\n  ply apply -f FILENAME [flags]\n"))
		cmd = exec.Command(plyBin, "diff", "--bogus")
		cmd.Env = []string{"PATH="}
		err = cmd.Run()
		Expect(exitCodeOf(err)).To(Equal(exitUsage))
	})
})
