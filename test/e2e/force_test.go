package e2e

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/plyproject/ply/test/harness"
)

// refuseCreates makes proxy answer the creates (POST, not dry runs) of
// ConfigMaps in ns as an admission webhook refusing them would, the first
// n of them (every one when n is negative), and returns the number
// refused so far.
func refuseCreates(proxy *harness.Proxy, ns string, n int64) *atomic.Int64 {
	var refused atomic.Int64
	collection := "/api/v1/namespaces/" + ns + "/configmaps"
	proxy.Intercept(func(w http.ResponseWriter, r *http.Request) bool {
		if r.Method != http.MethodPost || r.URL.Path != collection || r.URL.Query().Has("dryRun") {
			return false
		}
		if n >= 0 && refused.Load() >= n {
			return false
		}
		refused.Add(1)
		status := metav1.Status{
			TypeMeta: metav1.TypeMeta{Kind: "Status", APIVersion: "v1"},
			Status:   metav1.StatusFailure, Code: http.StatusForbidden, Reason: metav1.StatusReasonForbidden,
			Message: `admission webhook "deny.e2e.ply.dev" denied the request: creates of ConfigMaps are closed`,
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusForbidden)
		json.NewEncoder(w).Encode(status)
		return true
	})
	return &refused
}

// backupFiles returns the files of ply's re-creation backups under the
// cache folder cache (the binary's XDG_CACHE_HOME).
func backupFiles(cache string) []string {
	GinkgoHelper()
	files, err := filepath.Glob(filepath.Join(cache, "ply", "recreate", "*"))
	Expect(err).NotTo(HaveOccurred())
	return files
}

var _ = Describe("ply apply --force never loses the object", func() {
	var (
		ns    string
		uid   types.UID
		cache string
	)

	// applyForce runs `ply apply --force` with its cache folder in cache.
	applyForce := func(kubeconfig, file string, extra ...string) harness.Result {
		GinkgoHelper()
		args := append([]string{"apply", "--kubeconfig", kubeconfig, "-n", ns, "-f", file, "--force"}, extra...)
		return run(plyBin, []string{"XDG_CACHE_HOME=" + cache}, args...)
	}
	// expectAsBefore checks that imm is the object of imm.yaml; same says
	// whether it must be the very object (its UID) or may be a restored one.
	expectAsBefore := func(same bool) {
		GinkgoHelper()
		cm := live(configMaps, ns, "imm")
		Expect(cm.Object["data"]).To(Equal(map[string]any{"k": "v1", "precious": "data"}))
		if same {
			Expect(cm.GetUID()).To(Equal(uid), "never deleted")
		} else {
			Expect(cm.GetUID()).NotTo(Equal(uid), "deleted, then restored")
		}
	}

	BeforeEach(func() {
		ns = newNamespace("force-")
		cache = GinkgoT().TempDir()
		r := applyWith(srv.Kubeconfig, ns, []string{fixture("immutable/imm.yaml")})
		Expect(r.ExitCode).To(Equal(0), "%s", r)
		uid = live(configMaps, ns, "imm").GetUID()
	})

	It("deletes nothing when the refusal also names a field that is invalid, not immutable", func() {
		file := fixture("immutable/imm-bad-key.yaml")
		for _, extra := range [][]string{nil, {"--dry-run=server"}} {
			r := applyForce(srv.Kubeconfig, file, extra...)
			expectAsBefore(true)
			Expect(r.ExitCode).To(Equal(1), "%s", r)
			Expect(r.Stdout).To(BeEmpty())
			Expect(r.Stderr).To(ContainSubstring("immutable field data"))
			Expect(r.Stderr).To(ContainSubstring("not re-created: the server also refuses data[bad key!], not for being immutable"))
		}
		Expect(backupFiles(cache)).To(BeEmpty())

		By("without --force the message does not suggest it")
		r := applyWith(srv.Kubeconfig, ns, []string{file})
		Expect(r.ExitCode).To(Equal(1), "%s", r)
		Expect(r.Stderr).To(ContainSubstring("the server also refuses data[bad key!], not for being immutable: fix the manifest"))
		Expect(r.Stderr).NotTo(ContainSubstring("--force"))
		expectAsBefore(true)
	})

	It("restores the object as it was when the create fails after the delete (a webhook), and says both", func() {
		proxy, err := srv.StartProxy()
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(proxy.Close)
		refused := refuseCreates(proxy, ns, 1)

		r := applyForce(proxy.Kubeconfig, fixture("immutable/imm-changed.yaml"))
		Expect(refused.Load()).To(Equal(int64(1)), "the dry run passed, the real create was refused")
		expectAsBefore(false)
		Expect(r.ExitCode).To(Equal(1), "%s", r)
		Expect(r.Stderr).To(ContainSubstring(`deleted the object to re-create it, but the server refused the new object: admission webhook "deny.e2e.ply.dev" denied the request`))
		Expect(r.Stderr).To(ContainSubstring("restored the object as it was (with a new uid)"))
		Expect(backupFiles(cache)).To(BeEmpty(), "the saved copy is removed once the object exists again")

		By("the restored object is ply's as before: the next apply --force re-creates it")
		r = applyForce(srv.Kubeconfig, fixture("immutable/imm-changed.yaml"))
		Expect(r.ExitCode).To(Equal(0), "%s", r)
		Expect(r.Stdout).To(Equal(lines("configmap/imm recreated")))
		Expect(field(live(configMaps, ns, "imm"), "data", "k")).To(Equal("v2"))
		Expect(backupFiles(cache)).To(BeEmpty())
	})

	It("names the file holding the object when restoring it fails too; kubectl create -f restores it from there", func() {
		proxy, err := srv.StartProxy()
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(proxy.Close)
		refused := refuseCreates(proxy, ns, -1)

		r := applyForce(proxy.Kubeconfig, fixture("immutable/imm-changed.yaml"))
		Expect(r.ExitCode).To(Equal(1), "%s", r)
		files := backupFiles(cache)
		Expect(files).To(HaveLen(1), "the object is saved")
		Expect(refused.Load()).To(Equal(int64(2)), "the create and the restore")
		Expect(r.Stderr).To(ContainSubstring("restoring the object as it was failed too: admission webhook"))
		Expect(r.Stderr).To(ContainSubstring("the object as it was is saved in " + files[0] + " (kubectl create -f " + files[0] + " restores it)"))
		Expect(regexp.MustCompile(`configmap-`+ns+`-imm-\d+\.json$`).MatchString(files[0])).To(BeTrue(), files[0])
		info, err := os.Stat(files[0])
		Expect(err).NotTo(HaveOccurred())
		Expect(info.Mode().Perm()).To(Equal(os.FileMode(0o600)))
		expectAbsent(configMaps, ns, "imm")

		k := run(kubectlBin, nil, "--kubeconfig", srv.Kubeconfig, "create", "-f", files[0])
		Expect(k.ExitCode).To(Equal(0), "%s", k)
		expectAsBefore(false)
		Expect(strings.TrimSpace(k.Stdout)).To(Equal("configmap/imm created"))
	})
})
