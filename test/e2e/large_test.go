package e2e

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/plyproject/ply/pkg/cluster"
)

var crds = schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}

// largeCRD is a CustomResourceDefinition of about 700 KB: props
// properties, each with a long description, as monitoring operators'
// CRDs are; without drops the property so named.
func largeCRD(props int, without string) map[string]any {
	properties := map[string]any{}
	for i := range props {
		name := "p" + strconv.FormatInt(int64(10000+i), 10)[1:]
		if name == without {
			continue
		}
		properties[name] = map[string]any{
			"type":        "string",
			"description": strings.Repeat("The "+name+" setting of the large resource, as its operator documents it. ", 12),
		}
	}
	return map[string]any{
		"apiVersion": "apiextensions.k8s.io/v1",
		"kind":       "CustomResourceDefinition",
		"metadata":   map[string]any{"name": "larges.e2e.ply.dev"},
		"spec": map[string]any{
			"group": "e2e.ply.dev",
			"names": map[string]any{"kind": "Large", "plural": "larges"},
			"scope": "Namespaced",
			"versions": []any{map[string]any{
				"name": "v1", "served": true, "storage": true,
				"schema": map[string]any{"openAPIV3Schema": map[string]any{
					"type":       "object",
					"properties": map[string]any{"spec": map[string]any{"type": "object", "properties": properties}},
				}},
			}},
		},
	}
}

// largeConfigMap is a ConfigMap of about 600 KB of text in entries
// entries; without drops the entry so named.
func largeConfigMap(entries int, without string) map[string]any {
	data := map[string]any{}
	for i := range entries {
		name := "k" + strconv.FormatInt(int64(10000+i), 10)[1:]
		if name != without {
			data[name] = strings.Repeat("setting."+name+"=enabled\n", 40)
		}
	}
	return map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "large"}, "data": data}
}

// writeManifest writes obj as JSON into a new file of the spec's and
// returns its path.
func writeManifest(obj map[string]any) string {
	GinkgoHelper()
	data, err := json.Marshal(obj)
	Expect(err).NotTo(HaveOccurred())
	path := filepath.Join(GinkgoT().TempDir(), "manifest.json")
	Expect(os.WriteFile(path, data, 0o644)).To(Succeed())
	return path
}

// compressed is the flag that keeps objects over the annotation limit in
// the client-side lane, recorded in ply's compressed annotation.
const compressed = "--large-objects=compressed-annotation"

// crdHasProperty reports whether the CRD's schema declares spec property
// name.
func crdHasProperty(u *unstructured.Unstructured, name string) bool {
	versions, _, _ := unstructured.NestedSlice(u.Object, "spec", "versions")
	if len(versions) == 0 {
		return false
	}
	v, _ := versions[0].(map[string]any)
	_, found, _ := unstructured.NestedFieldNoCopy(v, "schema", "openAPIV3Schema", "properties", "spec", "properties", name)
	return found
}

var _ = Describe("ply apply: objects whose configuration is over the annotation limit", func() {
	DescribeTable("with --large-objects=compressed-annotation, creates, re-applies and removes a field the manifest dropped, recording the configuration compressed",
		func(gvr schema.GroupVersionResource, namespaced bool, name string, make func(without string) map[string]any, field string,
			present func(*unstructured.Unstructured, string) bool) {
			ns, flagNS := "", "default"
			if namespaced {
				ns = newNamespace("large")
				flagNS = ns
			}
			get := func() *unstructured.Unstructured {
				u, err := srv.Dynamic().Resource(gvr).Namespace(ns).Get(context.Background(), name, metav1.GetOptions{})
				Expect(err).NotTo(HaveOccurred())
				return u
			}
			first := writeManifest(make(""))
			info, err := os.Stat(first)
			Expect(err).NotTo(HaveOccurred())
			Expect(info.Size()).To(BeNumerically(">", 512<<10), "the manifest is over half a MiB")

			k := run(kubectlBin, nil, "apply", "--kubeconfig", srv.Kubeconfig, "-n", flagNS, "--dry-run=server", "-f", first)
			Expect(k.ExitCode).NotTo(Equal(0), "kubectl's client-side apply cannot record it: %s", k)
			Expect(k.Stderr).To(ContainSubstring("metadata.annotations: Too long"))

			r := applyWith(srv.Kubeconfig, flagNS, []string{first}, compressed)
			Expect(r.ExitCode).To(Equal(0), "%s", r)
			Expect(r.Stdout).To(ContainSubstring("created"))
			Expect(strings.Count(r.Stderr, "recorded compressed in "+cluster.CompressedLastAppliedAnnotation)).To(Equal(1), "said once: %s", r.Stderr)
			obj := get()
			Expect(obj.GetAnnotations()).NotTo(HaveKey(cluster.LastAppliedAnnotation))
			Expect(obj.GetAnnotations()).To(HaveKey(cluster.CompressedLastAppliedAnnotation))
			Expect(present(obj, field)).To(BeTrue())

			again := applyWith(srv.Kubeconfig, flagNS, []string{first}, compressed)
			Expect(again.ExitCode).To(Equal(0), "%s", again)
			Expect(again.Stdout).To(ContainSubstring("unchanged"))

			second := writeManifest(make(field))
			d := ply("diff", "--kubeconfig", srv.Kubeconfig, "-n", flagNS, "-f", second, compressed)
			Expect(d.ExitCode).To(Equal(1), "diff exits 1 when there are differences: %s", d)
			Expect(d.Stdout).To(ContainSubstring(field))
			dry := applyWith(srv.Kubeconfig, flagNS, []string{second}, "--dry-run=server", compressed)
			Expect(dry.ExitCode).To(Equal(0), "%s", dry)
			Expect(dry.Stdout).To(ContainSubstring("(server dry run)"))
			Expect(present(get(), field)).To(BeTrue(), "a dry run writes nothing")

			r = applyWith(srv.Kubeconfig, flagNS, []string{second}, compressed)
			Expect(r.ExitCode).To(Equal(0), "%s", r)
			Expect(r.Stdout).To(ContainSubstring("configured"))
			Expect(present(get(), field)).To(BeFalse(), "the field the manifest dropped is removed from the live object")
		},
		Entry("a CustomResourceDefinition of about 700 KB", crds, false, "larges.e2e.ply.dev",
			func(without string) map[string]any { return largeCRD(800, without) }, "p0007", crdHasProperty),
		Entry("a ConfigMap of about 600 KB", configMaps, true, "large",
			func(without string) map[string]any { return largeConfigMap(600, without) }, "k0007",
			func(u *unstructured.Unstructured, key string) bool { return has(u, "data", key) }),
	)
})
