package openapi_test

import (
	"errors"
	"os"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/value"
)

func loadCRDFile(file string) (*openapi.Schema, error) {
	data, err := os.ReadFile(file)
	Expect(err).NotTo(HaveOccurred())
	return openapi.LoadCRD(file, data)
}

var _ = Describe("LoadCRD", func() {
	var s *openapi.Schema
	var root *openapi.Type
	BeforeEach(func() {
		var err error
		s, err = loadCRDFile("testdata/crd/widgets.yaml")
		Expect(err).NotTo(HaveOccurred())
		var ok bool
		root, ok = s.ForKind("ply.test/v1", "Widget")
		Expect(ok).To(BeTrue())
	})

	It("makes every served version the root type of its group, version and kind", func() {
		Expect(byName(s, "ply.test/v1/Widget")).To(BeIdenticalTo(root))
		beta, ok := s.ForKind("ply.test/v1beta1", "Widget")
		Expect(ok).To(BeTrue())
		Expect(beta).NotTo(BeIdenticalTo(root))
		_, ok = s.ForKind("ply.test/v2", "Gadget")
		Expect(ok).To(BeTrue(), "the second CRD of the file")
		expectUnresolved(s, "ply.test/v1alpha1", "Widget") // not served
		expectUnresolved(s, "ply.test/v1", "Gadget")
	})

	DescribeTable("reads the structural extensions",
		func(path string, strategy openapi.Strategy, key []string) {
			expectMeta(s, "ply.test/v1", "Widget", path, strategy, key)
		},
		Entry("list-type map keyed by two fields", "spec.ports", openapi.StrategyMerge, []string{"port", "protocol"}),
		Entry("list-type atomic", "spec.args", openapi.Strategy(0), nil),
		Entry("list-type set", "spec.tags", openapi.StrategyMerge, nil),
		Entry("map-type atomic", "spec.selector", openapi.StrategyReplace, nil),
		Entry("finalizers of the implicit metadata: a set", "metadata.finalizers", openapi.StrategyMerge, nil),
		Entry("ownerReferences of the implicit metadata: keyed by uid", "metadata.ownerReferences", openapi.StrategyMerge, []string{"uid"}),
	)

	It("keeps defaults, including a key field's", func() {
		_, port := at(root, "spec.ports[]")
		d, ok := port.KeyDefault("protocol")
		Expect(ok).To(BeTrue())
		Expect(value.Equal(d, value.String("TCP"))).To(BeTrue())
		d, ok = root.Field("spec").Type.FieldDefault("replicas")
		Expect(ok).To(BeTrue())
		Expect(value.Equal(d, value.Int(1))).To(BeTrue())
		_, size := at(root, "spec.size")
		Expect(size.Kind).To(Equal(openapi.KindPrimitive), "int-or-string")
	})

	It("makes preserve-unknown-fields objects without properties free-form", func() {
		_, config := at(root, "spec.config")
		Expect(config.Kind).To(Equal(openapi.KindUnknown))
		_, status := at(root, "status")
		Expect(status.Kind).To(Equal(openapi.KindUnknown))
		beta, _ := s.ForKind("ply.test/v1beta1", "Widget")
		Expect(beta.Kind).To(Equal(openapi.KindStruct), "the root still gets apiVersion, kind and metadata")
		Expect(beta.FieldNames).To(Equal([]string{"apiVersion", "kind", "metadata"}))
		child, _ := beta.Child("spec")
		Expect(child.Kind).To(Equal(openapi.KindUnknown))
	})

	It("adds apiVersion, kind and metadata to the root and to embedded resources", func() {
		Expect(root.FieldNames).To(Equal([]string{"apiVersion", "kind", "metadata", "spec", "status"}))
		Expect(root.Field("apiVersion").Type.Primitive).To(Equal("string"))
		meta := root.Field("metadata").Type
		Expect(meta.Field("labels").Type.Kind).To(Equal(openapi.KindMap))
		_, tmpl := at(root, "spec.template")
		Expect(tmpl.FieldNames).To(Equal([]string{"apiVersion", "kind", "metadata"}))
		Expect(tmpl.Field("metadata").Type).To(BeIdenticalTo(meta))
		child, _ := tmpl.Child("spec")
		Expect(child.Kind).To(Equal(openapi.KindUnknown), "undeclared fields of an embedded resource are free-form")
	})

	It("keeps a declared apiVersion but always uses the ObjectMeta type for metadata", func() {
		gadget, _ := s.ForKind("ply.test/v2", "Gadget")
		meta, _ := s.ForKind("ply.test/v1", "Widget")
		Expect(gadget.Field("metadata").Type).To(BeIdenticalTo(meta.Field("metadata").Type))
		Expect(gadget.Field("metadata").Type.Field("finalizers")).NotTo(BeNil())
		Expect(gadget.Field("parts").Type.Kind).To(Equal(openapi.KindList))
	})

	DescribeTable("rejects bad CRDs with an error naming the document, the CRD and the version",
		func(file string, parts ...string) {
			sch, err := loadCRDFile("testdata/crd/errors/" + file)
			Expect(sch).To(BeNil())
			var oe *openapi.Error
			Expect(errors.As(err, &oe)).To(BeTrue(), "%v", err)
			Expect(oe.Document).To(HavePrefix("testdata/crd/errors/" + file))
			for _, p := range parts {
				Expect(err.Error()).To(ContainSubstring(p))
			}
		},
		Entry("a served version without a schema (not structural)", "no-schema.yaml",
			"definition CustomResourceDefinition widgets.ply.test version v1: ", "no schema.openAPIV3Schema", "structural"),
		Entry("a $ref", "ref.yaml",
			"definition CustomResourceDefinition widgets.ply.test version v1, field spec: ", "$ref", "not allowed"),
		Entry("list-map-keys naming a missing field", "missing-key.yaml",
			"version v1, field spec.ports: ", `"protcol"`, "does not declare"),
		Entry("a v1beta1 CRD", "v1beta1.yaml", `apiVersion is "apiextensions.k8s.io/v1beta1", want apiextensions.k8s.io/v1`),
		Entry("malformed YAML", "malformed.yaml", "not a valid YAML or JSON manifest"),
		Entry("no group", "no-group.yaml", "widgets.ply.test: spec.group is missing"),
		Entry("the second document at fault", "second-bad.yaml", "second-bad.yaml #2: ", `x-kubernetes-list-type "bag"`),
		Entry("an extension of the wrong type", "preserve-not-bool.yaml", "field config: ", "x-kubernetes-preserve-unknown-fields is a string, want a boolean"),
		Entry("not a CRD", "not-crd.yaml", `kind is "Deployment", want CustomResourceDefinition`),
	)

	It("reads the items of a List, naming the item at fault", func() {
		_, err := loadCRDFile("testdata/crd/list.yaml")
		Expect(err).To(MatchError("openapi: testdata/crd/list.yaml items[1]: definition CustomResourceDefinition gadgets.ply.test version v1: " +
			"the version has no schema.openAPIV3Schema object, want a structural schema"))
		data, err := os.ReadFile("testdata/crd/list.yaml")
		Expect(err).NotTo(HaveOccurred())
		first := data[:strings.Index(string(data), "- apiVersion: apiextensions.k8s.io/v1\n  kind: CustomResourceDefinition\n  metadata:\n    name: gadgets")]
		s, err := openapi.LoadSource("list.yaml", first)
		Expect(err).NotTo(HaveOccurred())
		expectMeta(s, "ply.test/v1", "Gizmo", "spec.hosts", openapi.StrategyMerge, nil)
	})

	It("rejects input without documents", func() {
		_, err := openapi.LoadCRD("", []byte("---\n"))
		Expect(err).To(MatchError(ContainSubstring("CustomResourceDefinition manifest: no document")))
	})
})

