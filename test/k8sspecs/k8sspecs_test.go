package k8sspecs_test

import (
	"os"
	"path/filepath"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/apply"
	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/pkg/parse"
	"github.com/plyproject/ply/test/k8sspecs"
)

// release is one release's documents, fetched.
type release struct {
	version string
	docs    k8sspecs.Documents
}

var _ = Describe("the OpenAPI documents of Kubernetes releases", Ordered, func() {
	var releases []release

	BeforeAll(func(ctx SpecContext) {
		harness, err := k8sspecs.HarnessRelease(filepath.Join("..", ".."))
		Expect(err).NotTo(HaveOccurred())
		for _, v := range append([]string{harness}, k8sspecs.Releases...) {
			start := time.Now()
			dir, err := k8sspecs.Download(ctx, v)
			Expect(err).NotTo(HaveOccurred())
			docs, err := k8sspecs.Find(dir)
			Expect(err).NotTo(HaveOccurred(), v)
			GinkgoWriter.Printf("%s: %d v3 documents, fetched or found in %s\n", v, len(docs.V3), time.Since(start).Round(time.Millisecond))
			releases = append(releases, release{version: v, docs: docs})
		}
	}, NodeTimeout(10*time.Minute))

	It("loads every v2 and v3 document, with warnings only for the list-map-keys Kubernetes' List types declare", func() {
		var warnings []string
		documents := 0
		for _, r := range releases {
			data, err := os.ReadFile(r.docs.V2)
			Expect(err).NotTo(HaveOccurred())
			v2, err := openapi.LoadV2Named(r.version+" swagger.json", data)
			Expect(err).NotTo(HaveOccurred())
			Expect(v2.Warnings()).To(BeEmpty(), r.version)
			documents++
			for _, f := range r.docs.V3 {
				data, err := os.ReadFile(f)
				Expect(err).NotTo(HaveOccurred())
				v3, err := openapi.LoadV3(r.version+" "+filepath.Base(f), data)
				Expect(err).NotTo(HaveOccurred())
				documents++
				for _, w := range v3.Warnings() {
					warnings = append(warnings, w.Document+": "+w.Definition+", "+w.Path)
					Expect(w.Definition).To(HaveSuffix("List"), w.String())
					Expect(w.Path).To(Equal("items"), w.String())
					Expect(w.Msg).To(HavePrefix("x-kubernetes-list-map-keys names "), w.String())
				}
			}
		}
		GinkgoWriter.Printf("%d documents loaded; warnings: %s\n", documents, strings.Join(warnings, "; "))
		Expect(documents).To(BeNumerically(">=", 4*55))
		Expect(warnings).To(ConsistOf(
			"v1.29.6 apis__storage.k8s.io__v1_openapi.json: io.k8s.api.storage.v1.CSIStorageCapacityList, items",
			"v1.33.13 apis__storagemigration.k8s.io__v1alpha1_openapi.json: io.k8s.api.storagemigration.v1alpha1.StorageVersionMigrationList, items",
		))
	})

	DescribeTable("merges a Deployment alike with the v2 and the apps/v1 v3 document of every release and the embedded schema",
		func(gates features.Gates, want string) {
			recorded, local, live := readDoc("recorded.yaml"), readDoc("local.yaml"), readDoc("live.yaml")
			merge := func(s *openapi.Schema) string {
				out, _, err := apply.MergeBytes(recorded, local, live, apply.Options{Schema: s, Overwrite: true, Gates: gates})
				Expect(err).NotTo(HaveOccurred())
				v, err := parse.Document(out)
				Expect(err).NotTo(HaveOccurred())
				return string(v.YAML())
			}
			wantYAML := string(readDoc(want))
			def, err := openapi.DefaultV2()
			Expect(err).NotTo(HaveOccurred())
			Expect(merge(def)).To(Equal(wantYAML), "embedded v2")
			merged := 1
			for _, r := range releases {
				data, err := os.ReadFile(r.docs.V2)
				Expect(err).NotTo(HaveOccurred())
				v2, err := openapi.LoadV2Named(r.version+" swagger.json", data)
				Expect(err).NotTo(HaveOccurred())
				Expect(merge(v2)).To(Equal(wantYAML), r.version+" v2")
				data, err = os.ReadFile(r.docs.AppsV1())
				Expect(err).NotTo(HaveOccurred())
				v3, err := openapi.LoadV3(r.version+" apps/v1", data)
				Expect(err).NotTo(HaveOccurred())
				Expect(merge(v3)).To(Equal(wantYAML), r.version+" v3")
				merged += 2
			}
			Expect(merged).To(Equal(1 + 2*(1+len(k8sspecs.Releases))))
		},
		Entry("ply's semantics (every gate on)", features.Gates{}, "merged.yaml"),
		Entry("kubectl's (every gate off)", features.Kubectl(), "merged-kubectl.yaml"),
	)
})

// readDoc is a file of testdata.
func readDoc(name string) []byte {
	data, err := os.ReadFile(filepath.Join("testdata", name))
	ExpectWithOffset(1, err).NotTo(HaveOccurred())
	return data
}
