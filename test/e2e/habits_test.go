package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/onsi/gomega/gbytes"
)

var _ = Describe("kubectl's -v and Ctrl-C on the real server", func() {
	It("-v=6 prints a line per request and response; -v=10 never a body, so no Secret value", func() {
		ns := newNamespace("verbose-")
		secret := filepath.Join(GinkgoT().TempDir(), "secret.yaml")
		Expect(os.WriteFile(secret, []byte("apiVersion: v1\nkind: Secret\nmetadata:\n  name: token\nstringData:\n  token: v3rb0se-s3cr3t\n"), 0o644)).To(Succeed())
		r := applyWith(srv.Kubeconfig, ns, []string{secret}, "-v=6")
		Expect(r.ExitCode).To(Equal(0), "%s", r)
		Expect(r.Stdout).To(Equal("secret/token created\n"))
		Expect(r.Stderr).To(MatchRegexp(`(?m)^I6\] Response \(.*verb=POST.*/api/v1/namespaces/` + ns + `/secrets.*status=201 Created`))
		r = applyWith(srv.Kubeconfig, ns, []string{secret}, "-v=10")
		Expect(r.ExitCode).To(Equal(0), "%s", r)
		Expect(r.Stderr).To(ContainSubstring("body=(omitted: ply never prints request or response bodies)"))
		for _, form := range []string{"v3rb0se-s3cr3t", "djNyYjBzZS1zM2NyM3Q"} {
			Expect(r.Stderr).NotTo(ContainSubstring(form))
		}
	})

	It("Ctrl-C during --wait: the live block cleared, one line, exit status 130", func() {
		ns := newNamespace("interrupt-")
		cmd := exec.Command(kubectlPlyBin, "apply", "--kubeconfig", srv.Kubeconfig, "-n", ns, "-f", fixture("wait/deployment.yaml"),
			"--wait", "--timeout=2m")
		out, errb := gbytes.NewBuffer(), gbytes.NewBuffer() // safe to read while the command writes
		cmd.Stdout, cmd.Stderr = out, errb
		Expect(cmd.Start()).To(Succeed())
		Eventually(out).WithTimeout(30 * time.Second).Should(gbytes.Say("deployment.apps/web created"))
		time.Sleep(500 * time.Millisecond) // into the wait
		Expect(cmd.Process.Signal(syscall.SIGINT)).To(Succeed())
		err := cmd.Wait()
		var ee *exec.ExitError
		Expect(err).To(BeAssignableToTypeOf(ee))
		Expect(err.(*exec.ExitError).ExitCode()).To(Equal(130), "stdout:\n%s\nstderr:\n%s", out.Contents(), errb.Contents())
		Expect(string(errb.Contents())).To(Equal("error: interrupted, 1 object not waited for to the end\n"))
		Expect(string(out.Contents())).To(Equal("deployment.apps/web created\n"), "only the apply's line")
	})
})
