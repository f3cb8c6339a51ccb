package e2e

import (
	"context"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/plyproject/ply/pkg/cluster"
	"github.com/plyproject/ply/test/harness"
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

var services = schema.GroupVersionResource{Version: "v1", Resource: "services"}

// diffWith runs `ply diff --kubeconfig kubeconfig -n ns -f file` plus
// extra flags.
func diffWith(ns, file string, extra ...string) harness.Result {
	GinkgoHelper()
	return ply(append([]string{"diff", "--kubeconfig", srv.Kubeconfig, "-n", ns, "-f", file}, extra...)...)
}

var _ = Describe("dry runs and diffs of a change to immutable fields", func() {
	DescribeTable("say the object would be recreated (--force) or that apply would fail, leaving the live object untouched",
		func(gvr schema.GroupVersionResource, name, first, changed, ref, field string, removed, added, change string) {
			ns := newNamespace("immutable-dry-")
			r := applyWith(srv.Kubeconfig, ns, []string{fixture(first)})
			Expect(r.ExitCode).To(Equal(0), "%s", r)
			before := live(gvr, ns, name)
			untouched := func(what string) {
				GinkgoHelper()
				now := live(gvr, ns, name)
				Expect(now.GetUID()).To(Equal(before.GetUID()), "%s deletes nothing", what)
				Expect(now.GetResourceVersion()).To(Equal(before.GetResourceVersion()), "%s writes nothing", what)
			}
			file := fixture(changed)

			By("apply --dry-run=server --force")
			r = applyWith(srv.Kubeconfig, ns, []string{file}, "--dry-run=server", "--force")
			Expect(r.ExitCode).To(Equal(0), "%s", r)
			Expect(r.Stdout).To(Equal(lines(ref + " recreated (server dry run)")))
			untouched("a server dry run")

			By("diff --force")
			r = diffWith(ns, file, "--force")
			Expect(r.ExitCode).To(Equal(1), "differences: %s", r)
			Expect(r.Stdout).To(HavePrefix("# " + ref + " would be deleted and created again: the server refuses to change immutable field " + field + "\ndiff -u -N live/"))
			Expect(r.Stdout).To(ContainSubstring("\n-" + removed + "\n"))
			Expect(r.Stdout).To(ContainSubstring("\n+" + added + "\n"))
			Expect(r.Stderr).To(Equal("Plan: 0 to create, 0 to update, 1 to recreate, 0 to prune, 0 unchanged, 0 ignored, 0 failed.\n"), "the summary alone")
			untouched("diff --force")

			By("diff --force --changes: the fields the new object does not start with")
			r = diffWith(ns, file, "--force", "--changes")
			Expect(r.ExitCode).To(Equal(1), "%s", r)
			Expect(r.Stdout).To(ContainSubstring("# metadata.uid: replace, " + cluster.ReasonNotCarriedOver + "\n"))
			Expect(r.Stdout).To(ContainSubstring("# " + change + "\n"))

			By("diff without --force")
			r = diffWith(ns, file)
			Expect(r.ExitCode).To(Equal(2), "an error: %s", r)
			Expect(r.Stdout).To(BeEmpty())
			Expect(r.Stderr).To(ContainSubstring("apply would fail: the server refuses to change immutable field " + field))
			Expect(r.Stderr).To(ContainSubstring("pass --force"))
			untouched("diff")

			By("apply --force re-creates it from the manifest")
			r = applyWith(srv.Kubeconfig, ns, []string{file}, "--force")
			Expect(r.ExitCode).To(Equal(0), "%s", r)
			Expect(r.Stdout).To(Equal(lines(ref + " recreated")))
			Expect(live(gvr, ns, name).GetUID()).NotTo(Equal(before.GetUID()))
			r = diffWith(ns, file)
			Expect(r.ExitCode).To(Equal(0), "nothing left to change: %s", r)
		},
		Entry("a Job's pod template", jobs, "once", "immutable/job.yaml", "immutable/job-changed.yaml",
			"job.batch/once", "spec.template", "        image: busybox:1.36", "        image: busybox:1.37",
			"spec.template.spec.containers: replace, set by local"),
		Entry("a Service's clusterIP", services, "front", "immutable/service.yaml", "immutable/service-changed.yaml",
			"service/front", "spec.clusterIPs[0]", `  clusterIP: "10.96.0.10"`, `  clusterIP: "10.96.0.11"`,
			"spec.clusterIP: replace, set by local"),
	)

	It("refuses a forced re-creation whose create the server would refuse, in the dry run, the diff and the apply, deleting nothing", func() {
		ns := newNamespace("immutable-dry-")
		r := applyWith(srv.Kubeconfig, ns, []string{fixture("immutable/service-second.yaml")})
		Expect(r.ExitCode).To(Equal(0), "%s", r)
		uid := live(services, ns, "front").GetUID()
		file := fixture("immutable/service-outside.yaml")
		const refused = "the object would be deleted to re-create it, but the server refuses to create it: "

		r = applyWith(srv.Kubeconfig, ns, []string{file}, "--dry-run=server", "--force")
		Expect(r.ExitCode).To(Equal(1), "%s", r)
		Expect(r.Stderr).To(ContainSubstring(refused))
		Expect(r.Stderr).To(ContainSubstring("10.97.0.5"))

		r = diffWith(ns, file, "--force")
		Expect(r.ExitCode).To(Equal(2), "%s", r)
		Expect(r.Stderr).To(ContainSubstring(refused))
		Expect(live(services, ns, "front").GetUID()).To(Equal(uid))

		By("apply --force validates the create before deleting: nothing is deleted")
		r = applyWith(srv.Kubeconfig, ns, []string{file}, "--force")
		Expect(live(services, ns, "front").GetUID()).To(Equal(uid))
		Expect(r.ExitCode).To(Equal(1), "%s", r)
		Expect(r.Stderr).To(ContainSubstring("not re-created, nothing deleted: the server refuses to create the new object (a dry-run create): "))
		Expect(r.Stderr).To(ContainSubstring("10.97.0.5"))
	})
})
