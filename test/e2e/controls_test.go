package e2e

import (
	"context"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/plyproject/ply/pkg/cluster"
)

// annotate sets the annotations ann on the live ConfigMap ns/name, as
// another writer would.
func annotate(ns, name string, ann map[string]string) {
	GinkgoHelper()
	update(configMaps, ns, name, func(u *unstructured.Unstructured) {
		a := u.GetAnnotations()
		if a == nil {
			a = map[string]string{}
		}
		for k, v := range ann {
			a[k] = v
		}
		u.SetAnnotations(a)
	})
}

// planEntries are the objects of a plan as "action ref (reason)".
func planEntries(plan cluster.Plan) []string {
	out := planLines(plan)
	for i, o := range plan.Objects {
		if o.Reason != "" {
			out[i] += " (" + o.Reason + ")"
		}
	}
	return out
}

// controlLane is a lane the per-object control specs run in: apply's
// flag and diff's.
type controlLane struct {
	apply, diff []string
	written     string // the word of an object written
}

var _ = Describe("per-object controls: the ignored action", func() {
	DescribeTable("reconcile disabled, create only if absent, prune disabled: diff, the plan and apply leave those objects as they are",
		func(lane controlLane) {
			ns := newNamespace("controls-")
			v1, v2 := fixture("controls/v1.yaml"), fixture("controls/v2.yaml")
			r := applyWith(srv.Kubeconfig, ns, []string{v1}, append([]string{"--prune", "--applyset=app"}, lane.apply...)...)
			Expect(r.ExitCode).To(Equal(0), "%s", r)
			annotate(ns, "frozen", map[string]string{"ply.dev/reconcile": "disabled"})
			annotate(ns, "frozen-gone", map[string]string{"kustomize.toolkit.fluxcd.io/reconcile": "disabled"})
			annotate(ns, "kept", map[string]string{"ply.dev/prune": "disabled"})
			annotate(ns, "kept-argo", map[string]string{"argocd.argoproj.io/sync-options": "Validate=false, Prune=false"})
			annotate(ns, "kept-flux", map[string]string{"kustomize.toolkit.fluxcd.io/prune": "disabled"})
			annotate(ns, "kept-kapp", map[string]string{"kapp.k14s.io/delete-strategy": "orphan"})
			frozenRV := live(configMaps, ns, "frozen").GetResourceVersion()
			onceRV := live(configMaps, ns, "once").GetResourceVersion()

			By("the plan: ignored, with the reason, and counted")
			plan := diffPlan(ns, 1, append([]string{"-f", v2, "--prune", "--applyset=app"}, lane.diff...)...)
			Expect(planEntries(plan)).To(Equal([]string{
				"ignored configmap/frozen (reconcile disabled)", "ignored configmap/once (exists, created only if absent)",
				"ignored configmap/flux-once (exists, created only if absent)",
				"ignored configmap/frozen-gone (reconcile disabled)", "prune configmap/gone", "ignored configmap/kept (prune disabled)",
				"ignored configmap/kept-argo (prune disabled)", "ignored configmap/kept-flux (prune disabled)",
				"ignored configmap/kept-kapp (prune disabled)"}))
			Expect(plan.Summary).To(Equal(cluster.PlanSummary{Prune: 1, Ignored: 8}))
			Expect(plan.Objects[0].ResourceVersion).To(Equal(frozenRV))
			Expect(plan.Objects[0].Fields).To(BeEmpty())
			saved := savePlan(1, append([]string{"diff", "--kubeconfig", srv.Kubeconfig, "-n", ns, "-o", "json", "-f", v2, "--prune", "--applyset=app"}, lane.diff...)...)

			By("the text diff says the same, with no diff of the ignored objects")
			r = ply(append([]string{"diff", "--kubeconfig", srv.Kubeconfig, "-n", ns, "-f", v2, "--prune", "--applyset=app"}, lane.diff...)...)
			Expect(r.ExitCode).To(Equal(1), "%s", r)
			Expect(r.Stdout).To(Equal(lines("# configmap/frozen ignored (reconcile disabled)", "# configmap/once ignored (exists, created only if absent)",
				"# configmap/flux-once ignored (exists, created only if absent)",
				"# configmap/frozen-gone ignored (reconcile disabled): not pruned", "# configmap/gone would be pruned (stage 2)",
				"# configmap/kept ignored (prune disabled): not pruned", "# configmap/kept-argo ignored (prune disabled): not pruned",
				"# configmap/kept-flux ignored (prune disabled): not pruned", "# configmap/kept-kapp ignored (prune disabled): not pruned")))
			Expect(r.Stderr).To(Equal("Plan: 0 to create, 0 to update, 0 to recreate, 1 to prune, 0 unchanged, 8 ignored, 0 failed.\n"))

			By("another writer moves an ignored object: the plan still holds (nothing is written to it)")
			annotate(ns, "frozen", map[string]string{"team": "ops"})
			movedRV := live(configMaps, ns, "frozen").GetResourceVersion()

			By("apply --plan --prune: nothing written to the ignored objects, only gone deleted")
			r = applyWith(srv.Kubeconfig, ns, []string{v2}, append([]string{"--prune", "--applyset=app", "--plan", saved}, lane.apply...)...)
			Expect(r.ExitCode).To(Equal(0), "%s", r)
			Expect(r.Stdout).To(Equal(lines("configmap/frozen ignored (reconcile disabled)", "configmap/once ignored (exists, created only if absent)",
				"configmap/flux-once ignored (exists, created only if absent)",
				"configmap/frozen-gone ignored (reconcile disabled)", "configmap/gone pruned", "configmap/kept ignored (prune disabled)",
				"configmap/kept-argo ignored (prune disabled)", "configmap/kept-flux ignored (prune disabled)",
				"configmap/kept-kapp ignored (prune disabled)")))
			Expect(live(configMaps, ns, "frozen").GetResourceVersion()).To(Equal(movedRV), "frozen: no write")
			Expect(field(live(configMaps, ns, "frozen"), "data", "mode")).To(Equal("blue"))
			Expect(live(configMaps, ns, "once").GetResourceVersion()).To(Equal(onceRV), "once: no write")
			Expect(field(live(configMaps, ns, "flux-once"), "data", "seed")).To(Equal("first"))
			expectAbsent(configMaps, ns, "gone")
			for _, name := range []string{"frozen-gone", "kept", "kept-argo", "kept-flux", "kept-kapp"} {
				Expect(exists(configMaps, ns, name)).To(BeTrue(), "%s is not deleted", name)
			}

			By("the next run lists the protected objects again: the set keeps their kind and namespace")
			r = applyWith(srv.Kubeconfig, ns, []string{v2}, append([]string{"--prune", "--applyset=app"}, lane.apply...)...)
			Expect(r.ExitCode).To(Equal(0), "%s", r)
			Expect(r.Stdout).To(ContainSubstring("configmap/kept ignored (prune disabled)\n"))

			By("once the control is removed, the object is written (and the create-only object created when absent)")
			annotate(ns, "frozen", map[string]string{"ply.dev/reconcile": "enabled"})
			Expect(srv.Dynamic().Resource(configMaps).Namespace(ns).Delete(context.Background(), "once", metav1.DeleteOptions{})).To(Succeed())
			r = applyWith(srv.Kubeconfig, ns, []string{v2}, lane.apply...)
			Expect(r.ExitCode).To(Equal(0), "%s", r)
			Expect(r.Stdout).To(HavePrefix(lines("configmap/frozen "+lane.written, "configmap/once "+strings.Replace(lane.written, "configured", "created", 1))))
			Expect(field(live(configMaps, ns, "frozen"), "data", "mode")).To(Equal("green"))
			Expect(field(live(configMaps, ns, "once"), "data", "seed")).To(Equal("second"))
		},
		Entry("client-side", controlLane{written: "configured"}),
		Entry("server-side", controlLane{apply: []string{"--server-side"}, diff: []string{"--server-side-apply"}, written: "serverside-applied"}),
	)

	It("an ApplySet keeps listing the kind of a member prune left, though the run applies none of that kind", func() {
		ns := newNamespace("controls-")
		v1, v2 := fixture("stages/plan/v1.yaml"), fixture("stages/plan/v2.yaml")
		Expect(applyWith(srv.Kubeconfig, ns, []string{v1}, "--prune", "--applyset=app").ExitCode).To(Equal(0))
		update(deployments, ns, "old", func(u *unstructured.Unstructured) {
			u.SetAnnotations(map[string]string{"ply.dev/prune": "disabled"})
		})
		for range 2 {
			r := applyWith(srv.Kubeconfig, ns, []string{v2}, "--prune", "--applyset=app")
			Expect(r.ExitCode).To(Equal(0), "%s", r)
			Expect(r.Stdout).To(ContainSubstring("deployment.apps/old ignored (prune disabled)\n"), "listed again on the second run")
		}
		Expect(live(secrets, ns, "app").GetAnnotations()).To(HaveKeyWithValue("applyset.kubernetes.io/contains-group-kinds",
			ContainSubstring("Deployment.apps")))
		Expect(exists(deployments, ns, "old")).To(BeTrue())
	})
})
