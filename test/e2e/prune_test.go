package e2e

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/plyproject/ply/pkg/cluster"
	"github.com/plyproject/ply/test/harness"
)

var (
	gadgets = schema.GroupVersionResource{Group: "prune.e2e.ply.dev", Version: "v1", Resource: "gadgets"}
	bundles = schema.GroupVersionResource{Group: "prune.e2e.ply.dev", Version: "v1", Resource: "bundles"}
)

// pruneManifests copies the folder testdata/prune/dir to a temporary
// folder with NS_A and NS_B replaced by nsA and nsB, and returns it.
func pruneManifests(dir, nsA, nsB string) string {
	GinkgoHelper()
	src := fixture(filepath.Join("prune", dir))
	dst := GinkgoT().TempDir()
	entries, err := os.ReadDir(src)
	Expect(err).NotTo(HaveOccurred())
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		data, err := os.ReadFile(filepath.Join(src, e.Name()))
		Expect(err).NotTo(HaveOccurred())
		text := strings.NewReplacer("NS_A", nsA, "NS_B", nsB).Replace(string(data))
		Expect(os.WriteFile(filepath.Join(dst, e.Name()), []byte(text), 0o644)).To(Succeed())
	}
	return dst
}

// plyNS runs ply apply as the admin with -n ns (none when ns is empty),
// the folder dir and extra flags.
func plyNS(ns, dir string, extra ...string) harness.Result {
	GinkgoHelper()
	args := []string{"apply", "--kubeconfig", srv.Kubeconfig, "-f", dir}
	if ns != "" {
		args = append(args, "-n", ns)
	}
	return ply(append(args, extra...)...)
}

// outLines returns the lines of out.
func outLines(out string) []string {
	return strings.Split(strings.TrimSuffix(out, "\n"), "\n")
}

// exists reports whether the object exists and is not being deleted.
func exists(gvr schema.GroupVersionResource, ns, name string) bool {
	GinkgoHelper()
	u, err := srv.Dynamic().Resource(gvr).Namespace(ns).Get(context.Background(), name, metav1.GetOptions{})
	return err == nil && u.GetDeletionTimestamp() == nil
}

// parentSpec is an ApplySet parent the prune table runs against.
type parentSpec struct {
	// flag is the --applyset value, given the spec's first namespace.
	flag func(nsA string) string
	// namespaced parents take -n, and every object is in that namespace;
	// with a cluster-scoped parent the objects span two namespaces.
	namespaced bool
	// gvr, name, namespace locate the parent once it exists.
	gvr       schema.GroupVersionResource
	kind      string
	group     string
	name      func(nsA string) string
	setup     func(nsA string)
	namespace func(nsA string) string
}

var secretParent = parentSpec{
	flag: func(string) string { return "app" }, namespaced: true,
	gvr: secrets, kind: "Secret", name: func(string) string { return "app" }, namespace: func(ns string) string { return ns },
}

