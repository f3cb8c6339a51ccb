package openapi_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"

	openapi_v2 "github.com/google/gnostic-models/openapiv2"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/kube-openapi/pkg/util/proto"

	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/parse"
)

// The v2 loader classifies schemas and rejects bad shapes itself, by the
// rules of kubectl's reader (kube-openapi's proto models), which it no
// longer links: these specs hold the two to the same verdicts and
// messages. kube-openapi reads the document as gnostic parses it, keys in
// name order (the loader's reader, pkg/parse, does not keep the
// document's order; the first fault reported is the first by name).
var _ = Describe("v2 shapes, against kube-openapi's proto models", func() {
	// verdict is what kube-openapi says of doc: "" when it reads it.
	verdict := func(doc *openapi_v2.Document) string {
		if _, err := proto.NewOpenAPIData(doc); err != nil {
			return err.Error()
		}
		return ""
	}
	// ours is what the loader's shape check says, definitions in name
	// order.
	ours := func(data []byte) string {
		msg, err := openapi.ShapeVerdict(data)
		Expect(err).NotTo(HaveOccurred())
		return msg
	}
	gnosticDoc := func(data []byte) *openapi_v2.Document {
		doc, err := openapi_v2.ParseDocument(sortedJSON(data))
		Expect(err).NotTo(HaveOccurred())
		return doc
	}

	It("agrees on the embedded document and every v2 test document", func() {
		docs := [][]byte{openapi.EmbeddedDefault}
		for _, glob := range []string{"testdata/*.json", "testdata/errors/*.json", "testdata/warnings/*.json"} {
			files, err := filepath.Glob(glob)
			Expect(err).NotTo(HaveOccurred())
			for _, f := range files {
				data, err := os.ReadFile(f)
				Expect(err).NotTo(HaveOccurred())
				_, readErr := openapi.ShapeVerdict(data)
				if doc, err := parseOrNil(data); err == nil && doc.GetSwagger() == "2.0" && readErr == nil {
					docs = append(docs, data)
				}
			}
		}
		Expect(len(docs)).To(BeNumerically(">", 10))
		for _, data := range docs {
			doc := gnosticDoc(data)
			want := verdict(doc)
			if strings.Contains(want, "unknown model in reference") || strings.Contains(want, "unallowed reference to non-definition") {
				// Dangling and non-local $refs: the loader's checkRefs
				// reports them first, with the definition and field.
				continue
			}
			Expect(ours(data)).To(Equal(want), string(data[:min(len(data), 200)]))
		}
	})

	DescribeTable("agrees on one definition",
		func(schema string, wantErr bool) {
			data := []byte(`{"swagger": "2.0", "info": {"title": "t", "version": "v1"}, "paths": {},
				"definitions": {"Other": {"type": "string"}, "T": ` + schema + `}}`)
			doc := gnosticDoc(data)
			Expect(ours(data)).To(Equal(verdict(doc)))
			Expect(ours(data) != "").To(Equal(wantErr), ours(data))
			if !wantErr {
				shapes, err := openapi.ShapeNames(data)
				Expect(err).NotTo(HaveOccurred())
				Expect(shapes).To(HaveLen(2))
				for name, shape := range shapes {
					Expect(shape).To(Equal(protoShape(verdictModels(doc).LookupModel(name))), name)
				}
			}
		},
		Entry("no type, no properties", `{}`, false),
		Entry("properties without type", `{"properties": {"a": {"type": "integer"}}}`, false),
		Entry("empty properties", `{"type": "object", "properties": {}}`, false),
		Entry("object without properties", `{"type": "object"}`, false),
		Entry("map of strings", `{"type": "object", "additionalProperties": {"type": "string"}}`, false),
		Entry("map of bad values", `{"type": "object", "additionalProperties": {"type": "date"}}`, true),
		Entry("array", `{"type": "array", "items": {"type": "string"}}`, false),
		Entry("array without items", `{"type": "array"}`, true),
		// gnostic reads an items list as one empty schema (any value), and
		// so does the loader.
		Entry("array of two item schemas", `{"type": "array", "items": [{"type": "string"}, {"type": "string"}]}`, false),
		Entry("array of bad items", `{"type": "array", "items": {"type": "x"}}`, true),
		Entry("primitives", `{"properties": {"s": {"type": "string"}, "i": {"type": "integer", "format": "int64"},
			"n": {"type": "number"}, "b": {"type": "boolean"}, "x": {"type": "string", "format": "int-or-string"}}}`, false),
		Entry("unknown primitive", `{"properties": {"a": {"properties": {"b": {"type": "null"}}}}}`, true),
		Entry("two types", `{"properties": {"a": {"type": ["string", "integer"]}}}`, true),
		Entry("a $ref", `{"properties": {"a": {"$ref": "#/definitions/Other"}}}`, false),
		Entry("a $ref with a type", `{"properties": {"a": {"$ref": "#/definitions/Other", "type": "string"}}}`, true),
		Entry("a $ref with properties", `{"properties": {"a": {"$ref": "#/definitions/Other", "properties": {"b": {}}}}}`, true),
		Entry("an allOf of one $ref", `{"properties": {"a": {"allOf": [{"$ref": "#/definitions/Other"}], "default": "x"}}}`, false),
		Entry("an allOf of bad schemas (not read)", `{"properties": {"a": {"allOf": [{"type": "x"}]}}}`, false),
		Entry("a definition that is a $ref", `{"$ref": "#/definitions/Other"}`, false),
		// kube-openapi reports z (document order) on the document itself;
		// both report a, the first by name.
		Entry("the first bad property of several", `{"properties": {"z": {"type": "y"}, "a": {"type": "x"}}}`, true),
	)

	It("says SchemaError without a path for a nameless definition", func() {
		data := []byte(`{"swagger": "2.0", "info": {"title": "t", "version": "v1"}, "paths": {},
			"definitions": {"": {"type": "array"}}}`)
		Expect(ours(data)).To(Equal(verdict(gnosticDoc(data))))
		Expect(ours(data)).To(HavePrefix("SchemaError: "))
	})
})

// sortedJSON is data as ply's parser reads it, written back as JSON: object
// keys in name order.
func sortedJSON(data []byte) []byte {
	v, err := parse.Document(data)
	Expect(err).NotTo(HaveOccurred())
	return v.JSON()
}

// parseOrNil is gnostic's parse of data; a panic (which the loader
// reports as bad input) is an error.
func parseOrNil(data []byte) (doc *openapi_v2.Document, err error) {
	defer func() {
		if r := recover(); r != nil {
			doc, err = nil, errors.New("gnostic panicked")
		}
	}()
	return openapi_v2.ParseDocument(data)
}

// verdictModels is kube-openapi's reading of doc, which must succeed.
func verdictModels(doc *openapi_v2.Document) proto.Models {
	m, err := proto.NewOpenAPIData(doc)
	Expect(err).NotTo(HaveOccurred())
	return m
}

// protoShape names the shape kube-openapi gave a schema, as ShapeName
// does: references are "ref".
func protoShape(s proto.Schema) string {
	switch s.(type) {
	case *proto.Kind:
		return "struct"
	case *proto.Map:
		return "map"
	case *proto.Array:
		return "array"
	case *proto.Primitive:
		return "primitive"
	case *proto.Ref:
		return "ref"
	}
	return "unknown"
}
