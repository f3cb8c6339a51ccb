package e2e

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/plyproject/ply/test/harness"
)

var (
	deployments = schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}
	configMaps  = schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}
	widgets     = schema.GroupVersionResource{Group: "e2e.ply.dev", Version: "v1", Resource: "widgets"}
	gizmos      = schema.GroupVersionResource{Group: "e2e.ply.dev", Version: "v1", Resource: "gizmos"}
)

// commandTimeout bounds every ply and kubectl run.
const commandTimeout = 2 * time.Minute

// fixture returns the absolute path of testdata/name.
func fixture(name string) string {
	p, err := filepath.Abs(filepath.Join("testdata", name))
	Expect(err).NotTo(HaveOccurred())
	_, err = os.Stat(p)
	Expect(err).NotTo(HaveOccurred(), "fixture %s", name)
	return p
}

// run runs bin with args and env, failing the spec when it cannot start.
func run(bin string, env []string, args ...string) harness.Result {
	GinkgoHelper()
	ctx, cancel := context.WithTimeout(context.Background(), commandTimeout)
	defer cancel()
	r, err := harness.Run(ctx, harness.Cmd{Path: bin, Args: args, Env: env})
	Expect(err).NotTo(HaveOccurred())
	GinkgoWriter.Printf("$ %s %s\n%s\n", filepath.Base(bin), strings.Join(args, " "), r)
	return r
}

// ply runs the built ply binary.
func ply(args ...string) harness.Result {
	GinkgoHelper()
	return run(plyBin, nil, args...)
}

// applyWith runs `ply apply --kubeconfig kubeconfig -n ns -f F...` plus
// extra flags.
func applyWith(kubeconfig, ns string, files []string, extra ...string) harness.Result {
	GinkgoHelper()
	args := []string{"apply", "--kubeconfig", kubeconfig, "-n", ns}
	for _, f := range files {
		args = append(args, "-f", f)
	}
	return ply(append(args, extra...)...)
}

// apply applies fixtures as the admin in ns.
func apply(ns string, fixtures ...string) harness.Result {
	GinkgoHelper()
	files := make([]string, len(fixtures))
	for i, f := range fixtures {
		files[i] = fixture(f)
	}
	return applyWith(srv.Kubeconfig, ns, files)
}

// mustApply applies fixtures and expects exit code 0 and exactly the
// stdout lines want.
func mustApply(ns string, fixtures []string, want ...string) {
	GinkgoHelper()
	r := apply(ns, fixtures...)
	Expect(r.ExitCode).To(Equal(0), "%s", r)
	Expect(r.Stdout).To(Equal(lines(want...)), "%s", r)
}

// lines joins ls as output lines, each ending in a newline.
func lines(ls ...string) string {
	if len(ls) == 0 {
		return ""
	}
	return strings.Join(ls, "\n") + "\n"
}

// kubectlPly runs `kubectl ply args...` with kubectl-ply found through
// PATH and the admin kubeconfig in KUBECONFIG.
func kubectlPly(args ...string) harness.Result {
	GinkgoHelper()
	env := []string{
		"PATH=" + binDir + string(os.PathListSeparator) + os.Getenv("PATH"),
		"KUBECONFIG=" + srv.Kubeconfig,
	}
	return run(kubectlBin, env, append([]string{"ply"}, args...)...)
}

// newNamespace creates the spec's namespace.
func newNamespace(prefix string) string {
	GinkgoHelper()
	ns, err := srv.CreateNamespace(context.Background(), prefix)
	Expect(err).NotTo(HaveOccurred())
	return ns
}

// live reads an object that must exist.
func live(gvr schema.GroupVersionResource, ns, name string) *unstructured.Unstructured {
	GinkgoHelper()
	u, err := srv.Dynamic().Resource(gvr).Namespace(ns).Get(context.Background(), name, metav1.GetOptions{})
	Expect(err).NotTo(HaveOccurred())
	return u
}

// expectAbsent checks that an object does not exist.
func expectAbsent(gvr schema.GroupVersionResource, ns, name string) {
	GinkgoHelper()
	_, err := srv.Dynamic().Resource(gvr).Namespace(ns).Get(context.Background(), name, metav1.GetOptions{})
	Expect(apierrors.IsNotFound(err)).To(BeTrue(), "want %s %s/%s absent, got %v", gvr.Resource, ns, name, err)
}

// field returns the value at path of u, failing when it is absent.
func field(u *unstructured.Unstructured, path ...string) any {
	GinkgoHelper()
	v, found, err := unstructured.NestedFieldNoCopy(u.Object, path...)
	Expect(err).NotTo(HaveOccurred())
	Expect(found).To(BeTrue(), "want %s set in %s", strings.Join(path, "."), u.GetName())
	return v
}

// has reports whether path is set in u.
func has(u *unstructured.Unstructured, path ...string) bool {
	_, found, _ := unstructured.NestedFieldNoCopy(u.Object, path...)
	return found
}

// container returns the first container of a Deployment.
func container(u *unstructured.Unstructured) map[string]any {
	GinkgoHelper()
	cs := field(u, "spec", "template", "spec", "containers").([]any)
	Expect(cs).NotTo(BeEmpty())
	return cs[0].(map[string]any)
}

// envNames returns the names of the first container's env items in order.
func envNames(u *unstructured.Unstructured) []string {
	GinkgoHelper()
	var names []string
	for _, e := range container(u)["env"].([]any) {
		names = append(names, e.(map[string]any)["name"].(string))
	}
	return names
}

// update changes an object directly on the server (as another writer
// would), retrying on conflicts.
func update(gvr schema.GroupVersionResource, ns, name string, change func(*unstructured.Unstructured)) {
	GinkgoHelper()
	Expect(otherWriter(context.Background(), gvr, ns, name, change)).To(Succeed())
}

// otherWriter reads the object and writes it back changed, straight to the
// API server, retrying on conflicts.
func otherWriter(ctx context.Context, gvr schema.GroupVersionResource, ns, name string, change func(*unstructured.Unstructured)) error {
	rc := srv.Dynamic().Resource(gvr).Namespace(ns)
	for range 10 {
		u, err := rc.Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		change(u)
		if _, err = rc.Update(ctx, u, metav1.UpdateOptions{FieldManager: "other-writer"}); !apierrors.IsConflict(err) {
			return err
		}
	}
	return apierrors.NewConflict(gvr.GroupResource(), name, nil)
}
