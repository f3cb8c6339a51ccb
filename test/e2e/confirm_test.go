//go:build linux

package e2e

import (
	"context"
	"os"
	"strconv"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"golang.org/x/sys/unix"

	"github.com/plyproject/ply/test/harness"
)

// openPTY opens a pseudo-terminal and returns its controlling side and
// the terminal side a command reads as its standard input.
func openPTY() (control, term *os.File) {
	GinkgoHelper()
	control, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(control.Close)
	Expect(unix.IoctlSetPointerInt(int(control.Fd()), unix.TIOCSPTLCK, 0)).To(Succeed())
	n, err := unix.IoctlGetInt(int(control.Fd()), unix.TIOCGPTN)
	Expect(err).NotTo(HaveOccurred())
	term, err = os.OpenFile("/dev/pts/"+strconv.Itoa(n), os.O_RDWR|unix.O_NOCTTY, 0)
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(term.Close)
	return control, term
}

// applyAnswering runs ply apply --confirm with args, its standard input a
// terminal on which answer is typed.
func applyAnswering(answer string, args ...string) harness.Result {
	GinkgoHelper()
	control, term := openPTY()
	_, err := control.WriteString(answer)
	Expect(err).NotTo(HaveOccurred())
	ctx, cancel := context.WithTimeout(context.Background(), commandTimeout)
	defer cancel()
	r, err := harness.Run(ctx, harness.Cmd{Path: plyBin, Args: append([]string{"apply", "--confirm"}, args...), Stdin: term})
	Expect(err).NotTo(HaveOccurred())
	GinkgoWriter.Printf("$ ply apply --confirm ... (answering %q)\n%s\n", answer, r)
	return r
}

var _ = Describe("ply apply --confirm on a terminal", func() {
	It("shows the diff and the summary and asks; n writes nothing, y applies", func() {
		ns := newNamespace("confirm-")
		args := []string{"--kubeconfig", srv.Kubeconfig, "-n", ns, "-f", fixture("stages/plan/v1.yaml")}

		r := applyAnswering("n\n", args...)
		Expect(r.ExitCode).To(Equal(1), "%s", r)
		Expect(r.Stdout).To(ContainSubstring("diff -u -N live/v1.ConfigMap." + ns + ".settings merged/v1.ConfigMap." + ns + ".settings\n"))
		Expect(r.Stderr).To(Equal("Plan: 4 to create, 0 to update, 0 to recreate, 0 to prune, 0 unchanged, 0 ignored, 0 failed.\n" +
			"Apply these changes? [y/N]: error: not applied: the changes were not approved\n"))
		Expect(exists(configMaps, ns, "settings")).To(BeFalse(), "nothing written")

		r = applyAnswering("y\n", args...)
		Expect(r.ExitCode).To(Equal(0), "%s", r)
		Expect(r.Stderr).To(Equal("Plan: 4 to create, 0 to update, 0 to recreate, 0 to prune, 0 unchanged, 0 ignored, 0 failed.\n" +
			"Apply these changes? [y/N]: "))
		Expect(r.Stdout).To(HaveSuffix("configmap/settings created\nsecret/creds created\nconfigmap/old created\ndeployment.apps/old created\n"))
		Expect(exists(configMaps, ns, "settings")).To(BeTrue())

		By("nothing to change: no question")
		r = applyAnswering("", args...)
		Expect(r.ExitCode).To(Equal(0), "%s", r)
		Expect(r.Stderr).To(Equal("Plan: 0 to create, 0 to update, 0 to recreate, 0 to prune, 4 unchanged, 0 ignored, 0 failed.\n"))
	})
})
