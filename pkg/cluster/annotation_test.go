package cluster

import (
	"os"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/pkg/parse"
	"github.com/plyproject/ply/pkg/value"
)

// The fixtures under testdata/kubectl were produced by the real kubectl
// (v1.32): `kubectl create --dry-run=client -o json --save-config -f
// NAME.yaml` against a discovery-only server, so NAME.kubectl.json is the
// object kubectl sends, with the annotation it writes. kubectl sets the
// namespace of namespaced objects ("default" from an empty kubeconfig)
// before it records the configuration.
func loadKubectlFixture(name, namespace string) (local, sent value.Value) {
	data, err := os.ReadFile(filepath.Join("testdata", "kubectl", name+".yaml"))
	Expect(err).NotTo(HaveOccurred())
	local, err = parse.Document(data)
	Expect(err).NotTo(HaveOccurred())
	if namespace != "" {
		md, _ := local.Get("metadata")
		if _, ok := md.Get("namespace"); !ok {
			local = local.With("metadata", md.With("namespace", value.String(namespace)))
		}
	}
	data, err = os.ReadFile(filepath.Join("testdata", "kubectl", name+".kubectl.json"))
	Expect(err).NotTo(HaveOccurred())
	sent, err = parse.Document(data)
	Expect(err).NotTo(HaveOccurred())
	return local, sent
}

func annotationOf(v value.Value) (string, bool) {
	md, _ := v.Get("metadata")
	ann, _ := md.Get("annotations")
	a, ok := ann.Get(LastAppliedAnnotation)
	s, _ := a.AsString()
	return s, ok
}

var _ = Describe("the last-applied annotation", func() {
	DescribeTable("is byte for byte what kubectl writes",
		func(name, namespace string) {
			local, sent := loadKubectlFixture(name, namespace)
			want, ok := annotationOf(sent)
			Expect(ok).To(BeTrue())
			Expect(LastAppliedConfiguration(local)).To(Equal(want))
			By("and the object sent is kubectl's")
			Expect(value.Equal(WithLastApplied(local), sent)).To(BeTrue(), string(WithLastApplied(local).JSON()))
		},
		Entry("a namespaced object without annotations, with <, > and & and a line separator", "cm", "default"),
		Entry("an object with annotations, an old annotation, nulls and numbers", "dep", "default"),
		Entry("a cluster-scoped object", "ns", ""),
	)

	It("reads back as the configuration it records", func() {
		local, sent := loadKubectlFixture("dep", "default")
		rec, err := RecordedFrom(sent)
		Expect(err).NotTo(HaveOccurred())
		md, _ := local.Get("metadata")
		ann, _ := md.Get("annotations")
		want := local.With("metadata", md.With("annotations", ann.Without(LastAppliedAnnotation)))
		Expect(value.Equal(rec, want)).To(BeTrue(), string(rec.JSON()))
		By("and recording it again gives the same bytes")
		s, _ := annotationOf(sent)
		Expect(LastAppliedConfiguration(rec)).To(Equal(s))
	})

	DescribeTable("RecordedFrom",
		func(live, wantJSON, wantErr string) {
			v, err := parse.Document([]byte(live))
			Expect(err).NotTo(HaveOccurred())
			rec, err := RecordedFrom(v)
			if wantErr != "" {
				Expect(err).To(MatchError(ContainSubstring(wantErr)))
				return
			}
			Expect(err).NotTo(HaveOccurred())
			Expect(string(rec.JSON())).To(Equal(wantJSON))
		},
		Entry("no annotation: a first apply", `{"metadata":{"name":"x"}}`, "null", ""),
		Entry("an empty annotation", `{"metadata":{"annotations":{"`+LastAppliedAnnotation+`":""}}}`, "null", ""),
		Entry("a recorded object", `{"metadata":{"annotations":{"`+LastAppliedAnnotation+`":"{\"a\":1}\n"}}}`, `{"a":1}`, ""),
		Entry("not JSON", `{"metadata":{"annotations":{"`+LastAppliedAnnotation+`":"{a"}}}`, "", "not a valid recorded configuration"),
		Entry("not an object", `{"metadata":{"annotations":{"`+LastAppliedAnnotation+`":"[1]"}}}`, "", "expected a JSON object, got array"),
		Entry("not a string", `{"metadata":{"annotations":{"`+LastAppliedAnnotation+`":1}}}`, "", "expected a string, got integer"),
	)
})