var _ = Describe("LoadSources and Union", func() {
	It("reads a folder of mixed v2, v3 and CRD files recursively, the first file winning", func() {
		s, err := openapi.LoadSources("testdata/crd/mixed")
		Expect(err).NotTo(HaveOccurred())
		expectMeta(s, "example.com/v1", "Widget", "spec.parts", openapi.StrategyMerge, []string{"id"}) // v2 wins over the CRD
		expectMeta(s, "apps/v1", "Deployment", "spec.hosts", openapi.StrategyMerge, nil)               // v3
		gizmo, ok := s.ForKind("ply.test/v1", "Gizmo")                                                 // CRD in sub/
		Expect(ok).To(BeTrue())
		Expect(gizmo.Field("metadata")).NotTo(BeNil())
		Expect(byName(s, "ply.test/v1/Gizmo")).To(BeIdenticalTo(gizmo))
		Expect(byName(s, "com.example.v1.Part").Kind).To(Equal(openapi.KindStruct))
		expectUnresolved(s, "v1", "Pod")
	})

	It("lets a source win over the embedded default for the same kind, which still resolves the rest", func() {
		src, err := openapi.LoadSources("testdata/crd/mixed/b-v3.json", "testdata/crd/widgets.yaml")
		Expect(err).NotTo(HaveOccurred())
		def, err := openapi.DefaultV3()
		Expect(err).NotTo(HaveOccurred())
		s := openapi.Union(src, nil, def)
		deploy, ok := s.ForKind("apps/v1", "Deployment")
		Expect(ok).To(BeTrue())
		Expect(deploy.Name).To(Equal("ply.override.Deployment"))
		expectMeta(s, "v1", "Pod", "spec.containers[].ports", openapi.StrategyMerge, []string{"containerPort", "protocol"})
		expectMeta(s, "ply.test/v1", "Widget", "spec.ports", openapi.StrategyMerge, []string{"port", "protocol"})
		Expect(byName(s, "io.k8s.api.core.v1.PodSpec").Kind).To(Equal(openapi.KindStruct))
		expectUnresolved(s, "ply.test/v1", "Nope")
		expectUnresolved(openapi.Union(), "v1", "Pod")
	})

	DescribeTable("names the file at fault",
		func(path string, parts ...string) {
			s, err := openapi.LoadSources("testdata/crd/widgets.yaml", path)
			Expect(s).To(BeNil())
			var oe *openapi.Error
			Expect(errors.As(err, &oe)).To(BeTrue(), "%v", err)
			for _, p := range parts {
				Expect(err.Error()).To(ContainSubstring(p))
			}
		},
		Entry("a missing file", "testdata/crd/nope.yaml", "openapi: testdata/crd/nope.yaml: cannot read: no such file"),
		Entry("a folder with a bad CRD", "testdata/crd/errors", "openapi: testdata/crd/errors/malformed.yaml: not valid YAML or JSON"),
		Entry("a folder without schema files", "testdata/crd/mixed/sub/empty", "the folder holds no .json, .yaml or .yml file"),
		Entry("a YAML object that is not a schema", "testdata/crd/errors/not-crd.yaml",
			`openapi: testdata/crd/errors/not-crd.yaml: the document has kind "Deployment", want an OpenAPI v2 or v3 document or CustomResourceDefinition manifests`),
		Entry("a JSON object that is not a schema", "testdata/crd/mixed/sub/empty/other.txt",
			"the JSON object has no swagger, openapi or kind CustomResourceDefinition field"),
		Entry("a bad v3 document", "testdata/v3errors/dangling-ref.json", "openapi: testdata/v3errors/dangling-ref.json: definition"),
	)

	DescribeTable("tells formats apart by content",
		func(data, apiVersion, kind string) {
			s, err := openapi.LoadSource("inline", []byte(data))
			Expect(err).NotTo(HaveOccurred())
			_, ok := s.ForKind(apiVersion, kind)
			Expect(ok).To(BeTrue())
		},
		Entry("v2 in YAML", "swagger: '2.0'\ninfo: {title: t, version: v}\npaths: {}\ndefinitions:\n  a.W:\n    type: object\n    x-kubernetes-group-version-kind: [{group: a, version: v1, kind: W}]\n", "a/v1", "W"),
		Entry("v3 in YAML", "openapi: 3.0.0\ncomponents:\n  schemas:\n    a.W:\n      type: object\n      x-kubernetes-group-version-kind: [{group: a, version: v1, kind: W}]\n", "a/v1", "W"),
		Entry("a CRD in JSON", `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"ws.a"},"spec":{"group":"a","names":{"kind":"W"},"versions":[{"name":"v1","served":true,"schema":{"openAPIV3Schema":{"type":"object"}}}]}}`, "a/v1", "W"),
	)
})
