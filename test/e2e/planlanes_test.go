package e2e

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"

	"github.com/plyproject/ply/pkg/cluster"
	"github.com/plyproject/ply/test/harness"
)

// savePlan runs ply with args (a diff -o json or an apply -o plan),
// expects wantCode and saves its standard output, the plan, to a file.
func savePlan(wantCode int, args ...string) string {
	GinkgoHelper()
	r := ply(args...)
	Expect(r.ExitCode).To(Equal(wantCode), "%s", r)
	_, err := cluster.ReadPlan(strings.NewReader(r.Stdout))
	Expect(err).NotTo(HaveOccurred(), r.Stdout)
	path := filepath.Join(GinkgoT().TempDir(), "plan.json")
	Expect(os.WriteFile(path, []byte(r.Stdout), 0o600)).To(Succeed())
	return path
}

// readPlan decodes the plan ply printed.
func readPlan(out string) cluster.Plan {
	GinkgoHelper()
	var p cluster.Plan
	Expect(json.Unmarshal([]byte(out), &p)).To(Succeed(), out)
	return p
}

// setData sets data.key of the live ConfigMap ns/name, as another writer.
func setData(ns, name, key, value string) {
	GinkgoHelper()
	update(configMaps, ns, name, func(u *unstructured.Unstructured) {
		Expect(unstructured.SetNestedField(u.Object, value, "data", key)).To(Succeed())
	})
}

