package parity_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/google/go-cmp/cmp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/plyproject/ply/pkg/cluster"
)

// pruneTool is who applies one prune step in a namespace.
type pruneTool string

const (
	// pruneKubectl is kubectl apply --prune --applyset (KUBECTL_APPLYSET=true).
	pruneKubectl pruneTool = "kubectl"
	// prunePly is ply apply --ordering kubectl --prune --applyset.
	prunePly pruneTool = "ply"
	// prunePlyForKubectl is prunePly writing kubectl's tooling on the
	// parent (--applyset-tooling), so that kubectl takes the set over.
	prunePlyForKubectl pruneTool = "ply --applyset-tooling=kubectl/..."
)

// kubectlTooling is the tooling ply writes to hand a set to kubectl.
const kubectlTooling = "kubectl/v1.32.5"

// pruneParent is the --applyset of every lane: a Secret in the lane's
// namespace.
const pruneParent = "set"

// prunedKinds are the kinds the prune steps hold.
var prunedKinds = []schema.GroupVersionResource{configMaps, secretsGVR, services, deployments, widgets}

var secretsGVR = schema.GroupVersionResource{Version: "v1", Resource: "secrets"}

// pruneApply applies the prune step file to ns with t and returns its
// sorted report.
func pruneApply(t pruneTool, file, ns string) []string {
	GinkgoHelper()
	var args []string
	var extra []string
	switch t {
	case pruneKubectl:
		args = []string{env.kubectl, "apply", "--kubeconfig", env.srv.Kubeconfig, "-n", ns, "-f", file}
		extra = []string{"KUBECTL_APPLYSET=true"}
	case prunePly, prunePlyForKubectl:
		args = []string{env.ply, "apply", "--kubeconfig", env.srv.Kubeconfig, "-n", ns, "--ordering", "kubectl", "-f", file}
		if t == prunePlyForKubectl {
			args = append(args, "--applyset-tooling="+kubectlTooling)
		}
	}
	args = append(args, "--prune", "--applyset="+pruneParent)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, args[0], args[1:]...)
	cmd.Env = append(os.Environ(), extra...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	GinkgoWriter.Printf("$ %s\n%s%s", strings.Join(args, " "), out.String(), errb.String())
	Expect(err).NotTo(HaveOccurred(), "%s\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), out.String(), errb.String())
	return report(out.String())
}

// pruneState is what two namespaces must agree on after a prune step:
// the names of the objects of each kind, the labels and annotations of
// each (the set's id and the namespace replaced, the last-applied
// annotation decoded), and the parent's labels and annotations (the id
// replaced, the tooling left out: it names the tool).
type pruneState struct {
	Names   map[string][]string
	Members map[string]map[string]any
	Parent  map[string]any
	Tooling string
}

// stateOf reads the prune state of ns.
func stateOf(ns string) pruneState {
	GinkgoHelper()
	id := cluster.ApplySetID(pruneParent, ns, "Secret", "")
	st := pruneState{Names: map[string][]string{}, Members: map[string]map[string]any{}}
	norm := func(labels map[string]string) map[string]string {
		out := map[string]string{}
		for k, v := range labels {
			if v == id {
				v = "ID"
			}
			out[k] = v
		}
		return out
	}
	for _, gvr := range prunedKinds {
		list, err := env.dyn.Resource(gvr).Namespace(ns).List(context.Background(), metav1.ListOptions{})
		Expect(err).NotTo(HaveOccurred())
		for _, u := range list.Items {
			if u.GetDeletionTimestamp() != nil {
				continue
			}
			if gvr == secretsGVR && u.GetName() == pruneParent {
				ann := map[string]string{}
				for k, v := range u.GetAnnotations() {
					ann[k] = v
				}
				st.Tooling = ann[cluster.ApplySetToolingAnnotation]
				delete(ann, cluster.ApplySetToolingAnnotation)
				st.Parent = map[string]any{"labels": norm(u.GetLabels()), "annotations": ann}
				continue
			}
			key := gvr.Resource + "/" + u.GetName()
			st.Names[gvr.Resource] = append(st.Names[gvr.Resource], u.GetName())
			Expect(u.GetLabels()).To(HaveKeyWithValue(cluster.ApplySetPartOfLabel, id), "%s in %s is a member of the lane's set", key, ns)
			ann := map[string]any{}
			for k, v := range u.GetAnnotations() {
				ann[k] = v
			}
			if s, ok := u.GetAnnotations()[lastApplied]; ok {
				var rec map[string]any
				Expect(json.Unmarshal([]byte(strings.ReplaceAll(s, id, "ID")), &rec)).To(Succeed())
				delete(rec["metadata"].(map[string]any), "namespace")
				ann[lastApplied] = rec
			}
			st.Members[key] = map[string]any{"labels": norm(u.GetLabels()), "annotations": ann}
		}
	}
	for _, names := range st.Names {
		sort.Strings(names)
	}
	return st
}

var _ = Describe("pruning with an ApplySet: kubectl apply --prune --applyset and ply apply --prune --applyset", Ordered, func() {
	type lane struct {
		ns    string
		tools [3]pruneTool
	}
	lanes := []lane{
		{"prune-kubectl", [3]pruneTool{pruneKubectl, pruneKubectl, pruneKubectl}}, // the reference
		{"prune-ply", [3]pruneTool{prunePly, prunePly, prunePly}},
		// ply continues kubectl's set (keeping its tooling), kubectl
		// continues after ply.
		{"prune-handover-k", [3]pruneTool{pruneKubectl, prunePly, pruneKubectl}},
		// ply starts the set for kubectl, kubectl prunes what ply created,
		// ply continues.
		{"prune-handover-p", [3]pruneTool{prunePlyForKubectl, pruneKubectl, prunePly}},
	}
	BeforeAll(func() {
		for _, l := range lanes {
			createNamespace(l.ns)
		}
	})

	titles := []string{
		"01: creates the same members and the same parent",
		"02: prunes the same ConfigMap and Service, in every hand-over",
		"03: prunes the Deployment, the Widget and the Secret, and shrinks the parent's kinds the same way",
	}
	for step := range 3 {
		It(titles[step], func() {
			file := filepath.Join("testdata", "prune", "0"+string(rune('1'+step))+".yaml")
			var want []string
			for i, l := range lanes {
				got := pruneApply(l.tools[step], file, l.ns)
				if i == 0 {
					want = got
					continue
				}
				Expect(got).To(Equal(want), "report of %s in %s (-kubectl +%s):\n%s", l.tools[step], l.ns, l.tools[step], diffLines(want, got))
			}
			if step > 0 {
				Expect(want).To(ContainElement(HaveSuffix(" pruned")), "the step prunes")
			}
			ref := stateOf(lanes[0].ns)
			Expect(ref.Tooling).To(HavePrefix("kubectl/v1.32."))
			for _, l := range lanes[1:] {
				got := stateOf(l.ns)
				Expect(cmp.Diff(ref.Names, got.Names)).To(BeEmpty(), "objects in %s (-%s +%s)", l.ns, lanes[0].ns, l.ns)
				Expect(cmp.Diff(ref.Members, got.Members)).To(BeEmpty(), "members' labels and annotations in %s (-%s +%s)", l.ns, lanes[0].ns, l.ns)
				Expect(cmp.Diff(ref.Parent, got.Parent)).To(BeEmpty(), "the parent in %s (-%s +%s)", l.ns, lanes[0].ns, l.ns)
				switch {
				case l.ns == "prune-ply":
					Expect(got.Tooling).To(HavePrefix("ply/v"))
				case l.tools[step] == prunePlyForKubectl:
					Expect(got.Tooling).To(Equal(kubectlTooling))
				default:
					Expect(got.Tooling).To(HavePrefix("kubectl/v1.32."), "a set kubectl manages stays kubectl's")
				}
			}
		})
	}
})

var _ = Describe("pruning by selector: kubectl apply --prune -l and ply apply --prune -l", Ordered, func() {
	// Each lane: the namespace and the extra flags of both tools.
	lanes := []struct {
		name  string
		flags []string
	}{
		{"default-kinds", []string{"-l", "app=legacy"}},
		{"allowlist", []string{"-l", "app=legacy", "--prune-allowlist=core/v1/ConfigMap"}},
	}
	BeforeAll(func() {
		for _, l := range lanes {
			createNamespace("legacy-kubectl-" + l.name)
			createNamespace("legacy-ply-" + l.name)
		}
		// Applied once in every namespace, unselected: never pruned.
		for _, l := range lanes {
			for _, ns := range []string{"legacy-kubectl-" + l.name, "legacy-ply-" + l.name} {
				run(env.kubectl, "apply", "--kubeconfig", env.srv.Kubeconfig, "-n", ns, "-f", filepath.Join("testdata", "prune-legacy", "01.yaml"), "-l", "!app")
			}
		}
	})

	for step := range 2 {
		It("0"+string(rune('1'+step))+": the same reports and the same objects left", func() {
			file := filepath.Join("testdata", "prune-legacy", "0"+string(rune('1'+step))+".yaml")
			for _, l := range lanes {
				k := report(run(append([]string{env.kubectl, "apply", "--kubeconfig", env.srv.Kubeconfig, "-n", "legacy-kubectl-" + l.name, "-f", file, "--prune"}, l.flags...)...))
				p := report(run(append([]string{env.ply, "apply", "--kubeconfig", env.srv.Kubeconfig, "-n", "legacy-ply-" + l.name, "--ordering", "kubectl", "-f", file, "--prune"}, l.flags...)...))
				Expect(p).To(Equal(k), "%s (-kubectl +ply):\n%s", l.name, diffLines(k, p))
				if step == 1 {
					Expect(k).To(ContainElement("configmap/b pruned"))
				}
				for _, gvr := range []schema.GroupVersionResource{configMaps, services} {
					names := func(ns string) []string {
						list, err := env.dyn.Resource(gvr).Namespace(ns).List(context.Background(), metav1.ListOptions{})
						Expect(err).NotTo(HaveOccurred())
						var out []string
						for _, u := range list.Items {
							out = append(out, u.GetName())
						}
						sort.Strings(out)
						return out
					}
					Expect(names("legacy-ply-"+l.name)).To(Equal(names("legacy-kubectl-"+l.name)), "%s %s", l.name, gvr.Resource)
				}
			}
		})
	}
})
