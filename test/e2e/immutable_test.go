package e2e

import (
	"context"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/plyproject/ply/pkg/cluster"
)

func deploymentWithSelector(app string) map[string]any {
	labels := map[string]any{"app": app}
	return map[string]any{
		"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": map[string]any{"name": "web"},
		"spec": map[string]any{
			"selector": map[string]any{"matchLabels": labels},
			"template": map[string]any{
				"metadata": map[string]any{"labels": labels},
				"spec":     map[string]any{"containers": []any{map[string]any{"name": "web", "image": "nginx:1.27"}}},
			},
		},
	}
}

var _ = Describe("ply apply: immutable fields", func() {
	It("names the immutable field; with --force deletes the object and creates it again, a server dry run writing nothing", func() {
		ns := newNamespace("immutable")
		r := applyWith(srv.Kubeconfig, ns, []string{writeManifest(deploymentWithSelector("web"))})
		Expect(r.ExitCode).To(Equal(0), "%s", r)
		uid := live(deployments, ns, "web").GetUID()

		changed := writeManifest(deploymentWithSelector("web2"))
		r = applyWith(srv.Kubeconfig, ns, []string{changed})
		Expect(r.ExitCode).To(Equal(1), "%s", r)
		Expect(r.Stderr).To(ContainSubstring("the server refuses to change immutable field spec.selector"))
		Expect(r.Stderr).To(ContainSubstring("pass --force"))
		Expect(live(deployments, ns, "web").GetUID()).To(Equal(uid), "nothing written")

		r = applyWith(srv.Kubeconfig, ns, []string{changed}, "--force", "--dry-run=server")
		Expect(r.ExitCode).To(Equal(0), "%s", r)
		Expect(r.Stdout).To(Equal("deployment.apps/web recreated (server dry run)\n"))
		Expect(live(deployments, ns, "web").GetUID()).To(Equal(uid), "a dry run deletes nothing")

		r = applyWith(srv.Kubeconfig, ns, []string{changed}, "--force")
		Expect(r.ExitCode).To(Equal(0), "%s", r)
		Expect(r.Stdout).To(Equal("deployment.apps/web recreated\n"))
		d := live(deployments, ns, "web")
		Expect(d.GetUID()).NotTo(Equal(uid), "a new object")
		Expect(field(d, "spec", "selector", "matchLabels", "app")).To(Equal("web2"))
		Expect(d.GetAnnotations()).To(HaveKey(cluster.LastAppliedAnnotation))
		r = applyWith(srv.Kubeconfig, ns, []string{changed})
		Expect(r.Stdout).To(Equal("deployment.apps/web unchanged\n"), "%s", r)
	})

	It("re-creates one object at its own request (the force annotation)", func() {
		ns := newNamespace("immutable")
		cm := func(v string) map[string]any {
			return map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "immutable": true,
				"metadata": map[string]any{"name": "frozen", "annotations": map[string]any{cluster.ForceAnnotation: "true"}},
				"data":     map[string]any{"k": v}}
		}
		r := applyWith(srv.Kubeconfig, ns, []string{writeManifest(cm("1"))})
		Expect(r.ExitCode).To(Equal(0), "%s", r)
		r = applyWith(srv.Kubeconfig, ns, []string{writeManifest(cm("2"))})
		Expect(r.ExitCode).To(Equal(0), "%s", r)
		Expect(r.Stdout).To(Equal("configmap/frozen recreated\n"))
		Expect(field(live(configMaps, ns, "frozen"), "data", "k")).To(Equal("2"))
	})

	It("never re-creates a CustomResourceDefinition, whose deletion would delete its resources", func() {
		crd := func(scope string) map[string]any {
			return map[string]any{
				"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
				"metadata": map[string]any{"name": "gizmos.e2e.ply.dev"},
				"spec": map[string]any{
					"group": "e2e.ply.dev", "scope": scope,
					"names": map[string]any{"kind": "Gizmo", "plural": "gizmos"},
					"versions": []any{map[string]any{"name": "v1", "served": true, "storage": true,
						"schema": map[string]any{"openAPIV3Schema": map[string]any{"type": "object"}}}},
				},
			}
		}
		r := applyWith(srv.Kubeconfig, "default", []string{writeManifest(crd("Namespaced"))})
		Expect(r.ExitCode).To(Equal(0), "%s", r)
		before, err := srv.Dynamic().Resource(crds).Get(context.Background(), "gizmos.e2e.ply.dev", metav1.GetOptions{})
		Expect(err).NotTo(HaveOccurred())
		r = applyWith(srv.Kubeconfig, "default", []string{writeManifest(crd("Cluster"))}, "--force")
		Expect(r.ExitCode).To(Equal(1), "%s", r)
		Expect(r.Stderr).To(ContainSubstring("immutable field spec.scope"))
		Expect(r.Stderr).To(ContainSubstring("not re-created: deleting a CustomResourceDefinition deletes every resource of it"))
		after, err := srv.Dynamic().Resource(crds).Get(context.Background(), "gizmos.e2e.ply.dev", metav1.GetOptions{})
		Expect(err).NotTo(HaveOccurred())
		Expect(after.GetUID()).To(Equal(before.GetUID()))
	})
})