var _ = Describe("ply apply --prune --applyset", func() {
	BeforeEach(func() {
		r := plyNS("", fixture("prune/bundle-crd.yaml"))
		Expect(r.ExitCode).To(Equal(0), "%s", r)
		Eventually(func() error {
			_, err := srv.Dynamic().Resource(bundles).List(context.Background(), metav1.ListOptions{})
			return err
		}).Should(Succeed())
	})

	DescribeTable("prunes what a run no longer holds, and keeps the parent's record of the set",
		func(p parentSpec) {
			nsA := newNamespace("prune-")
			nsB := nsA
			ns := nsA
			if !p.namespaced {
				nsB, ns = newNamespace("prune-b-"), ""
			}
			if p.setup != nil {
				p.setup(nsA)
			}
			set := "--applyset=" + p.flag(nsA)
			id := cluster.ApplySetID(p.name(nsA), p.namespace(nsA), p.kind, p.group)

			r := plyNS(ns, pruneManifests("v1", nsA, nsB), "--prune", set)
			Expect(r.ExitCode).To(Equal(0), "%s", r)
			Expect(outLines(r.Stdout)).To(Equal([]string{"configmap/keep created", "configmap/old created", "configmap/old-b created",
				"service/web created", "deployment.apps/web created"}))
			parent := live(p.gvr, p.namespace(nsA), p.name(nsA))
			Expect(parent.GetLabels()).To(HaveKeyWithValue(cluster.ApplySetIDLabel, id))
			ann := parent.GetAnnotations()
			Expect(ann[cluster.ApplySetToolingAnnotation]).To(HavePrefix("ply/v"))
			Expect(ann).To(HaveKeyWithValue(cluster.ApplySetGroupKindsAnnotation, "ConfigMap,Deployment.apps,Service"))
			wantNS := ""
			if !p.namespaced {
				wantNS = strings.Join(sortedPair(nsA, nsB), ",")
			}
			Expect(ann).To(HaveKeyWithValue(cluster.ApplySetNamespacesAnnotation, wantNS))
			cm := live(configMaps, nsA, "old")
			Expect(cm.GetLabels()).To(HaveKeyWithValue(cluster.ApplySetPartOfLabel, id))
			Expect(cm.GetAnnotations()[lastApplied]).To(ContainSubstring(`"labels":{"`+cluster.ApplySetPartOfLabel+`":"`+id+`"}`),
				"the label is part of the applied configuration, as kubectl records it")

			r = plyNS(ns, pruneManifests("v2", nsA, nsB), "--prune", set)
			Expect(r.ExitCode).To(Equal(0), "%s", r)
			Expect(outLines(r.Stdout)).To(HaveExactElements("configmap/keep unchanged", "configmap/new created",
				// pruned in the reverse of the apply stages (workloads, then
				// what they refer to), each by kind, then namespace and name
				"deployment.apps/web pruned",
				BeElementOf("configmap/old pruned", "configmap/old-b pruned"), BeElementOf("configmap/old pruned", "configmap/old-b pruned"),
				"service/web pruned"))
			Expect(outLines(r.Stdout)).To(ContainElements("configmap/old pruned", "configmap/old-b pruned"))
			expectAbsent(configMaps, nsA, "old")
			expectAbsent(configMaps, nsB, "old-b")
			expectAbsent(services, nsA, "web")
			expectAbsent(deployments, nsB, "web")
			Expect(exists(configMaps, nsA, "keep")).To(BeTrue())
			ann = live(p.gvr, p.namespace(nsA), p.name(nsA)).GetAnnotations()
			Expect(ann).To(HaveKeyWithValue(cluster.ApplySetGroupKindsAnnotation, "ConfigMap"))
			Expect(ann).To(HaveKeyWithValue(cluster.ApplySetNamespacesAnnotation, wantNS))

			r = plyNS(ns, pruneManifests("v3", nsA, nsB), "--prune", set)
			Expect(r.ExitCode).To(Equal(0), "%s", r)
			Expect(outLines(r.Stdout)).To(Equal([]string{"configmap/keep unchanged", "configmap/new pruned"}))
			expectAbsent(configMaps, nsB, "new")
			ann = live(p.gvr, p.namespace(nsA), p.name(nsA)).GetAnnotations()
			if !p.namespaced {
				Expect(ann).To(HaveKeyWithValue(cluster.ApplySetNamespacesAnnotation, nsA), "NS_B holds no member any more")
			}
		},
		Entry("a Secret parent (the default), in the namespace of -n", secretParent),
		Entry("a ConfigMap parent", parentSpec{
			flag: func(string) string { return "configmaps/app-set" }, namespaced: true,
			gvr: configMaps, kind: "ConfigMap", name: func(string) string { return "app-set" }, namespace: func(ns string) string { return ns },
		}),
		Entry("a cluster-scoped custom resource parent (resource.group), members in two namespaces", parentSpec{
			flag: func(ns string) string { return "bundles.prune.e2e.ply.dev/" + ns },
			gvr:  bundles, kind: "Bundle", group: "prune.e2e.ply.dev",
			name: func(ns string) string { return ns }, namespace: func(string) string { return "" },
			setup: func(ns string) { createBundle(ns) },
		}),
		Entry("a cluster-scoped custom resource parent named by Kind.group", parentSpec{
			flag: func(ns string) string { return "Bundle.prune.e2e.ply.dev/" + ns },
			gvr:  bundles, kind: "Bundle", group: "prune.e2e.ply.dev",
			name: func(ns string) string { return ns }, namespace: func(string) string { return "" },
			setup: func(ns string) { createBundle(ns) },
		}),
	)

	It("prunes a custom resource before its CustomResourceDefinition", func() {
		ns := newNamespace("prune-crd-")
		r := plyNS(ns, pruneManifests("crd/v1", ns, ns), "--prune", "--applyset=app")
		Expect(r.ExitCode).To(Equal(0), "%s", r)
		Expect(outLines(r.Stdout)).To(Equal([]string{"customresourcedefinition.apiextensions.k8s.io/gadgets.prune.e2e.ply.dev created",
			"gadget.prune.e2e.ply.dev/g1 created", "configmap/settings created"}))
		Expect(live(secrets, ns, "app").GetAnnotations()).To(HaveKeyWithValue(cluster.ApplySetGroupKindsAnnotation,
			"ConfigMap,CustomResourceDefinition.apiextensions.k8s.io,Gadget.prune.e2e.ply.dev"))

		r = plyNS(ns, pruneManifests("crd/v2", ns, ns), "--prune", "--applyset=app")
		Expect(r.ExitCode).To(Equal(0), "%s", r)
		Expect(outLines(r.Stdout)).To(Equal([]string{"configmap/settings configured",
			"gadget.prune.e2e.ply.dev/g1 pruned", "customresourcedefinition.apiextensions.k8s.io/gadgets.prune.e2e.ply.dev pruned"}))
		Eventually(func() bool {
			return exists(crds, "", "gadgets.prune.e2e.ply.dev")
		}).Should(BeFalse())
		Expect(live(secrets, ns, "app").GetAnnotations()).To(HaveKeyWithValue(cluster.ApplySetGroupKindsAnnotation, "ConfigMap"))
	})

	It("prunes nothing when an object fails, and keeps both runs' kinds on the parent", func() {
		ns := newNamespace("prune-fail-")
		Expect(plyNS(ns, pruneManifests("v1", ns, ns), "--prune", "--applyset=app").ExitCode).To(Equal(0))
		r := plyNS(ns, pruneManifests("failed", ns, ns), "--prune", "--applyset=app")
		Expect(r.ExitCode).To(Equal(1), "%s", r)
		Expect(r.Stderr).To(ContainSubstring(`error: deployments.apps "broken"`))
		Expect(r.Stderr).To(ContainSubstring("error: pruning skipped: 1 object failed to apply; nothing was deleted\n"))
		Expect(r.Stdout).NotTo(ContainSubstring("pruned"))
		for _, o := range []struct {
			gvr  schema.GroupVersionResource
			name string
		}{{configMaps, "old"}, {configMaps, "old-b"}, {services, "web"}, {deployments, "web"}} {
			Expect(exists(o.gvr, ns, o.name)).To(BeTrue(), "%s %s", o.gvr.Resource, o.name)
		}
		Expect(live(secrets, ns, "app").GetAnnotations()).To(HaveKeyWithValue(cluster.ApplySetGroupKindsAnnotation, "ConfigMap,Deployment.apps,Service"))

		r = plyNS(ns, pruneManifests("v2", ns, ns), "--prune", "--applyset=app")
		Expect(r.ExitCode).To(Equal(0), "%s", r)
		Expect(r.Stdout).To(ContainSubstring("deployment.apps/web pruned\n"), "the next good run prunes")
	})

	DescribeTable("a dry run prints what would be pruned and changes nothing",
		func(dry string, extra []string, want []string) {
			ns := newNamespace("prune-dry-")
			Expect(plyNS(ns, pruneManifests("v1", ns, ns), "--prune", "--applyset=app").ExitCode).To(Equal(0))
			before := live(secrets, ns, "app").GetResourceVersion()
			r := plyNS(ns, pruneManifests("v2", ns, ns), append([]string{"--prune", "--applyset=app", "--dry-run=" + dry}, extra...)...)
			Expect(r.ExitCode).To(Equal(0), "%s", r)
			Expect(outLines(r.Stdout)).To(ContainElements(want))
			for _, name := range []string{"old", "old-b"} {
				Expect(exists(configMaps, ns, name)).To(BeTrue())
			}
			Expect(exists(services, ns, "web")).To(BeTrue())
			Expect(exists(deployments, ns, "web")).To(BeTrue())
			expectAbsent(configMaps, ns, "new")
			Expect(live(secrets, ns, "app").GetResourceVersion()).To(Equal(before), "the parent is not written")
		},
		Entry("client", "client", nil, []string{"configmap/new created (dry run)", "configmap/old pruned (dry run)", "service/web pruned (dry run)",
			"deployment.apps/web pruned (dry run)"}),
		Entry("server", "server", nil, []string{"configmap/new created (server dry run)", "configmap/old pruned (server dry run)",
			"service/web pruned (server dry run)", "deployment.apps/web pruned (server dry run)"}),
		Entry("server, -o name (names only, as kubectl's)", "server", []string{"-o", "name"}, []string{"configmap/new", "configmap/old", "deployment.apps/web"}),
	)

	It("prints a pruned Secret with its values masked, unless --show-secrets", func() {
		for _, show := range []bool{false, true} {
			ns := newNamespace("prune-secret-")
			var extra []string
			if show {
				extra = []string{"--show-secrets"}
			}
			r := plyNS(ns, fixture("secret.yaml"), append([]string{"--prune", "--applyset=app", "-o", "yaml"}, extra...)...)
			Expect(r.ExitCode).To(Equal(0), "%s", r)
			r = plyNS(ns, fixture("configmap.yaml"), append([]string{"--prune", "--applyset=app", "-o", "yaml"}, extra...)...)
			Expect(r.ExitCode).To(Equal(0), "%s", r)
			Expect(r.Stdout).To(ContainSubstring("name: creds\n"), "the pruned Secret is printed")
			expectAbsent(secrets, ns, "creds")
			if show {
				Expect(leaked(r.Stdout+r.Stderr)).NotTo(BeEmpty(), "--show-secrets prints the values: the check can fail")
			} else {
				Expect(leaked(r.Stdout + r.Stderr)).To(BeEmpty())
				Expect(r.Stdout).To(ContainSubstring("token: '***'"))
			}
		}
	})

	It("takes a kubectl set back with --applyset-tooling=ply/..., which kubectl then refuses", func() {
		ns := newNamespace("prune-back-")
		kubectl := func(dir string) harness.Result {
			GinkgoHelper()
			return run(kubectlBin, []string{"KUBECTL_APPLYSET=true"}, "apply", "--kubeconfig", srv.Kubeconfig, "-n", ns, "-f", dir,
				"--prune", "--applyset=app")
		}
		r := kubectl(pruneManifests("v1", ns, ns))
		Expect(r.ExitCode).To(Equal(0), "%s", r)
		Expect(live(secrets, ns, "app").GetAnnotations()[cluster.ApplySetToolingAnnotation]).To(HavePrefix("kubectl/v1.32."))

		r = plyNS(ns, pruneManifests("v2", ns, ns), "--prune", "--applyset=app", "--applyset-tooling=ply/v9.9.9")
		Expect(r.ExitCode).To(Equal(0), "%s", r)
		Expect(r.Stdout).To(ContainSubstring("service/web pruned\n"), "ply prunes what kubectl applied")
		parent := live(secrets, ns, "app")
		Expect(parent.GetAnnotations()).To(HaveKeyWithValue(cluster.ApplySetToolingAnnotation, "ply/v9.9.9"))
		var managers []string
		for _, m := range parent.GetManagedFields() {
			managers = append(managers, m.Manager)
		}
		Expect(managers).To(ContainElement("ply-applyset"), "the annotations kubectl-applyset held were forced over")

		r = kubectl(pruneManifests("v3", ns, ns))
		Expect(r.ExitCode).NotTo(Equal(0), "%s", r)
		Expect(r.Stderr).To(ContainSubstring(`is managed by tooling "ply" instead of "kubectl"`))
		Expect(exists(configMaps, ns, "new")).To(BeTrue(), "kubectl pruned nothing")
	})

	It("reports pruned objects to the library's caller after the applied ones", func() {
		ns := newNamespace("prune-lib-")
		var mu sync.Mutex
		reported := map[int]cluster.Outcome{}
		c, err := cluster.New(srv.Config, cluster.Options{Namespace: ns, Overwrite: true, Report: func(i int, o cluster.Outcome) {
			mu.Lock()
			defer mu.Unlock()
			reported[i] = o
		}})
		Expect(err).NotTo(HaveOccurred())
		read := func(dir string) []cluster.Object {
			objs, err := cluster.ReadObjects([]string{pruneManifests(dir, ns, ns)}, false, nil)
			Expect(err).NotTo(HaveOccurred())
			return objs
		}
		outs, err := c.ApplyPrune(context.Background(), read("v1"), cluster.Prune{ApplySet: "configmaps/lib"})
		Expect(err).NotTo(HaveOccurred())
		Expect(outs).To(HaveLen(5))
		clear(reported)
		v3 := read("v3")
		outs, err = c.ApplyPrune(context.Background(), v3, cluster.Prune{ApplySet: "configmaps/lib", Propagation: metav1.DeletePropagationForeground})
		Expect(err).NotTo(HaveOccurred())
		Expect(outs).To(HaveLen(5), "keep, then the Deployment, old, old-b and the Service")
		Expect(outs[0].Action).To(Equal(cluster.Unchanged))
		for i, o := range outs[1:] {
			Expect(o.Action).To(Equal(cluster.Pruned), "%s", o.Ref)
			Expect(o.Object.Source).To(Equal(cluster.PruneSource))
			Expect(o.Ref.Namespace).To(Equal(ns))
			Expect(reported).To(HaveKeyWithValue(len(v3)+i, o), "reported at its index after the applied objects")
		}
		Expect(outs[1].Ref.String()).To(Equal("deployment.apps/web"))
		Expect(outs[1].Result.JSON()).To(ContainSubstring(`"image":"nginx:1.27"`), "the object as it was")
		Expect(live(deployments, ns, "web").GetFinalizers()).To(ContainElement(metav1.FinalizerDeleteDependents))

		_, err = c.ApplyPrune(context.Background(), v3, cluster.Prune{})
		Expect(err).To(MatchError("prune: set exactly one of ApplySet, Selector and All"))
	})

	It("reads a parent's older contains-group-resources annotation, and refuses a Secret that is not a parent", func() {
		ns := newNamespace("prune-old-")
		id := cluster.ApplySetID("app", ns, "Secret", "")
		mk := func(obj map[string]any, gvr schema.GroupVersionResource) {
			GinkgoHelper()
			_, err := srv.Dynamic().Resource(gvr).Namespace(ns).Create(context.Background(), &unstructured.Unstructured{Object: obj}, metav1.CreateOptions{})
			Expect(err).NotTo(HaveOccurred())
		}
		mk(map[string]any{"apiVersion": "v1", "kind": "Secret", "metadata": map[string]any{"name": "app",
			"labels":      map[string]any{cluster.ApplySetIDLabel: id},
			"annotations": map[string]any{cluster.ApplySetToolingAnnotation: "kubectl/v1.27.0", cluster.ApplySetGroupResourcesAnnotation: "configmaps"}}}, secrets)
		mk(map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "stale",
			"labels": map[string]any{cluster.ApplySetPartOfLabel: id}}}, configMaps)
		r := plyNS(ns, pruneManifests("v3", ns, ns), "--prune", "--applyset=app")
		Expect(r.ExitCode).To(Equal(0), "%s", r)
		Expect(outLines(r.Stdout)).To(Equal([]string{"configmap/keep created", "configmap/stale pruned"}))
		ann := live(secrets, ns, "app").GetAnnotations()
		Expect(ann).To(HaveKeyWithValue(cluster.ApplySetGroupKindsAnnotation, "ConfigMap"))
		Expect(ann).To(HaveKeyWithValue(cluster.ApplySetToolingAnnotation, "kubectl/v1.27.0"), "kubectl's set stays kubectl's")

		mk(map[string]any{"apiVersion": "v1", "kind": "Secret", "metadata": map[string]any{"name": "plain"}}, secrets)
		r = plyNS(ns, pruneManifests("v3", ns, ns), "--prune", "--applyset=plain")
		Expect(r.ExitCode).To(Equal(1), "%s", r)
		Expect(r.Stderr).To(ContainSubstring(`the ApplySet parent secret "plain" in namespace "` + ns + `" exists without the annotation applyset.kubernetes.io/tooling`))
	})

	// parentWith creates the Secret parent "app" of ns as kubectl would
	// have left it, with annotations ann.
	parentWith := func(ns string, ann map[string]any) string {
		GinkgoHelper()
		id := cluster.ApplySetID("app", ns, "Secret", "")
		ann[cluster.ApplySetToolingAnnotation] = "kubectl/v1.32.0"
		parent := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "Secret",
			"metadata": map[string]any{"name": "app", "labels": map[string]any{cluster.ApplySetIDLabel: id}, "annotations": ann}}}
		_, err := srv.Dynamic().Resource(secrets).Namespace(ns).Create(context.Background(), parent, metav1.CreateOptions{})
		Expect(err).NotTo(HaveOccurred())
		return id
	}
	// member creates a ConfigMap of the set id in ns.
	member := func(ns, name, id string) {
		GinkgoHelper()
		cm := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "ConfigMap",
			"metadata": map[string]any{"name": name, "labels": map[string]any{cluster.ApplySetPartOfLabel: id}}}}
		_, err := srv.Dynamic().Resource(configMaps).Namespace(ns).Create(context.Background(), cm, metav1.CreateOptions{})
		Expect(err).NotTo(HaveOccurred())
	}

	It("with --wait, waits for what it applied to be Current and for what it pruned to be gone", func() {
		ns := newNamespace("prune-wait-")
		Expect(plyNS(ns, pruneManifests("v1", ns, ns), "--prune", "--applyset=app").ExitCode).To(Equal(0))
		r := plyNS(ns, pruneManifests("v2", ns, ns), "--prune", "--applyset=app", "--wait", "--timeout=1m")
		Expect(r.ExitCode).To(Equal(0), "%s", r)
		lines := outLines(r.Stdout)
		Expect(lines).To(ContainElements("configmap/old pruned", "deployment.apps/web pruned",
			"2 objects Current when first read (configmaps: 2)"), "%s", r)
		for _, gone := range []string{"configmap/old", "service/web", "deployment.apps/web"} {
			// Gone when first read (counted in a summary line), or after a wait (a line of its own).
			if !slices.Contains(lines, gone+" NotFound: deleted") {
				Expect(r.Stdout).To(MatchRegexp(`\d+ objects? NotFound when first read \(`), "%s: %s", gone, r)
			}
		}
		expectAbsent(deployments, ns, "web")
	})

	It("prunes a member its parent lists under two groups of one kind once", func() {
		ns := newNamespace("prune-twice-")
		id := parentWith(ns, map[string]any{cluster.ApplySetGroupKindsAnnotation: "ConfigMap,Event,Event.events.k8s.io"})
		ev := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "Event",
			"metadata":       map[string]any{"name": "stale", "labels": map[string]any{cluster.ApplySetPartOfLabel: id}},
			"involvedObject": map[string]any{"kind": "ConfigMap", "name": "keep", "namespace": ns},
			"reason":         "Test", "message": "listed as Event and as Event.events.k8s.io", "type": "Normal"}}
		_, err := srv.Dynamic().Resource(schema.GroupVersionResource{Version: "v1", Resource: "events"}).Namespace(ns).
			Create(context.Background(), ev, metav1.CreateOptions{})
		Expect(err).NotTo(HaveOccurred())
		r := plyNS(ns, pruneManifests("v3", ns, ns), "--prune", "--applyset=app")
		Expect(r.ExitCode).To(Equal(0), "%s", r)
		Expect(outLines(r.Stdout)).To(HaveLen(2), "%s", r)
		Expect(outLines(r.Stdout)[0]).To(Equal("configmap/keep created"))
		Expect(outLines(r.Stdout)[1]).To(MatchRegexp(`^event(\.events\.k8s\.io)?/stale pruned$`))
	})

	It("keeps listing kinds the server does not serve now, and prunes nothing of them", func() {
		ns := newNamespace("prune-unserved-")
		id := parentWith(ns, map[string]any{cluster.ApplySetGroupKindsAnnotation: "ConfigMap,Lantern.unserved.e2e.ply.dev"})
		member(ns, "stale", id)
		r := plyNS(ns, pruneManifests("v3", ns, ns), "--prune", "--applyset=app")
		Expect(r.ExitCode).To(Equal(0), "%s", r)
		Expect(outLines(r.Stdout)).To(Equal([]string{"configmap/keep created", "configmap/stale pruned"}))
		Expect(live(secrets, ns, "app").GetAnnotations()).To(HaveKeyWithValue(cluster.ApplySetGroupKindsAnnotation,
			"ConfigMap,Lantern.unserved.e2e.ply.dev"), "the unserved kind stays listed for a later run")
	})

	It("reads an empty entry of additional-namespaces as nothing, never as every namespace", func() {
		ns, other := newNamespace("prune-nsempty-"), newNamespace("prune-nsother-")
		id := parentWith(ns, map[string]any{cluster.ApplySetGroupKindsAnnotation: "ConfigMap", cluster.ApplySetNamespacesAnnotation: ","})
		member(ns, "stale", id)
		member(other, "elsewhere", id)
		r := plyNS(ns, pruneManifests("v3", ns, ns), "--prune", "--applyset=app")
		Expect(r.ExitCode).To(Equal(0), "%s", r)
		Expect(outLines(r.Stdout)).To(Equal([]string{"configmap/keep created", "configmap/stale pruned"}))
		Expect(exists(configMaps, other, "elsewhere")).To(BeTrue(), "a namespace the parent does not list is not searched")
	})

	It("refuses to prune after applying nothing (the library; the CLI refuses empty input)", func() {
		cl, err := cluster.New(srv.Config, cluster.Options{Namespace: newNamespace("prune-empty-")})
		Expect(err).NotTo(HaveOccurred())
		_, err = cl.ApplyPrune(context.Background(), nil, cluster.Prune{ApplySet: "app"})
		Expect(err).To(MatchError(ContainSubstring("no objects to apply")))
	})

	It("refuses a parent another tool manages, writing nothing", func() {
		ns := newNamespace("prune-foreign-")
		foreign := &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": "v1", "kind": "Secret",
			"metadata": map[string]any{"name": "app", "namespace": ns,
				"labels":      map[string]any{cluster.ApplySetIDLabel: cluster.ApplySetID("app", ns, "Secret", "")},
				"annotations": map[string]any{cluster.ApplySetToolingAnnotation: "helm/v3.14.0", cluster.ApplySetGroupKindsAnnotation: "ConfigMap"}},
		}}
		_, err := srv.Dynamic().Resource(secrets).Namespace(ns).Create(context.Background(), foreign, metav1.CreateOptions{})
		Expect(err).NotTo(HaveOccurred())
		r := plyNS(ns, pruneManifests("v1", ns, ns), "--prune", "--applyset=app")
		Expect(r.ExitCode).To(Equal(1), "%s", r)
		Expect(r.Stderr).To(ContainSubstring(`is managed by the tool "helm" (applyset.kubernetes.io/tooling=helm/v3.14.0), not by ply or kubectl: refusing to change it`))
		expectAbsent(configMaps, ns, "keep")
		Expect(live(secrets, ns, "app").GetAnnotations()).To(HaveKeyWithValue(cluster.ApplySetToolingAnnotation, "helm/v3.14.0"))
	})

	DescribeTable("refuses parents kubectl refuses",
		func(flag string, ns bool, want string) {
			n := newNamespace("prune-bad-")
			if !ns {
				n = ""
			}
			r := plyNS(n, fixture("configmap.yaml"), "--prune", "--applyset="+flag)
			Expect(r.ExitCode).To(Equal(1), "%s", r)
			Expect(r.Stderr).To(ContainSubstring(want))
			Expect(r.Stderr).NotTo(ContainSubstring("Options."), "the CLI names its flags, not the library's options")
		},
		Entry("a kind that is not a parent type", "deployments.apps/app", true, `resource "deployments.apps" is not permitted as an ApplySet parent`),
		Entry("a namespaced parent without -n", "app", false, "the parent is namespaced: name its namespace with -n (--namespace)"),
		Entry("a custom resource parent that does not exist", "bundles.prune.e2e.ply.dev/absent", false,
			"custom resource parents are not created automatically"),
	)

	DescribeTable("deletes with the --cascade propagation policy, as the server records it",
		func(cascade string, check func(u *unstructured.Unstructured, err error)) {
			ns := newNamespace("prune-cascade-")
			r := plyNS(ns, pruneManifests("v1", ns, ns), "--prune", "--applyset=app")
			Expect(r.ExitCode).To(Equal(0), "%s", r)
			r = plyNS(ns, pruneManifests("v3", ns, ns), "--prune", "--applyset=app", "--cascade="+cascade)
			Expect(r.ExitCode).To(Equal(0), "%s", r)
			Expect(r.Stdout).To(ContainSubstring("deployment.apps/web pruned\n"))
			u, err := srv.Dynamic().Resource(deployments).Namespace(ns).Get(context.Background(), "web", metav1.GetOptions{})
			check(u, err)
		},
		Entry("background: gone at once (no dependents to wait for)", "background", func(u *unstructured.Unstructured, err error) {
			Expect(err).To(HaveOccurred(), "deleted")
		}),
		Entry("foreground: lingers with deletionTimestamp and the foregroundDeletion finalizer", "foreground", func(u *unstructured.Unstructured, err error) {
			Expect(err).NotTo(HaveOccurred())
			Expect(u.GetDeletionTimestamp()).NotTo(BeNil())
			Expect(u.GetFinalizers()).To(ContainElement(metav1.FinalizerDeleteDependents))
		}),
		Entry("orphan: lingers with the orphan finalizer", "orphan", func(u *unstructured.Unstructured, err error) {
			Expect(err).NotTo(HaveOccurred())
			Expect(u.GetDeletionTimestamp()).NotTo(BeNil())
			Expect(u.GetFinalizers()).To(ContainElement(metav1.FinalizerOrphanDependents))
		}),
	)
})

