package openapi_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/parse"
	"github.com/plyproject/ply/pkg/value"
)

const fixturePath = "testdata/fixture.json"

var _ = Describe("LoadV2", func() {
	var (
		s    *openapi.Schema
		spec *openapi.Type
	)
	BeforeEach(func() {
		data, err := os.ReadFile(fixturePath)
		Expect(err).NotTo(HaveOccurred())
		s, err = openapi.LoadV2(data)
		Expect(err).NotTo(HaveOccurred())
		spec = byName(s, "ply.test.v1.ServiceSpec")
	})

	It("indexes a definition under each of its GVKs", func() {
		svc := byName(s, "ply.test.v1.Service")
		for _, av := range []string{"v1", "ply.test/v1beta1"} {
			t, ok := s.ForKind(av, "Service")
			Expect(ok).To(BeTrue(), av)
			Expect(t).To(BeIdenticalTo(svc))
		}
		_, ok := s.ForKind("ply.test/v1", "Service")
		Expect(ok).To(BeFalse())
	})

	It("reads a multi-field merge key", func() {
		f := spec.Field("ports")
		Expect(f.Meta.Strategy).To(Equal(openapi.StrategyMerge))
		Expect(f.Meta.MergeKey).To(Equal([]string{"port", "protocol"}))
		Expect(f.Type.Kind).To(Equal(openapi.KindList))
		Expect(f.Type.Elem).To(BeIdenticalTo(byName(s, "ply.test.v1.ServicePort")))
	})

	It("reads retainKeys on a $ref property", func() {
		f := spec.Field("strategy")
		Expect(f.Meta.Strategy).To(Equal(openapi.StrategyRetainKeys))
		Expect(f.Meta.MergeKey).To(BeEmpty())
		Expect(f.Type).To(BeIdenticalTo(byName(s, "ply.test.v1.Strategy")))
		Expect(f.Type.Kind).To(Equal(openapi.KindStruct))
		Expect(f.Type.FieldNames).To(Equal([]string{"rollingUpdate", "type"}))
		Expect(f.Type.Field("rollingUpdate").Type.Name).To(Equal("ply.test.v1.Strategy.rollingUpdate"))
	})

	It("reads merge,retainKeys", func() {
		f := spec.Field("volumes")
		Expect(f.Meta.Strategy).To(Equal(openapi.StrategyMerge | openapi.StrategyRetainKeys))
		Expect(f.Meta.Strategy.String()).To(Equal("merge,retainKeys"))
		Expect(f.Meta.MergeKey).To(Equal([]string{"name"}))
	})

	It("reads merge on a list of primitives", func() {
		f, t := at(byName(s, "ply.test.v1.Service"), "finalizers")
		Expect(f.Meta.Strategy).To(Equal(openapi.StrategyMerge))
		Expect(t.Kind).To(Equal(openapi.KindList))
		Expect(t.Elem.Kind).To(Equal(openapi.KindPrimitive))
		Expect(t.Elem.Primitive).To(Equal("string"))
		Expect(t.Elem.Name).To(Equal("ply.test.v1.Service.finalizers[]"))
	})

	It("resolves a $ref cycle, through an alias definition, to one pointer", func() {
		props := byName(s, "ply.test.v1.Props")
		Expect(byName(s, "ply.test.v1.PropsAlias")).To(BeIdenticalTo(props))
		Expect(spec.Field("schema").Type).To(BeIdenticalTo(props))
		Expect(props.Field("items").Type).To(BeIdenticalTo(props))
		Expect(props.Field("properties").Type.Kind).To(Equal(openapi.KindMap))
		Expect(props.Field("properties").Type.Elem).To(BeIdenticalTo(props))
		Expect(props.Field("allOf").Type.Elem).To(BeIdenticalTo(props))
	})

	It("reads a map of lists", func() {
		t := spec.Field("selectorLists").Type
		Expect(t.Kind).To(Equal(openapi.KindMap))
		Expect(t.Elem.Kind).To(Equal(openapi.KindList))
		Expect(t.Elem.Elem.Kind).To(Equal(openapi.KindPrimitive))
		Expect(t.Elem.Elem.Primitive).To(Equal("string"))
		Expect(t.Elem.Elem.Name).To(Equal("ply.test.v1.ServiceSpec.selectorLists{}[]"))
	})

	DescribeTable("makes free-form values KindUnknown",
		func(field string) {
			t := spec.Field(field).Type
			Expect(t.Kind).To(Equal(openapi.KindUnknown), "%s is %s", field, t.Kind)
			Expect(t.Fields).To(BeNil())
			Expect(t.Elem).To(BeNil())
		},
		Entry("type object without properties", "raw"),
		Entry("additionalProperties: true", "anyValues"),
		Entry("a $ref to a type object definition", "config"),
		Entry("a $ref to an untyped definition", "anything"),
	)

	DescribeTable("reads primitive defaults as exact values",
		func(path string, want value.Value) {
			f, t := at(spec, path)
			Expect(f.HasDefault).To(BeTrue())
			Expect(value.Equal(f.Default, want)).To(BeTrue(), "default %s, want %s", f.Default.JSON(), want.JSON())
			Expect(f.Default.Kind()).To(Equal(want.Kind()))
			Expect(t.HasDefault).To(BeTrue(), "an inline type carries its default too")
			Expect(value.Equal(t.Default, want)).To(BeTrue())
		},
		Entry("integer", "replicas", value.Int(1)),
		Entry("number", "ratio", value.Float(0.5)),
		Entry("boolean", "enabled", value.Bool(true)),
		Entry("string", "mode", value.String("fast")),
		Entry("nested inline struct", "labels.app", value.String("web")),
	)

	It("keeps a default on a $ref property to the field, not the shared type", func() {
		f := spec.Field("defaulted")
		Expect(f.Type).To(BeIdenticalTo(byName(s, "ply.test.v1.Strategy")), "allOf with one $ref is a reference")
		Expect(f.HasDefault).To(BeTrue())
		Expect(string(f.Default.JSON())).To(Equal(`{"type":"Recreate"}`))
		Expect(f.Type.HasDefault).To(BeFalse())
		Expect(spec.Field("strategy").HasDefault).To(BeFalse())
	})

	It("reads a default of a shared definition's field", func() {
		f := byName(s, "ply.test.v1.ServicePort").Field("protocol")
		Expect(f.HasDefault).To(BeTrue())
		Expect(string(f.Default.JSON())).To(Equal(`"TCP"`))
		Expect(byName(s, "ply.test.v1.ServicePort").Field("port").HasDefault).To(BeFalse())
	})

	It("lets int-or-string fields hold any primitive", func() {
		t := spec.Field("targetPort").Type
		Expect(t.Kind).To(Equal(openapi.KindPrimitive))
		Expect(t.Primitive).To(BeEmpty())
		Expect(spec.Field("replicas").Type.Primitive).To(Equal("integer"))
	})

	It("returns the cached schema for the same document, also concurrently", func() {
		data, err := os.ReadFile(fixturePath)
		Expect(err).NotTo(HaveOccurred())
		var wg sync.WaitGroup
		got := make([]*openapi.Schema, 8)
		for i := range got {
			wg.Add(1)
			go func() {
				defer wg.Done()
				got[i], _ = openapi.LoadV2(append([]byte(nil), data...))
			}()
		}
		wg.Wait()
		for _, g := range got {
			Expect(g).To(BeIdenticalTo(s))
		}
		fresh, err := openapi.LoadV2Uncached("", data)
		Expect(err).NotTo(HaveOccurred())
		Expect(fresh).NotTo(BeIdenticalTo(s))
	})

	DescribeTable("rejects bad documents with an error naming where",
		func(file, definition, path string, msg []string) {
			data, err := os.ReadFile(filepath.Join("testdata", "errors", file))
			Expect(err).NotTo(HaveOccurred())
			s, err := openapi.LoadV2(data)
			Expect(s).To(BeNil())
			Expect(err).To(HaveOccurred())
			var e *openapi.Error
			Expect(errors.As(err, &e)).To(BeTrue(), "error %T: %v", err, err)
			Expect(e.Definition).To(Equal(definition), err.Error())
			Expect(e.Path).To(Equal(path), err.Error())
			for _, m := range msg {
				Expect(err.Error()).To(ContainSubstring(m))
			}

			named, err := openapi.LoadV2Named(file, data)
			Expect(named).To(BeNil())
			Expect(err).To(MatchError(HavePrefix("openapi: " + file + ": ")))
		},
		Entry("malformed JSON", "malformed.json", "", "",
			[]string{`openapi: OpenAPI v2 document: not valid YAML or JSON (`, "line 6", "want an OpenAPI v2 document (a JSON or YAML object)"}),
		Entry("empty", "empty.json", "", "", []string{"the document is empty"}),
		Entry("a keyword value of the wrong kind", "wrong-kind-value.json", "a", "",
			[]string{`openapi: OpenAPI v2 document "x 1": definition a: required is an object, want a list of strings (at #/definitions/a/required)`}),
		Entry("a property schema of the wrong kind", "wrong-kind-property.yaml", "ply.test.v1.Thing", "spec.ports[]",
			[]string{`definition ply.test.v1.Thing, field spec.ports[]: type is an integer, want a string or a list of strings (at #/definitions/ply.test.v1.Thing/properties/spec/properties/ports/items/type)`}),
		Entry("an unknown schema keyword", "unknown-keyword.json", "ply.test.v1.Typo", "spec",
			[]string{`unknown schema keyword "proprties", want a Swagger 2.0 schema keyword or an x- extension (at #/definitions/ply.test.v1.Typo/properties/spec/proprties)`}),
		Entry("a swagger version other than 2.0", "swagger-3.json", "", "",
			[]string{`swagger is "3.0", want "2.0" (a string) (at #/swagger)`}),
		Entry("an OpenAPI v3 document", "openapi-v3.json", "", "",
			[]string{`the document is OpenAPI v3 (openapi "3.0.0"), want an OpenAPI v2 document (swagger "2.0")`}),
		Entry("a duplicate key (the parser's error)", "duplicate-key.json", "", "",
			[]string{`not valid YAML or JSON (`, `line 6`, `ply.test.v1.Twice`}),
		// ply's parser says what the input is when it is not an object.
		Entry("only comments", "comments-only.yaml", "", "",
			[]string{"openapi: OpenAPI v2 document: the input holds no document, only comments, blank lines or nulls, want an OpenAPI v2 document (a JSON or YAML object)"}),
		Entry("a list holding null", "list-of-null.yaml", "", "",
			[]string{"openapi: OpenAPI v2 document: the document is an array, want an OpenAPI v2 document (a JSON or YAML object)"}),
		Entry("a list", "list.yaml", "", "", []string{"openapi: OpenAPI v2 document: the document is an array, want an OpenAPI v2 document"}),
		Entry("dangling $ref", "dangling-ref.json", "ply.test.v1.Broken", "spec.target",
			[]string{`openapi: OpenAPI v2 document "dangling v1": definition ply.test.v1.Broken, field spec.target: `,
				`$ref "#/definitions/ply.test.v1.Missing" names no definition`}),
		Entry("dangling $ref of list items", "dangling-item-ref.json", "ply.test.v1.List", "items[]",
			[]string{"ply.test.v1.List", "ply.test.v1.Gone"}),
		Entry("$ref outside the document", "non-local-ref.json", "ply.test.v1.Remote", "other",
			[]string{"other.json#/definitions/Thing", "does not point into this document's definitions"}),
		Entry("merge and replace together", "merge-and-replace.json", "ply.test.v1.Both", "list",
			[]string{"ply.test.v1.Both", "merge and replace"}),
		Entry("empty merge key part", "empty-merge-key.json", "ply.test.v1.Keyed", "ports",
			[]string{"ply.test.v1.Keyed", `"port,,protocol" has an empty field name`}),
		Entry("patch strategy that is not a string", "strategy-not-string.json", "ply.test.v1.Numbered", "list",
			[]string{"ply.test.v1.Numbered", "x-kubernetes-patch-strategy is an integer, want a string"}),
		Entry("GVK claimed twice", "duplicate-gvk.json", "ply.test.v1.Second", "",
			[]string{"ply.test.v1.Second", "ply.test.v1.First", `kind "Thing"`}),
		Entry("array without items (kube-openapi's check)", "array-without-items.json", "", "",
			[]string{`openapi: OpenAPI v2 document "items v1": invalid schema`, "ply.test.v1.Itemless.list"}),
	)

	// What ply's reader reads differently from gnostic, which LoadV2 used
	// before, or reads alike where it could differ.
	Describe("as ply's own parser reads the document", func() {
		load := func(definitions string) (*openapi.Schema, error) {
			return openapi.LoadV2Uncached("", []byte(`{"swagger": "2.0", "info": {"title": "t", "version": "v1"},
				"definitions": `+definitions+`}`))
		}

		It("keeps an integer beyond int64 as a number where the field is not an integer", func() {
			s, err := load(`{"T": {"properties": {"s": {"type": "string", "default": 18446744073709551615},
				"l": {"default": [18446744073709551615]}}}}`)
			Expect(err).NotTo(HaveOccurred())
			f := byName(s, "T").Field("s")
			Expect(f.HasDefault).To(BeTrue())
			Expect(f.Default.Kind()).To(Equal(value.KindFloat))
			Expect(string(byName(s, "T").Field("l").Default.JSON())).To(Equal("[18446744073709552000]"))
		})

		It("reads a list of item schemas (a tuple) as items of any value", func() {
			s, err := load(`{"T": {"type": "array", "items": [{"type": "string"}, {"type": "integer"}]}}`)
			Expect(err).NotTo(HaveOccurred())
			t := byName(s, "T")
			Expect(t.Kind).To(Equal(openapi.KindList))
			Expect(t.Elem.Kind).To(Equal(openapi.KindUnknown))
			Expect(t.Elem.Name).To(Equal("T[]"))
		})

		It("needs no info or paths, which it does not read", func() {
			s, err := openapi.LoadV2Uncached("", []byte(`{"swagger": "2.0", "definitions": {"T": {"type": "string"}}}`))
			Expect(err).NotTo(HaveOccurred())
			Expect(byName(s, "T").Primitive).To(Equal("string"))
			_, err = openapi.LoadV2Uncached("", []byte(`{"swagger": "2.0", "definitions": {"T": {"type": 1}}}`))
			Expect(err).To(MatchError(HavePrefix("openapi: OpenAPI v2 document: definition T: type is an integer")))
		})

		It("reports the first fault in name order, not in the document's order", func() {
			_, err := load(`{"b": {"type": "array"}, "a": {"type": "array"}}`)
			Expect(err).To(MatchError(ContainSubstring("SchemaError(a): array should have exactly one sub-item")))
			_, err = load(`{"T": {"properties": {"z": {"title": true}, "a": {"title": false}}}}`)
			var e *openapi.Error
			Expect(errors.As(err, &e)).To(BeTrue())
			Expect(e.Path).To(Equal("a"))
			Expect(e.Msg).To(Equal("title is a boolean, want a string (at #/definitions/T/properties/a/title)"))
		})

		It("reads a document beyond the 32 MiB that bound a manifest (a server's, with many CRDs)", func() {
			big := []byte(`{"swagger": "2.0", "definitions": {"T": {"type": "string", "description": "` +
				strings.Repeat("x", parse.DefaultMaxBytes) + `"}}}`)
			s, err := openapi.LoadV2Uncached("", big)
			Expect(err).NotTo(HaveOccurred())
			Expect(byName(s, "T").Primitive).To(Equal("string"))
		})

		It("reads a YAML document with more lines than a manifest may have", func() {
			var sb strings.Builder
			sb.WriteString("swagger: \"2.0\"\ndefinitions:\n")
			n := parse.DefaultMaxYAMLSeparators/3 + 1
			for i := range n {
				fmt.Fprintf(&sb, "  T%d:\n    type: string\n    format: byte\n", i)
			}
			s, err := openapi.LoadV2Uncached("", []byte(sb.String()))
			Expect(err).NotTo(HaveOccurred())
			Expect(byName(s, "T0").Primitive).To(Equal("string"))
			Expect(byName(s, "T"+strconv.Itoa(n-1)).Primitive).To(Equal("string"))
		})

		It("reads a YAML document as its JSON", func() {
			data, err := os.ReadFile(fixturePath)
			Expect(err).NotTo(HaveOccurred())
			doc, err := parse.Document(data)
			Expect(err).NotTo(HaveOccurred())
			fromYAML, err := openapi.LoadV2Uncached("", doc.YAML())
			Expect(err).NotTo(HaveOccurred())
			fromJSON, err := openapi.LoadV2Uncached("", data)
			Expect(err).NotTo(HaveOccurred())
			Expect(openapi.SchemaDiff(fromYAML, fromJSON)).To(BeEmpty())
		})
	})
})
