package cluster

import (
	"crypto/sha256"
	"encoding/base64"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/plyproject/ply/pkg/parse"
)

var _ = Describe("ApplySet ids and tooling", func() {
	It("derives the id from name.namespace.kind.group, unpadded URL-safe base64", func() {
		sum := sha256.Sum256([]byte("app.team-a.Secret."))
		Expect(ApplySetID("app", "team-a", "Secret", "")).To(Equal("applyset-" + base64.RawURLEncoding.EncodeToString(sum[:]) + "-v1"))
		id := ApplySetID("set", "", "Bundle", "example.com")
		Expect(id).To(MatchRegexp(`^applyset-[A-Za-z0-9_-]{43}-v1$`), "a valid label value: no padding, no + or /")
		Expect(id).NotTo(Equal(ApplySetID("set", "", "Bundle", "example.org")))
	})

	DescribeTable("accepts the tooling of ply and kubectl only",
		func(tooling string, ok bool) {
			err := CheckTooling(tooling)
			if ok {
				Expect(err).NotTo(HaveOccurred())
			} else {
				Expect(err).To(MatchError(ContainSubstring(`invalid ApplySet tooling "` + tooling + `"`)))
			}
		},
		Entry("ply", "ply/v0.3.0", true),
		Entry("kubectl", "kubectl/v1.32.5", true),
		Entry("another tool", "helm/v3", false),
		Entry("no version", "ply/", false),
		Entry("no slash", "ply", false),
		Entry("a nested name", "ply/x/v1", false),
	)

	It("reads the tool of a tooling value as kubectl does: up to the last slash", func() {
		Expect(toolName("kubectl/v1.32.5")).To(Equal("kubectl"))
		Expect(toolName("example.com/tool/v1")).To(Equal("example.com/tool"))
		Expect(toolName("bare")).To(Equal("bare"))
		Expect(DefaultTooling()).To(HavePrefix("ply/v"))
	})
})

var _ = Describe("pruning options", func() {
	DescribeTable("parses --prune-allowlist entries as kubectl does",
		func(s string, want schema.GroupVersionKind, bad bool) {
			got, err := ParsePruneKind(s)
			if bad {
				Expect(err).To(MatchError(ContainSubstring("want group/version/Kind")))
				return
			}
			Expect(err).NotTo(HaveOccurred())
			Expect(got).To(Equal(want))
		},
		Entry("core", "core/v1/ConfigMap", schema.GroupVersionKind{Version: "v1", Kind: "ConfigMap"}, false),
		Entry("a group", "apps/v1/Deployment", schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}, false),
		Entry("an empty group", "/v1/Secret", schema.GroupVersionKind{Version: "v1", Kind: "Secret"}, false),
		Entry("a kind alone", "ConfigMap", schema.GroupVersionKind{}, true),
		Entry("no kind", "apps/v1/", schema.GroupVersionKind{}, true),
	)

	It("names the failures when pruning is skipped", func() {
		Expect((&PruneSkippedError{Failed: 1}).Error()).To(Equal("pruning skipped: 1 object failed to apply; nothing was deleted"))
		Expect((&PruneSkippedError{Failed: 3}).Error()).To(Equal("pruning skipped: 3 objects failed to apply; nothing was deleted"))
		Expect(Pruned.String()).To(Equal("pruned"))
	})

	It("labels every member, refusing an object that names another set, with its source and field", func() {
		a := &applySet{parent: Ref{GroupVersionKind: schema.GroupVersionKind{Version: "v1", Kind: "Secret"}, Namespace: "ns", Name: "app"}, id: "applyset-x-v1"}
		ok, err := parse.Document([]byte(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","labels":{"k":"v"}}}`))
		Expect(err).NotTo(HaveOccurred())
		got, err := a.label([]Object{{Value: ok, Source: "a.yaml#1"}})
		Expect(err).NotTo(HaveOccurred())
		Expect(string(got[0].Value.JSON())).To(Equal(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"labels":{"applyset.kubernetes.io/part-of":"applyset-x-v1","k":"v"},"name":"a"}}`))
		other, err := parse.Document([]byte(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"b","labels":{"applyset.kubernetes.io/part-of":"applyset-y-v1"}}}`))
		Expect(err).NotTo(HaveOccurred())
		_, err = a.label([]Object{{Value: other, Source: "b.yaml#2"}})
		Expect(err).To(MatchError(ContainSubstring(`b.yaml#2: metadata.labels.applyset.kubernetes.io/part-of: the object names the ApplySet "applyset-y-v1"`)))
		bad, err := parse.Document([]byte(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","labels":["x"]}}`))
		Expect(err).NotTo(HaveOccurred())
		_, err = a.label([]Object{{Value: bad, Source: "c.yaml#1"}})
		Expect(err).To(MatchError("c.yaml#1: metadata.labels: expected a map, got array"))
	})
})

var _ = Describe("the kinds annotation of a parent", func() {
	DescribeTable("reads an entry as a kind only when it is Kind or Kind.group",
		func(entry string, ok bool) {
			Expect(wellFormedKind(entry)).To(Equal(ok))
		},
		Entry("a core kind", "ConfigMap", true),
		Entry("a kind and its group", "Deployment.apps", true),
		Entry("a custom resource", "Bundle.prune.e2e.ply.dev", true),
		Entry("a space", "Config Map", false),
		Entry("punctuation", "ConfigMap!", false),
		Entry("a kind starting with a digit", "1Map", false),
		Entry("an upper-case group", "Widget.Example.com", false),
		Entry("an empty kind", ".apps", false),
		Entry("a slash", "apps/Deployment", false),
	)

	It("names an ApplySet's Lease by a hash of its id, a valid object name", func() {
		id := ApplySetID("app", "team-a", "Secret", "")
		Expect(LeaseName(id)).To(MatchRegexp(`^ply-applyset-[0-9a-f]{32}$`))
		Expect(LeaseName(id)).NotTo(Equal(LeaseName(ApplySetID("app", "team-b", "Secret", ""))))
	})
})
