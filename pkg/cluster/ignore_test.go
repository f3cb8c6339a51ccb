package cluster

import (
	"slices"
	"strings"
	"testing"

	"github.com/plyproject/ply/pkg/parse"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

var _ = Describe("ignored fields", func() {
	It("reads the paths managedFields give to the managers named, leaves only, lists crossed by naming them", func() {
		live := doc(`{"metadata":{"managedFields":[
			{"manager":"kube-controller-manager","operation":"Update","subresource":"scale","fieldsV1":{"f:spec":{"f:replicas":{}}}},
			{"manager":"cainjector","operation":"Update","fieldsV1":{"f:webhooks":{
				"k:{\"name\":\"a\"}":{".":{},"f:clientConfig":{"f:caBundle":{}}},
				"k:{\"name\":\"b\"}":{".":{},"f:clientConfig":{"f:caBundle":{}}}}}},
			{"manager":"kubectl-client-side-apply","operation":"Update","fieldsV1":{"f:spec":{"f:template":{"f:spec":{"f:containers":{"k:{\"name\":\"web\"}":{"f:image":{}}}}}}}}]}}`)
		Expect(managedPaths(live, []string{"kube-controller-manager", "cainjector"})).To(Equal([]string{"spec.replicas", "webhooks.clientConfig.caBundle"}))
		Expect(managedPaths(live, []string{"kubectl-client-side-apply"})).To(Equal([]string{"spec.template.spec.containers.image"}))
		Expect(managedPaths(live, []string{"nobody"})).To(BeEmpty())
		Expect(managedPaths(doc(`{"metadata":{}}`), []string{"kube-controller-manager"})).To(BeEmpty())
	})

	DescribeTable("ParseIgnoreField reads KIND[.GROUP]:PATH[:SELECTOR]",
		func(in, group, kind, path, selector string) {
			f, err := ParseIgnoreField(in)
			Expect(err).NotTo(HaveOccurred())
			Expect([]string{f.Group, f.Kind, f.Path}).To(Equal([]string{group, kind, path}))
			if selector == "" {
				Expect(f.Selector).To(BeNil())
			} else {
				Expect(f.Selector.String()).To(Equal(selector))
			}
		},
		Entry("a kind with its group", "deployment.apps:spec.replicas", "apps", "deployment", "spec.replicas", ""),
		Entry("a core kind", "configmap:data.x", "", "configmap", "data.x", ""),
		Entry("a dotted group and a selector", "mutatingwebhookconfiguration.admissionregistration.k8s.io:webhooks.clientConfig.caBundle:app in (a,b)",
			"admissionregistration.k8s.io", "mutatingwebhookconfiguration", "webhooks.clientConfig.caBundle", "app in (a,b)"),
	)

	DescribeTable("ParseIgnoreField refuses",
		func(in, want string) {
			_, err := ParseIgnoreField(in)
			Expect(err).To(MatchError(ContainSubstring(want)))
		},
		Entry("no kind", "spec.replicas", `want KIND[.GROUP]:PATH[:SELECTOR]`),
		Entry("an empty path", "deployment.apps:", `want KIND[.GROUP]:PATH[:SELECTOR]`),
		Entry("a bad selector", "deployment.apps:spec.replicas:a==b==c", `bad selector`),
	)

	It("matches the kind case-insensitively, the group exactly, and the selector against the manifest's labels", func() {
		f, err := ParseIgnoreField("Deployment.apps:spec.replicas:tier=frontend")
		Expect(err).NotTo(HaveOccurred())
		web := doc(`{"metadata":{"labels":{"tier":"frontend"}}}`)
		Expect(f.matches(Ref{GroupVersionKind: schema.GroupVersionKind{Group: "apps", Kind: "Deployment"}}, web)).To(BeTrue())
		Expect(f.matches(Ref{GroupVersionKind: schema.GroupVersionKind{Group: "apps", Kind: "StatefulSet"}}, web)).To(BeFalse())
		Expect(f.matches(Ref{GroupVersionKind: schema.GroupVersionKind{Group: "extensions", Kind: "Deployment"}}, web)).To(BeFalse())
		Expect(f.matches(Ref{GroupVersionKind: schema.GroupVersionKind{Group: "apps", Kind: "Deployment"}}, doc(`{"metadata":{"labels":{"tier":"backend"}}}`))).To(BeFalse())
	})

	It("StripIgnored leaves the paths out, in every item of a list, and leaves what they do not reach", func() {
		obj := doc(`{"spec":{"replicas":3,"x":1},"webhooks":[{"name":"a","clientConfig":{"caBundle":"Q0E=","url":"u"}},{"name":"b"}]}`)
		got := StripIgnored(obj, []string{"spec.replicas", "webhooks.clientConfig.caBundle", "status.absent"})
		Expect(string(got.JSON())).To(MatchJSON(`{"spec":{"x":1},"webhooks":[{"name":"a","clientConfig":{"url":"u"}},{"name":"b"}]}`))
	})
})

var _ = Describe("Client.IgnoredPaths", func() {
	It("joins the options' paths for the kind, the annotation's and the managers' fields of live", func() {
		rule, err := ParseIgnoreField("deployment.apps:spec.template.spec.containers.image")
		Expect(err).NotTo(HaveOccurred())
		other, err := ParseIgnoreField("configmap:data.a")
		Expect(err).NotTo(HaveOccurred())
		f := newFakeCluster(Options{IgnoreFields: []IgnoreField{rule, other}, IgnoreManagers: []string{"kube-controller-manager"}}, "default", false)
		obj := objects(strings.Replace(deployV1, "  name: web\n", "  name: web\n  annotations: {ply.dev/ignore-fields: \"spec.paused, spec.replicas\"}\n", 1))[0]
		live := doc(`{"metadata":{"managedFields":[{"manager":"kube-controller-manager","fieldsV1":{"f:spec":{"f:replicas":{}},"f:status":{"f:readyReplicas":{}}}}]}}`)
		paths, err := f.c.IgnoredPaths(obj, live)
		Expect(err).NotTo(HaveOccurred())
		Expect(paths).To(Equal([]string{"spec.paused", "spec.replicas", "spec.template.spec.containers.image", "status.readyReplicas"}))
	})
})

// FuzzManagedPaths checks that any managedFields give paths of non-empty
// dotted field names, sorted and unique, never a panic.
func FuzzManagedPaths(f *testing.F) {
	f.Add([]byte(`{"metadata":{"managedFields":[{"manager":"m","fieldsV1":{"f:spec":{"f:replicas":{},"f:ports":{"k:{\"port\":1}":{".":{},"f:name":{}}}}}}]}}`))
	f.Add([]byte(`{"metadata":{"managedFields":[{"manager":"m","fieldsV1":{"f:":{}, "v:1":{"f:a":{}}}}]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		live, err := parse.Document(data)
		if err != nil {
			return
		}
		paths := managedPaths(live, []string{"m"})
		if !slices.IsSorted(paths) || len(slices.Compact(slices.Clone(paths))) != len(paths) {
			t.Fatalf("paths not sorted and unique: %q", paths)
		}
		for _, p := range paths {
			if p == "" {
				t.Fatalf("an empty path in %q", paths)
			}
		}
	})
}
