package e2e

import (
	"context"
	"encoding/json"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/plyproject/ply/pkg/cluster"
)

// applyAs sends a server-side apply of the ConfigMap name holding data
// straight to the API server under manager, with force, as a tool that
// does not move the client-side managers' fields (no csaupgrade) would.
func applyAs(manager, ns, name string, data map[string]any) {
	GinkgoHelper()
	body, err := json.Marshal(map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": name}, "data": data})
	Expect(err).NotTo(HaveOccurred())
	force := true
	_, err = srv.Dynamic().Resource(configMaps).Namespace(ns).Patch(context.Background(), name, types.ApplyPatchType, body,
		metav1.PatchOptions{FieldManager: manager, Force: &force})
	Expect(err).NotTo(HaveOccurred())
}

var _ = Describe("the client-side lane after a server-side apply by another manager (kubernetes issue 99003)", func() {
	// kubectl client-side applies a, b, c; ply's server-side apply (manager
	// kubectl) sets a, b, c, x, keeping the last-applied annotation, which
	// the server rewrites on each apply of the manager kubectl.
	handedOver := func(prefix string) string {
		ns := newNamespace(prefix)
		k := kubectlIn(ns, "apply", "-f", configMapWith("moved", map[string]any{"a": "1", "b": "2", "c": "3"}))
		Expect(k.ExitCode).To(Equal(0), "%s", k)
		r := applyWith(srv.Kubeconfig, ns, []string{configMapWith("moved", map[string]any{"a": "1", "b": "2", "c": "3", "x": "4"})}, "--server-side")
		Expect(r.ExitCode).To(Equal(0), "%s", r)
		Expect(live(configMaps, ns, "moved").GetAnnotations()).To(HaveKey(cluster.LastAppliedAnnotation))
		return ns
	}

	It("does not take a stale annotation as its record: the fields another applier took over stay", func() {
		ns := handedOver("stale")
		// Another tool's server-side apply takes every field over: the
		// manager kubectl owns nothing more, the annotation is stale.
		applyAs("argocd", ns, "moved", map[string]any{"a": "A", "b": "B", "c": "C", "x": "X"})
		u := live(configMaps, ns, "moved")
		Expect(managers(u)).To(ConsistOf("argocd/Apply", "kubectl-last-applied/Apply"))
		Expect(u.GetAnnotations()).To(HaveKey(cluster.LastAppliedAnnotation))

		r := applyWith(srv.Kubeconfig, ns, []string{configMapWith("moved", map[string]any{"a": "A", "b": "B"})})
		Expect(r.ExitCode).To(Equal(0), "%s", r)
		Expect(dataKeys(live(configMaps, ns, "moved"))).To(ConsistOf("a", "b", "c", "x"),
			"c and x are argocd's: the annotation, which argocd's apply did not rewrite, is no record of ply's or kubectl's")
	})

	It("takes what its own manager applied server-side as the record when the annotation is stale, so that nothing it set is stuck", func() {
		ns := handedOver("stale-own")
		r := applyWith(srv.Kubeconfig, ns, []string{configMapWith("moved", map[string]any{"a": "1", "b": "2", "c": "3", "x": "4", "y": "5"})},
			"--server-side", "--field-manager=deploy")
		Expect(r.ExitCode).To(Equal(0), "%s", r)
		Expect(managers(live(configMaps, ns, "moved"))).To(ConsistOf("kubectl/Apply", "kubectl-last-applied/Apply", "deploy/Apply"))

		r = applyWith(srv.Kubeconfig, ns, []string{configMapWith("moved", map[string]any{"a": "1"})}, "--field-manager=deploy")
		Expect(r.ExitCode).To(Equal(0), "%s", r)
		Expect(dataKeys(live(configMaps, ns, "moved"))).To(ConsistOf("a", "b", "c", "x"),
			"y, which only deploy applied (the annotation, kept for the manager kubectl, never held it), is removed; "+
				"b, c and x stay with the manager kubectl, which applied them too")
	})

	It("leaves to another applier the fields it took over, though the client-side manager still owns the annotation", func() {
		ns := newNamespace("stale-taken")
		r := applyWith(srv.Kubeconfig, ns, []string{configMapWith("taken", map[string]any{"a": "1", "b": "2", "c": "3"})})
		Expect(r.ExitCode).To(Equal(0), "%s", r)
		applyAs("other", ns, "taken", map[string]any{"b": "theirs"})
		Expect(managers(live(configMaps, ns, "taken"))).To(ConsistOf("kubectl-client-side-apply/Update", "other/Apply"))

		r = applyWith(srv.Kubeconfig, ns, []string{configMapWith("taken", map[string]any{"a": "1"})})
		Expect(r.ExitCode).To(Equal(0), "%s", r)
		u := live(configMaps, ns, "taken")
		Expect(dataKeys(u)).To(ConsistOf("a", "b"), "c is removed; b, which other applied since, stays")
		Expect(field(u, "data", "b")).To(Equal("theirs"))
	})
})
