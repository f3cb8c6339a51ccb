package e2e

import (
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/plyproject/ply/pkg/cluster"
	"github.com/plyproject/ply/test/harness"
)

// configMapWith writes a manifest of the ConfigMap name holding data, and
// returns its path.
func configMapWith(name string, data map[string]any) string {
	GinkgoHelper()
	return writeManifest(map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": name}, "data": data})
}

// kubectlIn runs kubectl with the admin kubeconfig in namespace ns.
func kubectlIn(ns string, args ...string) harness.Result {
	GinkgoHelper()
	return run(kubectlBin, nil, append([]string{"--kubeconfig", srv.Kubeconfig, "-n", ns}, args...)...)
}

// managers returns "manager/operation" for each managedFields entry of u
// (no subresource), in order.
func managers(u *unstructured.Unstructured) []string {
	var out []string
	for _, e := range u.GetManagedFields() {
		if e.Subresource == "" {
			out = append(out, e.Manager+"/"+string(e.Operation))
		}
	}
	return out
}

// dataKeys returns the keys of a ConfigMap's data.
func dataKeys(u *unstructured.Unstructured) []string {
	data, _, _ := unstructured.NestedStringMap(u.Object, "data")
	var keys []string
	for k := range data {
		keys = append(keys, k)
	}
	return keys
}

var _ = Describe("ply apply --server-side", func() {
	It("sends each object as a server-side apply under the manager kubectl, printing what kubectl prints, and removes what the manifest drops", func() {
		ns := newNamespace("ssa")
		first := configMapWith("lane", map[string]any{"a": "1", "b": "2"})
		r := applyWith(srv.Kubeconfig, ns, []string{first}, "--server-side")
		Expect(r.ExitCode).To(Equal(0), "%s", r)
		Expect(r.Stdout).To(Equal(lines("configmap/lane serverside-applied")))
		u := live(configMaps, ns, "lane")
		Expect(managers(u)).To(Equal([]string{"kubectl/Apply"}))
		Expect(u.GetAnnotations()).NotTo(HaveKey(cluster.LastAppliedAnnotation), "server-side apply records no last-applied annotation")

		second := configMapWith("lane", map[string]any{"a": "1"})
		dry := applyWith(srv.Kubeconfig, ns, []string{second}, "--server-side", "--dry-run=server")
		Expect(dry.ExitCode).To(Equal(0), "%s", dry)
		Expect(dry.Stdout).To(Equal(lines("configmap/lane serverside-applied (server dry run)")))
		Expect(dataKeys(live(configMaps, ns, "lane"))).To(ConsistOf("a", "b"), "a dry run writes nothing")

		out := applyWith(srv.Kubeconfig, ns, []string{second}, "--server-side", "-o", "jsonpath={.data}")
		Expect(out.ExitCode).To(Equal(0), "%s", out)
		Expect(out.Stdout).To(Equal(`{"a":"1"}`), "-o prints the server's answer")
		Expect(dataKeys(live(configMaps, ns, "lane"))).To(ConsistOf("a"))

		k := kubectlIn(ns, "apply", "--server-side", "-f", second)
		Expect(k.ExitCode).To(Equal(0), "%s", k)
		Expect(k.Stdout).To(Equal(r.Stdout), "kubectl prints the same line")
	})

	DescribeTable("refuses what kubectl apply --server-side refuses, with kubectl's message",
		func(flags ...string) {
			file := configMapWith("refused", map[string]any{"a": "1"})
			k := run(kubectlBin, nil, append([]string{"apply", "--kubeconfig", srv.Kubeconfig, "-n", "default", "-f", file}, flags...)...)
			Expect(k.ExitCode).NotTo(Equal(0), "%s", k)
			r := applyWith(srv.Kubeconfig, "default", []string{file}, flags...)
			Expect(r.ExitCode).To(Equal(2), "a usage error: %s", r)
			Expect(r.Stderr).To(HavePrefix(strings.TrimSpace(k.Stderr)), "%s", r)
			expectAbsent(configMaps, "default", "refused")
		},
		Entry("--dry-run=client", "--server-side", "--dry-run=client"),
		Entry("--force", "--server-side", "--force"),
		Entry("--force-conflicts without --server-side", "--force-conflicts"),
	)

	It("names each conflicting field and its manager, changes nothing, and takes the fields over with --force-conflicts", func() {
		ns := newNamespace("ssa-conflict")
		theirs := configMapWith("shared", map[string]any{"a": "theirs", "b": "theirs", "c": "same"})
		k := kubectlIn(ns, "apply", "--server-side", "--field-manager=deployer", "-f", theirs)
		Expect(k.ExitCode).To(Equal(0), "%s", k)

		ours := configMapWith("shared", map[string]any{"a": "ours", "b": "ours", "c": "same"})
		r := applyWith(srv.Kubeconfig, ns, []string{ours}, "--server-side")
		Expect(r.ExitCode).To(Equal(3), "a conflict: %s", r)
		Expect(r.Stdout).To(BeEmpty())
		Expect(r.Stderr).To(ContainSubstring(`error: configmaps "shared" (` + ours + `#1): server-side apply conflicts with other field managers on 2 fields: ` +
			`.data.a (owned by "deployer"), .data.b (owned by "deployer"); to take them over, apply again with --force-conflicts`))
		Expect(field(live(configMaps, ns, "shared"), "data", "a")).To(Equal("theirs"), "nothing is written")

		r = applyWith(srv.Kubeconfig, ns, []string{ours}, "--server-side", "--force-conflicts")
		Expect(r.ExitCode).To(Equal(0), "%s", r)
		u := live(configMaps, ns, "shared")
		Expect(field(u, "data", "a")).To(Equal("ours"))
		Expect(managers(u)).To(ConsistOf("deployer/Apply", "kubectl/Apply"), "deployer keeps the field c it shares")
	})

	It("never prints a Secret's values in a conflict", func() {
		ns := newNamespace("ssa-secret")
		theirs := writeManifest(map[string]any{"apiVersion": "v1", "kind": "Secret", "metadata": map[string]any{"name": "creds"},
			"stringData": map[string]any{"password": "theirs-4b1e77"}})
		k := kubectlIn(ns, "apply", "--server-side", "--field-manager=vault", "-f", theirs)
		Expect(k.ExitCode).To(Equal(0), "%s", k)
		ours := writeManifest(map[string]any{"apiVersion": "v1", "kind": "Secret", "metadata": map[string]any{"name": "creds"},
			"stringData": map[string]any{"password": "ours-9c03aa"}})
		for _, flags := range [][]string{{"--server-side"}, {"--server-side", "--dry-run=server", "-o", "yaml"}} {
			r := applyWith(srv.Kubeconfig, ns, []string{ours}, flags...)
			Expect(r.ExitCode).To(Equal(3), "%s", r)
			Expect(r.Stderr).To(ContainSubstring(`.stringData.password (owned by "vault")`))
			for _, v := range []string{"theirs-4b1e77", "ours-9c03aa"} {
				Expect(r.Stdout + r.Stderr).NotTo(ContainSubstring(v))
			}
		}
		r := applyWith(srv.Kubeconfig, ns, []string{ours}, "--server-side", "--force-conflicts", "-o", "yaml")
		Expect(r.ExitCode).To(Equal(0), "%s", r)
		Expect(r.Stdout).To(ContainSubstring("password: '***'"))
		Expect(r.Stdout).NotTo(ContainSubstring("b3Vycy05YzAzYWE="), "the base64 of the value")
	})

	It("applies with --prune --applyset and --wait as the client-side lane does", func() {
		ns := newNamespace("ssa-prune")
		dir := GinkgoT().TempDir()
		keep := filepath.Join(dir, "keep.json")
		gone := filepath.Join(dir, "gone.json")
		Expect(os.Rename(configMapWith("keep", map[string]any{"a": "1"}), keep)).To(Succeed())
		Expect(os.Rename(configMapWith("gone", map[string]any{"a": "1"}), gone)).To(Succeed())
		r := applyWith(srv.Kubeconfig, ns, []string{keep, gone}, "--server-side", "--prune", "--applyset=ssa", "--wait", "--timeout=30s")
		Expect(r.ExitCode).To(Equal(0), "%s", r)
		Expect(r.Stdout).To(ContainSubstring("configmap/keep serverside-applied\nconfigmap/gone serverside-applied\n"))
		Expect(r.Stdout).To(ContainSubstring("configmap/gone serverside-applied\n2 objects Current when first read (configmaps: 2)\n"),
			"ConfigMaps are Current as soon as they exist: one summary line for their stage")
		Expect(live(configMaps, ns, "gone").GetLabels()).To(HaveKey(cluster.ApplySetPartOfLabel))

		r = applyWith(srv.Kubeconfig, ns, []string{keep}, "--server-side", "--prune", "--applyset=ssa")
		Expect(r.ExitCode).To(Equal(0), "%s", r)
		Expect(r.Stdout).To(Equal(lines("configmap/keep serverside-applied", "configmap/gone pruned")))
		expectAbsent(configMaps, ns, "gone")
	})
})

var _ = Describe("hand-over between the lanes of kubectl and ply", func() {
	It("kubectl client-side, ply server-side, kubectl server-side, ply client-side: a field dropped at each step is gone after it", func() {
		ns := newNamespace("handover")
		data := map[string]any{"a": "1", "b": "2", "c": "3", "d": "4", "e": "5"}
		version := func(drop string) string {
			delete(data, drop)
			return configMapWith("chain", data)
		}
		steps := []struct {
			drop string
			args func(file string) harness.Result
		}{
			{"", func(f string) harness.Result { return kubectlIn(ns, "apply", "-f", f) }},
			{"a", func(f string) harness.Result { return applyWith(srv.Kubeconfig, ns, []string{f}, "--server-side") }},
			{"b", func(f string) harness.Result { return kubectlIn(ns, "apply", "--server-side", "-f", f) }},
			{"c", func(f string) harness.Result { return applyWith(srv.Kubeconfig, ns, []string{f}) }},
			{"d", func(f string) harness.Result { return applyWith(srv.Kubeconfig, ns, []string{f}, "--server-side") }},
		}
		var removed []string
		for i, s := range steps {
			r := s.args(version(s.drop))
			Expect(r.ExitCode).To(Equal(0), "step %d: %s", i, r)
			if s.drop != "" {
				removed = append(removed, s.drop)
			}
			u := live(configMaps, ns, "chain")
			for _, k := range removed {
				Expect(dataKeys(u)).NotTo(ContainElement(k), "step %d: %s dropped from the manifest is gone", i, k)
			}
			Expect(len(dataKeys(u))).To(Equal(5-len(removed)), "step %d", i)
			Expect(u.GetAnnotations()).To(HaveKey(cluster.LastAppliedAnnotation), "step %d: the last-applied annotation is kept, as kubectl keeps it", i)
		}
		u := live(configMaps, ns, "chain")
		Expect(managers(u)).NotTo(ContainElement("kubectl-client-side-apply/Update"), "the client-side manager's fields moved to kubectl")
	})

	It("goes back to client-side apply from the managed fields of a server-side apply that left no annotation", func() {
		ns := newNamespace("back")
		k := kubectlIn(ns, "apply", "--server-side", "-f", configMapWith("back", map[string]any{"a": "1", "b": "2"}))
		Expect(k.ExitCode).To(Equal(0), "%s", k)
		Expect(live(configMaps, ns, "back").GetAnnotations()).NotTo(HaveKey(cluster.LastAppliedAnnotation))
		update(configMaps, ns, "back", func(u *unstructured.Unstructured) {
			Expect(unstructured.SetNestedField(u.Object, "theirs", "data", "other")).To(Succeed())
		})
		r := applyWith(srv.Kubeconfig, ns, []string{configMapWith("back", map[string]any{"a": "1"})})
		Expect(r.ExitCode).To(Equal(0), "%s", r)
		Expect(r.Stdout).To(Equal(lines("configmap/back configured")))
		Expect(dataKeys(live(configMaps, ns, "back"))).To(ConsistOf("a", "other"),
			"b, which kubectl's server-side apply set, is removed; another writer's field is kept")
	})

	It("applies a ~700 KB CRD server-side by default, says so once, and kubectl apply --server-side takes it over without conflict", func() {
		path := writeManifest(largeCRD(800, ""))
		withoutLargeCRD()
		r := applyWith(srv.Kubeconfig, "default", []string{path})
		Expect(r.ExitCode).To(Equal(0), "%s", r)
		Expect(r.Stdout).To(Equal(lines("customresourcedefinition.apiextensions.k8s.io/larges.e2e.ply.dev serverside-applied")))
		Expect(strings.Count(r.Stderr, "is over the server's limit")).To(Equal(1), "%s", r.Stderr)
		u := live(crds, "", "larges.e2e.ply.dev")
		Expect(u.GetAnnotations()).NotTo(HaveKey(cluster.CompressedLastAppliedAnnotation))
		Expect(managers(u)).To(ContainElement("kubectl/Apply"))

		changed := writeManifest(largeCRD(800, "p0007"))
		r = applyWith(srv.Kubeconfig, "default", []string{changed})
		Expect(r.ExitCode).To(Equal(0), "%s", r)
		Expect(r.Stderr).NotTo(ContainSubstring("is over the server's limit"), "said when the object changes lane only")
		Expect(crdHasProperty(live(crds, "", "larges.e2e.ply.dev"), "p0007")).To(BeFalse())

		again := writeManifest(largeCRD(800, "p0008"))
		k := kubectlIn("default", "apply", "--server-side", "-f", again)
		Expect(k.ExitCode).To(Equal(0), "no conflict: %s", k)
		u = live(crds, "", "larges.e2e.ply.dev")
		Expect(crdHasProperty(u, "p0008")).To(BeFalse())
		Expect(crdHasProperty(u, "p0009")).To(BeTrue())
	})

	DescribeTable("moves an object ply recorded compressed to the server-side lane, once, with a changed value, and kubectl then applies it",
		func(gvr schema.GroupVersionResource, namespaced bool, name string, make func(drop, change string) map[string]any,
			present func(*unstructured.Unstructured, string) bool) {
			ns := ""
			if namespaced {
				ns = newNamespace("large-move")
			} else {
				withoutLargeCRD()
			}
			flagNS := ns
			if flagNS == "" {
				flagNS = "default"
			}
			r := applyWith(srv.Kubeconfig, flagNS, []string{writeManifest(make("", ""))}, compressed)
			Expect(r.ExitCode).To(Equal(0), "%s", r)
			Expect(live(gvr, ns, name).GetAnnotations()).To(HaveKey(cluster.CompressedLastAppliedAnnotation))

			// A value the client-side apply set changes: kubectl's own
			// hand-over would conflict with the client-side manager here.
			second := writeManifest(make("0003", "0005"))
			r = applyWith(srv.Kubeconfig, flagNS, []string{second})
			Expect(r.ExitCode).To(Equal(0), "%s", r)
			Expect(r.Stdout).To(HaveSuffix(" serverside-applied\n"))
			Expect(strings.Count(r.Stderr, "is over the server's limit")).To(Equal(1), "%s", r.Stderr)
			u := live(gvr, ns, name)
			Expect(u.GetAnnotations()).NotTo(HaveKey(cluster.CompressedLastAppliedAnnotation), "ply's annotation went with its manager")
			Expect(present(u, "0003")).To(BeFalse(), "the field the manifest dropped is gone")
			Expect(managers(u)).To(ContainElement("kubectl/Apply"))
			Expect(managers(u)).NotTo(ContainElement("kubectl-client-side-apply/Update"))

			r = applyWith(srv.Kubeconfig, flagNS, []string{second})
			Expect(r.ExitCode).To(Equal(0), "%s", r)
			Expect(r.Stderr).To(BeEmpty(), "said once")

			k := kubectlIn(flagNS, "apply", "--server-side", "-f", writeManifest(make("0004", "0006")))
			Expect(k.ExitCode).To(Equal(0), "no conflict: %s", k)
			Expect(present(live(gvr, ns, name), "0004")).To(BeFalse())
		},
		Entry("a ConfigMap of about 600 KB", configMaps, true, "large",
			func(drop, change string) map[string]any {
				cm := largeConfigMap(600, "k"+drop)
				if change != "" {
					cm["data"].(map[string]any)["k"+change] = "changed"
				}
				return cm
			},
			func(u *unstructured.Unstructured, key string) bool { return has(u, "data", "k"+key) }),
		Entry("a CustomResourceDefinition of about 700 KB", crds, false, "larges.e2e.ply.dev",
			func(drop, change string) map[string]any {
				crd := largeCRD(800, "p"+drop)
				if change != "" {
					versions := crd["spec"].(map[string]any)["versions"].([]any)
					props := versions[0].(map[string]any)["schema"].(map[string]any)["openAPIV3Schema"].(map[string]any)["properties"].(map[string]any)["spec"].(map[string]any)["properties"].(map[string]any)
					props["p"+change].(map[string]any)["description"] = "changed"
				}
				return crd
			},
			func(u *unstructured.Unstructured, p string) bool { return crdHasProperty(u, "p"+p) }),
	)
})

// withoutLargeCRD deletes the large CRD other specs apply, if it exists,
// waits until it is gone, and deletes it again when the spec ends.
func withoutLargeCRD() {
	GinkgoHelper()
	k := kubectlIn("default", "delete", "crd", "larges.e2e.ply.dev", "--ignore-not-found", "--wait")
	Expect(k.ExitCode).To(Equal(0), "%s", k)
	DeferCleanup(func() { kubectlIn("default", "delete", "crd", "larges.e2e.ply.dev", "--ignore-not-found", "--wait") })
}

var _ = Describe("ply apply --server-side=auto", func() {
	It("applies each object in the lane it was last applied in, printing the lane", func() {
		ns := newNamespace("auto")
		fresh := configMapWith("fresh", map[string]any{"a": "1"})
		theirs := configMapWith("theirs", map[string]any{"a": "1", "b": "2"})
		k := kubectlIn(ns, "apply", "--server-side", "-f", theirs)
		Expect(k.ExitCode).To(Equal(0), "%s", k)
		large := writeManifest(largeConfigMap(600, ""))

		r := applyWith(srv.Kubeconfig, ns, []string{fresh, theirs, large}, "--server-side=auto")
		Expect(r.ExitCode).To(Equal(0), "%s", r)
		Expect(r.Stdout).To(Equal(lines("configmap/fresh created (client-side)", "configmap/theirs serverside-applied (server-side)",
			"configmap/large serverside-applied (server-side)")))
		Expect(live(configMaps, ns, "fresh").GetAnnotations()).To(HaveKey(cluster.LastAppliedAnnotation))

		k = kubectlIn(ns, "apply", "-f", configMapWith("theirs", map[string]any{"a": "1"}))
		Expect(k.ExitCode).To(Equal(0), "%s", k)
		r = applyWith(srv.Kubeconfig, ns, []string{fresh, configMapWith("theirs", map[string]any{"a": "1"})}, "--server-side=auto")
		Expect(r.ExitCode).To(Equal(0), "%s", r)
		Expect(r.Stdout).To(Equal(lines("configmap/fresh unchanged (client-side)", "configmap/theirs unchanged (client-side)")),
			"kubectl's client-side apply moved theirs back")
	})
})

var _ = Describe("ply diff --server-side-apply", func() {
	It("diffs against the server's dry-run answer to the server-side apply", func() {
		ns := newNamespace("ssa-diff")
		first := configMapWith("d", map[string]any{"a": "1", "b": "2"})
		Expect(applyWith(srv.Kubeconfig, ns, []string{first}, "--server-side").ExitCode).To(Equal(0))
		same := ply("diff", "--kubeconfig", srv.Kubeconfig, "-n", ns, "-f", first, "--server-side-apply")
		Expect(same.ExitCode).To(Equal(0), "%s", same)
		Expect(same.Stdout).To(BeEmpty())

		second := configMapWith("d", map[string]any{"a": "9"})
		d := ply("diff", "--kubeconfig", srv.Kubeconfig, "-n", ns, "-f", second, "--server-side-apply")
		Expect(d.ExitCode).To(Equal(1), "%s", d)
		Expect(changedLines(d.Stdout)).To(ConsistOf(`-  a: "1"`, `-  b: "2"`, `+  a: "9"`))
		Expect(dataKeys(live(configMaps, ns, "d"))).To(ConsistOf("a", "b"))
	})
})