var _ = Describe("plans in every lane, apply -o plan, and prune held to a plan", func() {
	It("apply --plan --server-side applies a plan of the server-side lane, and refuses one live moved away from", func() {
		ns := newNamespace("planssa-")
		v1, v2 := fixture("stages/plan/v1.yaml"), fixture("stages/plan/v2.yaml")
		r := applyWith(srv.Kubeconfig, ns, []string{v1}, "--server-side", "--prune", "--applyset=app")
		Expect(r.ExitCode).To(Equal(0), "%s", r)
		diff := []string{"diff", "--kubeconfig", srv.Kubeconfig, "-n", ns, "-f", v2, "--prune", "--applyset=app", "--server-side-apply", "-o", "json"}
		saved := savePlan(1, diff...)
		plan := readPlan(ply(diff...).Stdout)
		Expect(planLines(plan)).To(Equal([]string{"update configmap/settings", "update secret/creds", "create configmap/new",
			"prune deployment.apps/old", "prune configmap/old"}))

		r = applyWith(srv.Kubeconfig, ns, []string{v2}, "--server-side", "--prune", "--applyset=app", "--plan", saved)
		Expect(r.ExitCode).To(Equal(0), "%s", r)
		Expect(r.Stdout).To(Equal(lines("configmap/settings serverside-applied", "secret/creds serverside-applied", "configmap/new serverside-applied",
			"deployment.apps/old pruned", "configmap/old pruned")))
		Expect(field(live(configMaps, ns, "settings"), "data", "mode")).To(Equal("green"))

		By("live moved since the plan: refused, naming the object, nothing written")
		r = applyWith(srv.Kubeconfig, ns, []string{v1}, "--server-side", "--prune", "--applyset=app")
		Expect(r.ExitCode).To(Equal(0), "%s", r)
		saved = savePlan(1, diff...)
		before := live(configMaps, ns, "settings").GetResourceVersion()
		setData(ns, "settings", "mode", "red")
		after := live(configMaps, ns, "settings").GetResourceVersion()
		r = applyWith(srv.Kubeconfig, ns, []string{v2}, "--server-side", "--prune", "--applyset=app", "--plan", saved)
		Expect(r.ExitCode).To(Equal(1), "%s", r)
		Expect(r.Stderr).To(HavePrefix("error: " + saved + ": ConfigMap " + ns + "/settings: the live object changed since the plan (resourceVersion \"" +
			before + "\" in the plan, \"" + after + "\" now)\n"))
		// The other writer owns data.mode now: the server-side apply would
		// conflict, so prune would delete nothing, unlike the plan.
		Expect(r.Stderr).To(ContainSubstring("error: " + saved + ": ConfigMap " + ns + "/old: in the plan (prune), not in this run\n"))
		Expect(r.Stderr).To(HaveSuffix("error: not applied: the run no longer does what the plan " + saved + " says; make the plan again (ply diff -o json)\n"))
		Expect(field(live(configMaps, ns, "settings"), "data", "mode")).To(Equal("red"))
		Expect(exists(configMaps, ns, "old")).To(BeTrue(), "nothing pruned")
	})

	It("holds the server-side lane's patch to the resourceVersion read (Options.Expect): the server refuses an apply patch whose metadata.resourceVersion moved", func() {
		ns := newNamespace("planssa-")
		r := applyWith(srv.Kubeconfig, ns, []string{configMapWith("settings", map[string]any{"mode": "blue"})}, "--server-side")
		Expect(r.ExitCode).To(Equal(0), "%s", r)
		read, next := "", "red"
		// Expect runs between the read and the patch: the other writer
		// moves the object there (data.mode set to next), so the patch
		// carries a stale version.
		expect := func(ref cluster.Ref, rv string, exists bool) error {
			read = rv
			setData(ns, "settings", "mode", next)
			return nil
		}
		// --force-conflicts: the other writer's field is taken over, so
		// only the resourceVersion can stop the patch.
		c, err := cluster.New(srv.Config, cluster.Options{Namespace: ns, Lane: cluster.LaneServerSide, Expect: expect, ForceConflicts: true})
		Expect(err).NotTo(HaveOccurred())
		objs, err := cluster.ReadObjects([]string{configMapWith("settings", map[string]any{"mode": "green"})}, false, nil)
		Expect(err).NotTo(HaveOccurred())
		outs := c.Apply(context.Background(), objs)
		Expect(outs[0].Action).To(Equal(cluster.Failed))
		Expect(outs[0].Err).To(MatchError(`the live object changed since the plan (resourceVersion "` + read + `" in the plan); nothing was written`))
		Expect(field(live(configMaps, ns, "settings"), "data", "mode")).To(Equal("red"), "the other writer's value stays")

		By("without --force-conflicts, the other writer's field conflicts first: the move is named all the same")
		next = "purple"
		c, err = cluster.New(srv.Config, cluster.Options{Namespace: ns, Lane: cluster.LaneServerSide, Expect: expect})
		Expect(err).NotTo(HaveOccurred())
		outs = c.Apply(context.Background(), objs)
		Expect(outs[0].Err).To(MatchError(`the live object changed since the plan (resourceVersion "` + read + `" in the plan); nothing was written`))
		Expect(field(live(configMaps, ns, "settings"), "data", "mode")).To(Equal("purple"))

		By("without a move, the held patch is written")
		c, err = cluster.New(srv.Config, cluster.Options{Namespace: ns, Lane: cluster.LaneServerSide,
			Expect: func(cluster.Ref, string, bool) error { return nil }, ForceConflicts: true})
		Expect(err).NotTo(HaveOccurred())
		outs = c.Apply(context.Background(), objs)
		Expect(outs[0].Err).NotTo(HaveOccurred())
		Expect(field(live(configMaps, ns, "settings"), "data", "mode")).To(Equal("green"))
	})

	It("reports a held apply patch whose answer was lost, and whose repeat the server refused for the version it stored itself, as a lost write", func() {
		ns := newNamespace("planssa-")
		r := applyWith(srv.Kubeconfig, ns, []string{configMapWith("settings", map[string]any{"mode": "blue"})}, "--server-side")
		Expect(r.ExitCode).To(Equal(0), "%s", r)
		proxy, err := srv.StartProxy()
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(proxy.Close)
		// The first patch reaches the server (sent on by the interceptor),
		// and its answer is lost (503): the patch is repeated.
		path := harness.ObjectPath(configMaps, ns, "settings")
		var once sync.Once
		proxy.Intercept(func(w http.ResponseWriter, r *http.Request) bool {
			if r.Method != http.MethodPatch || r.URL.Path != path {
				return false
			}
			stored := false
			once.Do(func() {
				body, err := io.ReadAll(r.Body)
				Expect(err).NotTo(HaveOccurred())
				force := true
				_, err = srv.Dynamic().Resource(configMaps).Namespace(ns).Patch(r.Context(), "settings", types.ApplyPatchType, body,
					metav1.PatchOptions{FieldManager: r.URL.Query().Get("fieldManager"), Force: &force})
				Expect(err).NotTo(HaveOccurred())
				stored = true
			})
			if stored {
				http.Error(w, "the answer is lost", http.StatusServiceUnavailable)
			}
			return stored
		})
		c, err := cluster.New(proxy.Config, cluster.Options{Namespace: ns, Lane: cluster.LaneServerSide, ForceConflicts: true,
			Expect: func(cluster.Ref, string, bool) error { return nil }})
		Expect(err).NotTo(HaveOccurred())
		objs, err := cluster.ReadObjects([]string{configMapWith("settings", map[string]any{"mode": "green"})}, false, nil)
		Expect(err).NotTo(HaveOccurred())
		outs := c.Apply(context.Background(), objs)
		Expect(outs[0].Action).To(Equal(cluster.Failed))
		var lost *cluster.LostWriteError
		Expect(errors.As(outs[0].Err, &lost)).To(BeTrue(), "%v", outs[0].Err)
		Expect(outs[0].Err.Error()).To(HaveSuffix("(an earlier write of this object was sent and its answer lost: the server may hold it)"))
		Expect(field(live(configMaps, ns, "settings"), "data", "mode")).To(Equal("green"), "the lost patch was stored")
	})

	It("--server-side=auto plans each object in its lane: apply --dry-run=server -o plan (diff --server-side-apply=auto), then --plan and --confirm apply it", func() {
		ns := newNamespace("planauto-")
		r := applyWith(srv.Kubeconfig, ns, []string{configMapWith("a", map[string]any{"k": "1"})})
		Expect(r.ExitCode).To(Equal(0), "%s", r)
		r = applyWith(srv.Kubeconfig, ns, []string{configMapWith("b", map[string]any{"k": "1"})}, "--server-side")
		Expect(r.ExitCode).To(Equal(0), "%s", r)
		a2, b2 := configMapWith("a", map[string]any{"k": "2"}), configMapWith("b", map[string]any{"k": "2"})
		saved := savePlan(0, "apply", "--kubeconfig", srv.Kubeconfig, "-n", ns, "-f", a2, "-f", b2, "--server-side=auto", "--dry-run=server", "-o", "plan")
		data, err := os.ReadFile(saved)
		Expect(err).NotTo(HaveOccurred())
		plan := readPlan(string(data))
		Expect(planLines(plan)).To(Equal([]string{"update configmap/a", "update configmap/b"}))
		Expect(plan.Objects[1].Fields[0].Reason).To(Equal(cluster.ReasonServerSideApply), "b is planned server-side")
		Expect(plan.Objects[0].Fields[0].Reason).To(Equal(cluster.ReasonSetByLocal), "a is planned client-side")
		r = ply("diff", "--kubeconfig", srv.Kubeconfig, "-n", ns, "-f", a2, "-f", b2, "--server-side-apply=auto", "-o", "json")
		Expect(r.ExitCode).To(Equal(1), "%s", r)
		Expect(readPlan(r.Stdout)).To(Equal(plan), "diff --server-side-apply=auto plans the same")

		r = applyWith(srv.Kubeconfig, ns, []string{a2, b2}, "--server-side=auto", "--plan", saved)
		Expect(r.ExitCode).To(Equal(0), "%s", r)
		Expect(r.Stdout).To(Equal(lines("configmap/a configured (client-side)", "configmap/b serverside-applied (server-side)")))

		r = applyWith(srv.Kubeconfig, ns, []string{configMapWith("a", map[string]any{"k": "3"}), configMapWith("b", map[string]any{"k": "3"})},
			"--server-side=auto", "--confirm", "--yes")
		Expect(r.ExitCode).To(Equal(0), "%s", r)
		Expect(r.Stderr).To(Equal("Plan: 0 to create, 2 to update, 0 to recreate, 0 to prune, 0 unchanged, 0 ignored, 0 failed.\n"))
		Expect(r.Stdout).To(HaveSuffix(lines("configmap/a configured (client-side)", "configmap/b serverside-applied (server-side)")))
	})

	It("apply --dry-run=server|client -o plan prints the plan ply diff -o json|plan prints; -o yaml keeps kubectl's List", func() {
		ns := newNamespace("planout-")
		v1, v2 := fixture("stages/plan/v1.yaml"), fixture("stages/plan/v2.yaml")
		Expect(applyWith(srv.Kubeconfig, ns, []string{v1}, "--prune", "--applyset=app").ExitCode).To(Equal(0))
		base := []string{"--kubeconfig", srv.Kubeconfig, "-n", ns, "-f", v2, "--prune", "--applyset=app"}
		plans := func(args ...string) cluster.Plan {
			GinkgoHelper()
			r := ply(args...)
			Expect(r.ExitCode).To(BeNumerically("<=", 1), "%s", r)
			return readPlan(r.Stdout)
		}
		server := plans(append([]string{"diff", "-o", "json"}, base...)...)
		Expect(server.Summary).To(Equal(cluster.PlanSummary{Create: 1, Update: 2, Prune: 2}))
		Expect(plans(append([]string{"diff", "-o", "plan"}, base...)...)).To(Equal(server))
		Expect(plans(append([]string{"apply", "--dry-run=server", "-o", "plan"}, base...)...)).To(Equal(server))
		Expect(plans(append([]string{"apply", "--dry-run=client", "-o", "plan"}, base...)...)).To(
			Equal(plans(append([]string{"diff", "--server-side=false", "-o", "json"}, base...)...)))
		Expect(plans(append([]string{"apply", "--dry-run=server", "--server-side", "-o", "plan"}, base...)...)).To(
			Equal(plans(append([]string{"diff", "--server-side-apply", "-o", "json"}, base...)...)))
		r := ply(append([]string{"apply", "--dry-run=server", "-o", "plan"}, base...)...)
		Expect(r.ExitCode).To(Equal(0), "apply's exit codes: %s", r)
		Expect(live(configMaps, ns, "settings").Object["data"]).To(Equal(map[string]any{"mode": "blue"}), "nothing written")

		r = ply(append([]string{"apply", "--dry-run=server", "-o", "yaml"}, base...)...)
		Expect(r.ExitCode).To(Equal(0), "%s", r)
		Expect(r.Stdout).To(HavePrefix("apiVersion: v1\nitems:\n"))
	})

	It("apply --plan refuses a plan whose object to prune changed since, deleting nothing", func() {
		ns := newNamespace("planprune-")
		v1, v2 := fixture("stages/plan/v1.yaml"), fixture("stages/plan/v2.yaml")
		Expect(applyWith(srv.Kubeconfig, ns, []string{v1}, "--prune", "--applyset=app").ExitCode).To(Equal(0))
		saved := savePlan(1, "diff", "--kubeconfig", srv.Kubeconfig, "-n", ns, "-f", v2, "--prune", "--applyset=app", "-o", "json")
		before := live(configMaps, ns, "old").GetResourceVersion()
		setData(ns, "old", "k", "changed")
		after := live(configMaps, ns, "old").GetResourceVersion()
		r := applyWith(srv.Kubeconfig, ns, []string{v2}, "--prune", "--applyset=app", "--plan", saved)
		Expect(r.ExitCode).To(Equal(1), "%s", r)
		Expect(r.Stderr).To(HavePrefix("error: " + saved + ": ConfigMap " + ns + "/old: the live object changed since the plan (resourceVersion \"" +
			before + "\" in the plan, \"" + after + "\" now)\n"))
		Expect(field(live(configMaps, ns, "old"), "data", "k")).To(Equal("changed"), "not deleted")
		Expect(field(live(configMaps, ns, "settings"), "data", "mode")).To(Equal("blue"), "nothing written")
	})

	It("holds prune's deletions to the plan's resourceVersions (Options.ExpectPrune): an object changed just before its delete is not deleted", func() {
		ns := newNamespace("planprune-")
		c := libraryClient(ns)
		v1, err := cluster.ReadObjects([]string{fixture("stages/plan/v1.yaml")}, false, nil)
		Expect(err).NotTo(HaveOccurred())
		outs, err := c.ApplyPrune(context.Background(), v1, cluster.Prune{ApplySet: "configmaps/lib"})
		Expect(err).NotTo(HaveOccurred())
		Expect(outs).To(HaveLen(4))
		planned := map[string]string{}
		for _, name := range []string{"old"} {
			planned[name] = live(configMaps, ns, name).GetResourceVersion()
		}
		// ExpectPrune runs just before each delete: the other writer
		// changes the ConfigMap there; the Deployment is not in the plan.
		expectPrune := func(ref cluster.Ref) (string, bool) {
			rv, ok := planned[ref.Name]
			if ok && ref.Kind == "ConfigMap" {
				setData(ns, ref.Name, "k", "changed")
			}
			return rv, ok && ref.Kind == "ConfigMap"
		}
		c, err = cluster.New(srv.Config, cluster.Options{Namespace: ns, Overwrite: true, ExpectPrune: expectPrune})
		Expect(err).NotTo(HaveOccurred())
		v2, err := cluster.ReadObjects([]string{fixture("stages/plan/v2.yaml")}, false, nil)
		Expect(err).NotTo(HaveOccurred())
		outs, err = c.ApplyPrune(context.Background(), v2, cluster.Prune{ApplySet: "configmaps/lib"})
		Expect(err).To(MatchError(ContainSubstring("2 of 2 objects could not be pruned")))
		Expect(outs).To(HaveLen(5))
		Expect(outs[3].Ref.Name + ": " + outs[3].Err.Error()).To(Equal("old: not among the plan's deletions; not deleted"))
		Expect(outs[4].Ref.Name + ": " + outs[4].Err.Error()).To(Equal(`old: the live object changed since the plan (resourceVersion "` +
			planned["old"] + `" in the plan); not deleted`))
		Expect(field(live(configMaps, ns, "old"), "data", "k")).To(Equal("changed"), "the ConfigMap is not deleted")
		Expect(srv.Dynamic().Resource(deployments).Namespace(ns).Get(context.Background(), "old", metav1.GetOptions{})).NotTo(BeNil(),
			"the Deployment the plan does not delete stays")
	})
})
