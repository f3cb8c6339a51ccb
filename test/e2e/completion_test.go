package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/test/harness"
)

// completionEnv is a PATH holding kubectl (as "kubectl", the name its
// completion script runs), kubectl-ply with its completion link
// kubectl_complete-ply, and ply; a folder of files to complete -f in; and
// a kubeconfig of three contexts on the test server.
type completionEnv struct {
	path, work, kubeconfig, script string
}

func newCompletionEnv() completionEnv {
	GinkgoHelper()
	script, err := harness.BashCompletion(false)
	Expect(err).NotTo(HaveOccurred(), "go run ./test/harness/cmd/prepare installs it")
	dir := GinkgoT().TempDir()
	bin := filepath.Join(dir, "bin")
	Expect(os.Mkdir(bin, 0o755)).To(Succeed())
	Expect(os.Symlink(kubectlBin, filepath.Join(bin, "kubectl"))).To(Succeed())
	Expect(os.Symlink(kubectlPlyBin, filepath.Join(bin, "kubectl-ply"))).To(Succeed())
	Expect(os.Symlink(kubectlPlyBin, filepath.Join(bin, "kubectl_complete-ply"))).To(Succeed())
	Expect(os.Symlink(plyBin, filepath.Join(bin, "ply"))).To(Succeed())
	work := filepath.Join(dir, "work")
	Expect(os.MkdirAll(filepath.Join(work, "overlays"), 0o755)).To(Succeed())
	for _, f := range []string{"web.yaml", "db.yml", "cm.json", "notes.txt", "run.sh"} {
		Expect(os.WriteFile(filepath.Join(work, f), nil, 0o644)).To(Succeed())
	}
	kc, err := os.ReadFile(srv.Kubeconfig)
	Expect(err).NotTo(HaveOccurred())
	kubeconfig := filepath.Join(dir, "kubeconfig")
	Expect(os.WriteFile(kubeconfig, kc, 0o600)).To(Succeed())
	for _, ctx := range []string{"staging", "production"} {
		for _, args := range [][]string{{"set-cluster", "other-" + ctx, "--server=https://127.0.0.1:1"}, {"set-credentials", "admin-" + ctx, "--token=t"},
			{"set-context", ctx, "--cluster=other-" + ctx, "--user=admin-" + ctx, "--namespace=team-" + ctx}} {
			run := exec.Command(kubectlBin, append([]string{"config", "--kubeconfig", kubeconfig}, args...)...)
			out, err := run.CombinedOutput()
			Expect(err).NotTo(HaveOccurred(), "%s", out)
		}
	}
	return completionEnv{path: bin + string(os.PathListSeparator) + os.Getenv("PATH"), work: work, kubeconfig: kubeconfig, script: script}
}

// complete returns, sorted, what bash completes for the last of words
// with the completion script of words[0] (kubectl or ply) loaded.
func (e completionEnv) complete(words ...string) []string {
	GinkgoHelper()
	drive, err := filepath.Abs(filepath.Join("testdata", "completion", "drive.bash"))
	Expect(err).NotTo(HaveOccurred())
	cmd := exec.Command("bash", append([]string{drive, words[0]}, words...)...)
	cmd.Dir = e.work
	cmd.Env = append(os.Environ(), "PATH="+e.path, "BASH_COMPLETION_SCRIPT="+e.script, "HOME="+e.work)
	out, err := cmd.Output()
	Expect(err).NotTo(HaveOccurred(), "bash %s %s", drive, strings.Join(words, " "))
	var got []string
	for _, l := range strings.Split(string(out), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			got = append(got, l)
		}
	}
	sort.Strings(got)
	return got
}

var _ = Describe("bash completion of kubectl ply and ply", func() {
	var e completionEnv
	BeforeEach(func() { e = newCompletionEnv() })

	for _, prog := range [][]string{{"kubectl", "ply"}, {"ply"}} {
		words := func(w ...string) []string { return append(append([]string(nil), prog...), w...) }
		name := strings.Join(prog, " ")

		It(name+": -n completes the server's namespaces", func() {
			ns := newNamespace("complete-me-")
			got := e.complete(words("apply", "--kubeconfig", e.kubeconfig, "-n", "complete-me-")...)
			Expect(got).To(ContainElement(ns))
			Expect(got).To(HaveEach(HavePrefix("complete-me-")))
			got = e.complete(words("diff", "--kubeconfig", e.kubeconfig, "--namespace", "")...)
			Expect(got).To(ContainElements("default", "kube-system", ns))
		})

		It(name+": --context, --cluster and --user complete the kubeconfig's entries", func() {
			Expect(e.complete(words("apply", "--kubeconfig", e.kubeconfig, "--context", "")...)).To(ContainElements("staging", "production"))
			Expect(e.complete(words("apply", "--kubeconfig", e.kubeconfig, "--context", "st")...)).To(Equal([]string{"staging"}))
			Expect(e.complete(words("diff", "--kubeconfig", e.kubeconfig, "--cluster", "other-")...)).To(Equal([]string{"other-production", "other-staging"}))
			Expect(e.complete(words("apply", "--kubeconfig", e.kubeconfig, "--user", "admin-p")...)).To(Equal([]string{"admin-production"}))
		})

		It(name+": -f completes manifests (.yaml, .yml, .json) and folders only", func() {
			got := e.complete(words("apply", "-f", "")...)
			Expect(got).To(ConsistOf("cm.json", "db.yml", "overlays", "web.yaml"))
		})

		It(name+": -o completes kubectl's formats", func() {
			Expect(e.complete(words("apply", "-f", "web.yaml", "-o", "js")...)).To(Equal([]string{"json", "jsonpath", "jsonpath-as-json", "jsonpath-file"}))
		})
	}

	It("kubectl ply completes the plugin's commands", func() {
		Expect(e.complete("kubectl", "ply", "di")).To(Equal([]string{"diff"}))
	})
})
