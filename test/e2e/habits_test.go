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
	"k8s.io/apimachinery/pkg/runtime/schema"
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

var _ = Describe("--grace-period on the real server", func() {
	It("is the grace period of the prune's deletes, as the server records it", func() {
		ns := newNamespace("grace-")
		dir := GinkgoT().TempDir()
		// A Pod bound to a node no kubelet runs: its graceful deletion
		// leaves it Terminating with the grace period the delete asked.
		pod := "apiVersion: v1\nkind: Pod\nmetadata:\n  name: worker\nspec:\n  nodeName: nowhere\n  containers:\n  - name: c\n    image: busybox\n"
		cm := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: keep\n"
		Expect(os.WriteFile(filepath.Join(dir, "pod.yaml"), []byte(pod), 0o644)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(dir, "cm.yaml"), []byte(cm), 0o644)).To(Succeed())
		r := plyNS(ns, dir, "--prune", "--applyset=app")
		Expect(r.ExitCode).To(Equal(0), "%s", r)
		Expect(os.Remove(filepath.Join(dir, "pod.yaml"))).To(Succeed())
		r = plyNS(ns, dir, "--prune", "--applyset=app", "--grace-period=77")
		Expect(r.ExitCode).To(Equal(0), "%s", r)
		Expect(r.Stdout).To(ContainSubstring("pod/worker pruned\n"))
		got := live(schema.GroupVersionResource{Version: "v1", Resource: "pods"}, ns, "worker")
		Expect(got.GetDeletionGracePeriodSeconds()).To(HaveValue(BeEquivalentTo(77)))
	})
})
