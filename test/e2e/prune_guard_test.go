package e2e

import (
	"context"
	"os"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/plyproject/ply/pkg/cluster"
)

var namespaces = schema.GroupVersionResource{Version: "v1", Resource: "namespaces"}

// setKinds writes kinds as the kinds annotation of the Secret parent set
// in ns, as another tool or a person editing it would.
func setKinds(ns, kinds string) {
	GinkgoHelper()
	update(secrets, ns, "set", func(u *unstructured.Unstructured) {
		ann := u.GetAnnotations()
		ann[cluster.ApplySetGroupKindsAnnotation] = kinds
		u.SetAnnotations(ann)
	})
}

var _ = Describe("pruning refuses to guess", func() {
	It("warns about a parent whose kinds annotation is corrupt, naming both, and prunes nothing in that run", func() {
		ns := newNamespace("prune-corrupt-")
		dir := GinkgoT().TempDir()
		r := applyWith(srv.Kubeconfig, ns, []string{writeSet(dir, "v1.yaml", 1, 3, false)}, "--prune", "--applyset=set")
		Expect(r.ExitCode).To(Equal(0), "%s", r)
		setKinds(ns, "ConfigMap,Config Map!")

		r = applyWith(srv.Kubeconfig, ns, []string{writeSet(dir, "v2.yaml", 1, 1, false)}, "--prune", "--applyset=set")
		Expect(exists(configMaps, ns, "cm-002")).To(BeTrue(), "nothing pruned")
		Expect(exists(configMaps, ns, "cm-003")).To(BeTrue(), "nothing pruned")
		Expect(r.ExitCode).To(Equal(1), "%s", r)
		Expect(r.Stdout).To(Equal(lines("configmap/cm-001 unchanged")))
		Expect(r.Stderr).To(ContainSubstring(`Warning: the ApplySet parent secret "set" in namespace "` + ns + `" has entries in its annotation ` +
			cluster.ApplySetGroupKindsAnnotation + ` that are not Kind or Kind.group ("Config Map!")`))
		Expect(r.Stderr).To(ContainSubstring("error: pruning skipped: "))
		Expect(kindsOf(ns)).To(Equal("Config Map!,ConfigMap"), "the entry is kept for a person to correct")

		By("once corrected, the next run prunes")
		setKinds(ns, "ConfigMap")
		r = applyWith(srv.Kubeconfig, ns, []string{writeSet(dir, "v2.yaml", 1, 1, false)}, "--prune", "--applyset=set")
		Expect(r.ExitCode).To(Equal(0), "%s", r)
		Expect(r.Stdout).To(Equal(lines("configmap/cm-001 unchanged", "configmap/cm-002 pruned", "configmap/cm-003 pruned")))
	})

	It("warns about kinds the parent lists that the server does not serve, keeps them listed, and prunes the others", func() {
		ns := newNamespace("prune-unserved-")
		dir := GinkgoT().TempDir()
		r := applyWith(srv.Kubeconfig, ns, []string{writeSet(dir, "v1.yaml", 1, 2, false)}, "--prune", "--applyset=set")
		Expect(r.ExitCode).To(Equal(0), "%s", r)
		setKinds(ns, "ConfigMap,Gizmo.nowhere.example.com")

		r = applyWith(srv.Kubeconfig, ns, []string{writeSet(dir, "v2.yaml", 1, 1, false)}, "--prune", "--applyset=set")
		Expect(r.ExitCode).To(Equal(0), "%s", r)
		Expect(r.Stdout).To(Equal(lines("configmap/cm-001 unchanged", "configmap/cm-002 pruned")))
		Expect(r.Stderr).To(ContainSubstring(`Warning: the ApplySet parent secret "set" in namespace "` + ns +
			`" lists kinds the server does not serve now (Gizmo.nowhere.example.com, in ` + cluster.ApplySetGroupKindsAnnotation + `)`))
		Expect(kindsOf(ns)).To(Equal("ConfigMap,Gizmo.nowhere.example.com"))
	})

	It("refuses a manifest that holds the ApplySet's parent itself, writing nothing (kubectl 1.32 prunes the parent with its data)", func() {
		ns := newNamespace("prune-parent-")
		dir := GinkgoT().TempDir()
		file := filepath.Join(dir, "app.yaml")
		Expect(os.WriteFile(file, []byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app\ndata:\n  important: data\n---\n"+
			"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: other\ndata:\n  k: v\n"), 0o644)).To(Succeed())

		r := applyWith(srv.Kubeconfig, ns, []string{file}, "--prune", "--applyset=configmaps/app")
		Expect(r.ExitCode).To(Equal(1), "%s", r)
		Expect(r.Stdout).To(BeEmpty())
		Expect(r.Stderr).To(ContainSubstring(file + `#1: the manifests hold the ApplySet parent configmap "app" in namespace "` + ns +
			`" itself: a parent cannot be a member of its own ApplySet`))
		Expect(exists(configMaps, ns, "app")).To(BeFalse(), "nothing written")
		Expect(exists(configMaps, ns, "other")).To(BeFalse(), "nothing written")

		By("kubectl 1.32, for comparison: it applies the parent as a member of its own set")
		kns := newNamespace("prune-parent-kubectl-")
		k := run(kubectlBin, []string{"KUBECTL_APPLYSET=true"}, "--kubeconfig", srv.Kubeconfig, "-n", kns, "apply", "-f", file, "--prune", "--applyset=configmaps/app")
		Expect(k.ExitCode).To(Equal(0), "%s", k)
		parent := live(configMaps, kns, "app")
		Expect(parent.GetLabels()).To(HaveKey(cluster.ApplySetPartOfLabel), "kubectl labels its parent a member of its own set")
		otherOnly := filepath.Join(dir, "other.yaml")
		Expect(os.WriteFile(otherOnly, []byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: other\ndata:\n  k: v\n"), 0o644)).To(Succeed())
		k = run(kubectlBin, []string{"KUBECTL_APPLYSET=true"}, "--kubeconfig", srv.Kubeconfig, "-n", kns, "apply", "-f", otherOnly, "--prune", "--applyset=configmaps/app")
		Expect(k.ExitCode).To(Equal(0), "%s", k)
		Expect(k.Stdout).To(ContainSubstring("configmap/app pruned"), "kubectl prunes its own parent once it leaves the manifests")
		after := live(configMaps, kns, "app")
		Expect(after.GetUID()).NotTo(Equal(parent.GetUID()), "deleted, then created again as a bare parent")
		Expect(has(after, "data")).To(BeFalse(), "the parent's data is lost")
	})

	It("never prunes a cluster-scoped kind in the older form (-l) unless --prune-allowlist names it, and says what kubectl would delete", func() {
		ns := newNamespace("prune-legacy-ns-")
		dir := GinkgoT().TempDir()
		unrelated := ns + "-unrelated"
		nsFile := filepath.Join(dir, "ns.yaml")
		Expect(os.WriteFile(nsFile, []byte("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: "+unrelated+"\n  labels:\n    app: legacy\n"), 0o644)).To(Succeed())
		r := ply("apply", "--kubeconfig", srv.Kubeconfig, "-f", nsFile)
		Expect(r.ExitCode).To(Equal(0), "%s", r)
		DeferCleanup(func() {
			srv.Dynamic().Resource(namespaces).Delete(context.Background(), unrelated, metav1.DeleteOptions{})
		})

		for _, v := range []string{"legacy/v1", "legacy/v2"} {
			r = plyNS(ns, pruneManifests(v, ns, ns), "--prune", "-l", "app=legacy")
			Expect(exists(namespaces, "", unrelated)).To(BeTrue(), "the unrelated Namespace carrying the label is kept")
			Expect(r.ExitCode).To(Equal(0), "%s", r)
			Expect(r.Stderr).To(ContainSubstring(cluster.LegacyClusterScopedWarning))
		}
		Expect(r.Stdout).To(ContainSubstring("configmap/b pruned"))
		Expect(r.Stdout).NotTo(ContainSubstring("namespace/"))

		By("named in --prune-allowlist, the Namespace is pruned (asked for)")
		r = plyNS(ns, pruneManifests("legacy/v2", ns, ns), "--prune", "-l", "app=legacy", "--prune-allowlist=core/v1/Namespace")
		Expect(r.ExitCode).To(Equal(0), "%s", r)
		Expect(r.Stdout).To(ContainSubstring("namespace/" + unrelated + " pruned"))
	})
})
