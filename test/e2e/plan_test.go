package e2e

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/plyproject/ply/pkg/cluster"
)

// diffPlan runs ply diff -o json with args in ns and decodes the plan.
func diffPlan(ns string, wantCode int, args ...string) cluster.Plan {
	GinkgoHelper()
	r := ply(append([]string{"diff", "--kubeconfig", srv.Kubeconfig, "-n", ns, "-o", "json"}, args...)...)
	Expect(r.ExitCode).To(Equal(wantCode), "%s", r)
	var plan cluster.Plan
	Expect(json.Unmarshal([]byte(r.Stdout), &plan)).To(Succeed(), r.Stdout)
	return plan
}

// planLine is an object of a plan as "action ref (stage N)".
func planLines(plan cluster.Plan) []string {
	var out []string
	for _, o := range plan.Objects {
		ref := strings.ToLower(o.Kind) + "/" + o.Name
		if g, _, ok := strings.Cut(o.APIVersion, "/"); ok {
			ref = strings.ToLower(o.Kind) + "." + g + "/" + o.Name
		}
		out = append(out, o.Action+" "+ref)
	}
	return out
}

var _ = Describe("ply diff: the plan, and what prune would delete", func() {
	It("prints one plan with actions, stages, masked field values and a summary; --prune lists exactly what apply --prune deletes", func() {
		ns := newNamespace("plan-")
		v1, v2 := fixture("stages/plan/v1.yaml"), fixture("stages/plan/v2.yaml")
		plan := diffPlan(ns, 1, "-f", v1, "--prune", "--applyset=app")
		Expect(planLines(plan)).To(Equal([]string{"create configmap/settings", "create secret/creds", "create configmap/old", "create deployment.apps/old"}))
		Expect(plan.Summary).To(Equal(cluster.PlanSummary{Create: 4}))
		r := ply("apply", "--kubeconfig", srv.Kubeconfig, "-n", ns, "-f", v1, "--prune", "--applyset=app")
		Expect(r.ExitCode).To(Equal(0), "%s", r)
		Expect(diffPlan(ns, 0, "-f", v1, "--prune", "--applyset=app").Summary).To(Equal(cluster.PlanSummary{Unchanged: 4}))

		r = ply("diff", "--kubeconfig", srv.Kubeconfig, "-n", ns, "-o", "json", "-f", v2, "--prune", "--applyset=app")
		Expect(r.ExitCode).To(Equal(1), "%s", r)
		Expect(r.Stdout).NotTo(ContainSubstring("hunter2"))
		Expect(json.Unmarshal([]byte(r.Stdout), &plan)).To(Succeed())
		Expect(planLines(plan)).To(Equal([]string{"update configmap/settings", "update secret/creds", "create configmap/new",
			"prune deployment.apps/old", "prune configmap/old"}))
		Expect(plan.Summary).To(Equal(cluster.PlanSummary{Create: 1, Update: 2, Prune: 2}))
		settings := plan.Objects[0]
		Expect(settings.Stage).To(Equal(1))
		Expect(settings.ResourceVersion).To(Equal(live(configMaps, ns, "settings").GetResourceVersion()))
		Expect(settings.Digest).To(HavePrefix("sha256:"))
		Expect(settings.Fields).To(ContainElement(cluster.PlanField{Path: "data.mode", Op: "replace", Reason: cluster.ReasonSetByLocal,
			Before: json.RawMessage(`"blue"`), After: json.RawMessage(`"green"`)}))
		var password *cluster.PlanField
		for k, f := range plan.Objects[1].Fields {
			if f.Path == "data.password" {
				password = &plan.Objects[1].Fields[k]
			}
		}
		Expect(password).NotTo(BeNil(), "%v", plan.Objects[1].Fields)
		Expect(string(password.Before)).To(Equal(`"*** (before)"`))
		Expect(string(password.After)).To(Equal(`"*** (after)"`))
		Expect(plan.Objects[3].Stage).To(BeNumerically(">", plan.Objects[2].Stage), "deletions follow the writes")

		text := ply("diff", "--kubeconfig", srv.Kubeconfig, "-n", ns, "-f", v2, "--prune", "--applyset=app")
		Expect(text.ExitCode).To(Equal(1), "%s", text)
		Expect(text.Stdout).To(HaveSuffix("# deployment.apps/old would be pruned (stage 2)\n# configmap/old would be pruned (stage 3)\n"))
		Expect(text.Stderr).To(HaveSuffix("Plan: 1 to create, 2 to update, 0 to recreate, 2 to prune, 0 unchanged, 0 ignored, 0 failed.\n"))

		r = ply("apply", "--kubeconfig", srv.Kubeconfig, "-n", ns, "-f", v2, "--prune", "--applyset=app")
		Expect(r.ExitCode).To(Equal(0), "%s", r)
		var pruned []string
		for _, l := range outLines(r.Stdout) {
			if s, ok := strings.CutSuffix(l, " pruned"); ok {
				pruned = append(pruned, "prune "+s)
			}
		}
		Expect(pruned).To(Equal(planLines(plan)[3:]), "apply --prune deletes what the plan listed, in its order")
	})

	It("lists what the legacy -l prune would delete", func() {
		ns := newNamespace("plan-")
		v1, v2 := fixture("stages/plan/v1.yaml"), fixture("stages/plan/v2.yaml")
		Expect(ply("apply", "--kubeconfig", srv.Kubeconfig, "-n", ns, "-f", v1).ExitCode).To(Equal(0))
		plan := diffPlan(ns, 1, "-f", v2, "--prune", "--all")
		Expect(planLines(plan)[3:]).To(Equal([]string{"prune deployment.apps/old", "prune configmap/old"}))
		Expect(plan.Summary.Prune).To(Equal(2))
	})

	It("apply --confirm refuses without a terminal, and with --yes shows the diff and the summary, then writes", func() {
		ns := newNamespace("plan-")
		v1 := fixture("stages/plan/v1.yaml")
		r := ply("apply", "--kubeconfig", srv.Kubeconfig, "-n", ns, "-f", v1, "--confirm")
		Expect(r.ExitCode).To(Equal(1), "%s", r)
		Expect(r.Stderr).To(Equal("error: --confirm: standard input is not a terminal to ask on; pass --yes to approve without asking\n"))
		Expect(exists(configMaps, ns, "settings")).To(BeFalse(), "nothing written")

		r = ply("apply", "--kubeconfig", srv.Kubeconfig, "-n", ns, "-f", v1, "--confirm", "--yes", "--prune", "--applyset=app")
		Expect(r.ExitCode).To(Equal(0), "%s", r)
		Expect(r.Stdout).To(ContainSubstring("diff -u -N live/v1.ConfigMap." + ns + ".settings merged/v1.ConfigMap." + ns + ".settings\n"))
		Expect(r.Stdout).NotTo(ContainSubstring("hunter2"))
		Expect(r.Stderr).To(Equal("Plan: 4 to create, 0 to update, 0 to recreate, 0 to prune, 0 unchanged, 0 ignored, 0 failed.\n"))
		Expect(r.Stdout).To(HaveSuffix("configmap/settings created\nsecret/creds created\nconfigmap/old created\ndeployment.apps/old created\n"))
		Expect(exists(configMaps, ns, "settings")).To(BeTrue())
	})

	It("apply --plan applies a saved plan, and refuses one the live objects or the manifests moved away from, naming the objects", func() {
		ns := newNamespace("plan-")
		v1, v2 := fixture("stages/plan/v1.yaml"), fixture("stages/plan/v2.yaml")
		save := func(args ...string) string {
			r := ply(append([]string{"diff", "--kubeconfig", srv.Kubeconfig, "-n", ns, "-o", "json"}, args...)...)
			Expect(r.ExitCode).To(BeNumerically("<=", 1), "%s", r)
			path := filepath.Join(GinkgoT().TempDir(), "plan.json")
			Expect(os.WriteFile(path, []byte(r.Stdout), 0o600)).To(Succeed())
			return path
		}
		first := save("-f", v1, "--prune", "--applyset=app")
		r := ply("apply", "--kubeconfig", srv.Kubeconfig, "-n", ns, "-f", v1, "--prune", "--applyset=app", "--plan", first)
		Expect(r.ExitCode).To(Equal(0), "%s", r)
		Expect(exists(configMaps, ns, "settings")).To(BeTrue())

		second := save("-f", v2, "--prune", "--applyset=app")
		By("the manifests of another run")
		r = ply("apply", "--kubeconfig", srv.Kubeconfig, "-n", ns, "-f", v1, "--prune", "--applyset=app", "--plan", second)
		Expect(r.ExitCode).To(Equal(1), "%s", r)
		Expect(r.Stderr).To(ContainSubstring("error: " + second + ": ConfigMap " + ns + "/settings: planned update, would now be unchanged\n"))
		Expect(r.Stderr).To(ContainSubstring("error: " + second + ": Deployment " + ns + "/old: planned prune, would now be unchanged\n"))
		Expect(r.Stderr).To(ContainSubstring("error: " + second + ": ConfigMap " + ns + "/new: in the plan (create), not in this run\n"))

		By("a live object changed since the plan")
		cm := live(configMaps, ns, "settings")
		before := cm.GetResourceVersion()
		cm.SetLabels(map[string]string{"touched": "yes"})
		_, err := srv.Dynamic().Resource(configMaps).Namespace(ns).Update(context.Background(), cm, metav1.UpdateOptions{})
		Expect(err).NotTo(HaveOccurred())
		after := live(configMaps, ns, "settings").GetResourceVersion()
		r = ply("apply", "--kubeconfig", srv.Kubeconfig, "-n", ns, "-f", v2, "--prune", "--applyset=app", "--plan", second)
		Expect(r.ExitCode).To(Equal(1), "%s", r)
		Expect(r.Stderr).To(Equal("error: " + second + ": ConfigMap " + ns + "/settings: the live object changed since the plan (resourceVersion \"" +
			before + "\" in the plan, \"" + after + "\" now)\n" +
			"error: not applied: the run no longer does what the plan " + second + " says; make the plan again (ply diff -o json)\n"))
		Expect(r.Stdout).To(BeEmpty())
		Expect(exists(configMaps, ns, "new")).To(BeFalse(), "nothing written")
		Expect(exists(configMaps, ns, "old")).To(BeTrue(), "nothing pruned")
	})

	It("holds the library's writes to a plan's resourceVersions (Options.Expect), conflicts' reads included", func() {
		ns := newNamespace("plan-")
		applyLibrary(libraryClient(ns), "stages/plan/v1.yaml")
		rv := live(configMaps, ns, "settings").GetResourceVersion()
		plan := cluster.Plan{Objects: []cluster.PlanObject{{APIVersion: "v1", Kind: "ConfigMap", Namespace: ns, Name: "settings", Action: cluster.PlanUpdate, ResourceVersion: rv}}}
		objs, err := cluster.ReadObjects([]string{fixture("stages/plan/v2.yaml")}, false, nil)
		Expect(err).NotTo(HaveOccurred())
		objs = objs[:1] // settings: mode green
		Expect(objs[0].Value.JSON()).To(ContainSubstring(`"name":"settings"`))

		cm := live(configMaps, ns, "settings")
		cm.SetLabels(map[string]string{"moved": "yes"})
		_, err = srv.Dynamic().Resource(configMaps).Namespace(ns).Update(context.Background(), cm, metav1.UpdateOptions{})
		Expect(err).NotTo(HaveOccurred())
		moved := live(configMaps, ns, "settings").GetResourceVersion()

		c, err := cluster.New(srv.Config, cluster.Options{Namespace: ns, Overwrite: true, Expect: plan.Expect()})
		Expect(err).NotTo(HaveOccurred())
		outs := c.Apply(context.Background(), objs)
		Expect(outs[0].Action).To(Equal(cluster.Failed))
		Expect(outs[0].Err).To(MatchError(`the live object changed since the plan (resourceVersion "` + rv + `" in the plan, "` + moved + `" now); nothing was written`))
		Expect(live(configMaps, ns, "settings").GetResourceVersion()).To(Equal(moved), "untouched")

		plan.Objects[0].ResourceVersion = moved
		c, err = cluster.New(srv.Config, cluster.Options{Namespace: ns, Overwrite: true, Expect: plan.Expect()})
		Expect(err).NotTo(HaveOccurred())
		outs = c.Apply(context.Background(), objs)
		Expect(outs[0].Err).NotTo(HaveOccurred())
		Expect(outs[0].Action).To(Equal(cluster.Configured))
	})

	It("holds an object the server-side lane applies for its size to the plan too (Options.Expect): read before its patch", func() {
		ns := newNamespace("plan-")
		objs, err := cluster.ReadObjects([]string{writeManifest(largeConfigMap(600, ""))}, false, nil)
		Expect(err).NotTo(HaveOccurred())
		plan := cluster.Plan{Objects: []cluster.PlanObject{{APIVersion: "v1", Kind: "ConfigMap", Namespace: ns, Name: "large", Action: cluster.PlanCreate}}}
		c, err := cluster.New(srv.Config, cluster.Options{Namespace: ns, Overwrite: true, Expect: plan.Expect()})
		Expect(err).NotTo(HaveOccurred())
		outs := c.Apply(context.Background(), objs)
		Expect(outs[0].Err).NotTo(HaveOccurred())
		Expect(outs[0].Action).To(Equal(cluster.ServerSideApplied))
		rv := live(configMaps, ns, "large").GetResourceVersion()

		By("the same plan again: the object exists now, nothing is written")
		outs = c.Apply(context.Background(), objs)
		Expect(outs[0].Action).To(Equal(cluster.Failed))
		Expect(outs[0].Err).To(MatchError(`the live object changed since the plan (resourceVersion none in the plan, "` + rv + `" now); nothing was written`))
		Expect(live(configMaps, ns, "large").GetResourceVersion()).To(Equal(rv))
	})

	It("diff --server-side-apply -o json plans the server-side apply: its changed fields with their values before and after", func() {
		ns := newNamespace("plan-")
		r := applyWith(srv.Kubeconfig, ns, []string{configMapWith("colours", map[string]any{"colour": "blue", "shade": "dark"})}, "--server-side")
		Expect(r.ExitCode).To(Equal(0), "%s", r)
		rv := live(configMaps, ns, "colours").GetResourceVersion()
		plan := diffPlan(ns, 1, "-f", configMapWith("colours", map[string]any{"colour": "green", "shade": "dark"}), "--server-side-apply")
		Expect(plan.Objects).To(HaveLen(1))
		o := plan.Objects[0]
		Expect(o.Action).To(Equal(cluster.PlanUpdate))
		Expect(o.ResourceVersion).To(Equal(rv))
		Expect(o.Digest).To(HavePrefix("sha256:"))
		var colour []cluster.PlanField
		for _, f := range o.Fields {
			Expect(f.Path).NotTo(ContainSubstring("shade"), "unchanged")
			if strings.Contains(f.Path, "colour") {
				colour = append(colour, f)
			}
		}
		Expect(colour).To(HaveLen(1), "%v", o.Fields)
		Expect(colour[0].Reason).To(Equal(cluster.ReasonServerSideApply))
		Expect(string(colour[0].Before)).To(Equal(`"blue"`), "the value before, which the plan showed none of without the paths")
		Expect(string(colour[0].After)).To(Equal(`"green"`))
		again := diffPlan(ns, 1, "-f", configMapWith("colours", map[string]any{"colour": "green", "shade": "dark"}), "--server-side-apply")
		Expect(again.Objects[0].Digest).To(Equal(o.Digest), "the same change planned twice")
	})
})
