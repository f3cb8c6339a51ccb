package e2e

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/pkg/cluster"
)

// newNamespaceApp writes a manifest of a Namespace named ns (unless
// withNamespace is false) and, in it, a ConfigMap, a Secret and a
// Deployment, and returns its path.
func newNamespaceApp(ns string, withNamespace bool) string {
	GinkgoHelper()
	var docs []string
	if withNamespace {
		docs = append(docs, "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: "+ns+"\n")
	}
	docs = append(docs,
		"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n  namespace: "+ns+"\ndata:\n  colour: blue\n",
		"apiVersion: v1\nkind: Secret\nmetadata:\n  name: token\n  namespace: "+ns+"\nstringData:\n  token: s3cr3t-new-ns\n",
		"apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  namespace: "+ns+"\nspec:\n  selector:\n    matchLabels: {app: web}\n"+
			"  template:\n    metadata:\n      labels: {app: web}\n    spec:\n      containers:\n      - name: web\n        image: nginx:1.27\n")
	path := filepath.Join(GinkgoT().TempDir(), "app.yaml")
	Expect(os.WriteFile(path, []byte(strings.Join(docs, "---\n")), 0o644)).To(Succeed())
	return path
}

var _ = Describe("ply diff of an app whose Namespace is in the same manifests", func() {
	It("shows the namespace's objects as created, merged locally, and says so (exit 1)", func() {
		ns := "diff-new-" + strconv.FormatInt(time.Now().UnixNano()%1e9, 36)
		r := ply("diff", "--kubeconfig", srv.Kubeconfig, "-f", newNamespaceApp(ns, true))
		Expect(r.ExitCode).To(Equal(1), "%s", r)
		Expect(r.Stderr).To(Equal("Plan: 4 to create, 0 to update, 0 to recreate, 0 to prune, 0 unchanged, 0 ignored, 0 failed.\n"),
			"nothing but the plan's summary: the dry runs that cannot succeed yet are no errors")
		for _, obj := range []string{"configmap/settings", "secret/token", "deployment.apps/web"} {
			Expect(r.Stdout).To(ContainSubstring("# " + obj + ": " + cluster.NewNamespaceNote(ns) + "\n"))
		}
		Expect(r.Stdout).To(ContainSubstring("+++ merged/v1.Namespace." + ns + "\n"))
		Expect(r.Stdout).To(ContainSubstring("+++ merged/v1.ConfigMap." + ns + ".settings\n"))
		Expect(r.Stdout).To(ContainSubstring("+  colour: blue\n"))
		Expect(r.Stdout).To(ContainSubstring("+      - image: nginx:1.27\n"))
		Expect(r.Stdout).NotTo(ContainSubstring("s3cr3t"), "a Secret's values masked")
	})

	It("still fails an object whose namespace neither exists nor is in the manifests (exit 2)", func() {
		ns := "diff-absent-ns"
		r := ply("diff", "--kubeconfig", srv.Kubeconfig, "-f", newNamespaceApp(ns, false))
		Expect(r.ExitCode).To(Equal(2), "%s", r)
		Expect(r.Stderr).To(ContainSubstring(`namespaces "` + ns + `" not found`))
	})
})