var _ = Describe("ply apply --prune -l (kubectl's older form)", func() {
	DescribeTable("prunes the selected objects an apply created, of the listed kinds, in the run's namespaces",
		func(flags []string, pruned []string, kept []string, warned bool) {
			ns := newNamespace("prune-legacy-")
			r := plyNS(ns, pruneManifests("legacy/v1", ns, ns), append([]string{"--prune"}, flags...)...)
			Expect(r.ExitCode).To(Equal(0), "%s", r)
			// A selected object no apply created: never pruned.
			manual := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "ConfigMap",
				"metadata": map[string]any{"name": "manual", "namespace": ns, "labels": map[string]any{"app": "legacy"}}}}
			_, err := srv.Dynamic().Resource(configMaps).Namespace(ns).Create(context.Background(), manual, metav1.CreateOptions{})
			Expect(err).NotTo(HaveOccurred())

			r = plyNS(ns, pruneManifests("legacy/v2", ns, ns), append([]string{"--prune"}, flags...)...)
			Expect(r.ExitCode).To(Equal(0), "%s", r)
			want := []string{"configmap/a unchanged"}
			for _, p := range pruned {
				want = append(want, p+" pruned")
			}
			Expect(outLines(r.Stdout)).To(Equal(want))
			if warned {
				Expect(r.Stderr).To(ContainSubstring(cluster.LegacyClusterScopedWarning))
			} else {
				Expect(r.Stderr).To(BeEmpty())
			}
			for _, k := range kept {
				kind, name, _ := strings.Cut(k, "/")
				gvr := configMaps
				if kind == "service" {
					gvr = services
				}
				Expect(exists(gvr, ns, name)).To(BeTrue(), k)
			}
			Expect(exists(configMaps, ns, "a")).To(BeTrue())
		},
		Entry("-l, kubectl's default kinds (with a warning)", []string{"-l", "app=legacy"},
			[]string{"configmap/b", "service/s"}, []string{"configmap/manual"}, true),
		Entry("-l and an allowlist of ConfigMaps", []string{"-l", "app=legacy", "--prune-allowlist=core/v1/ConfigMap"},
			[]string{"configmap/b"}, []string{"configmap/manual", "service/s"}, false),
		Entry("--all and an allowlist of ConfigMaps and Services", []string{"--all", "--prune-allowlist=core/v1/ConfigMap", "--prune-allowlist=core/v1/Service"},
			[]string{"configmap/b", "service/s"}, []string{"configmap/manual"}, false),
	)
})

// createBundle creates the cluster-scoped Bundle name, an ApplySet parent
// (custom resource parents are not created by apply).
func createBundle(name string) {
	GinkgoHelper()
	b := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "prune.e2e.ply.dev/v1", "kind": "Bundle", "metadata": map[string]any{"name": name}}}
	Eventually(func() error {
		_, err := srv.Dynamic().Resource(bundles).Create(context.Background(), b, metav1.CreateOptions{})
		return err
	}).WithTimeout(30 * time.Second).Should(Succeed())
}

// sortedPair returns a and b in order.
func sortedPair(a, b string) []string {
	if b < a {
		return []string{b, a}
	}
	return []string{a, b}
}
