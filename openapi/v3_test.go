package openapi_test

import (
	"errors"
	"os"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/value"
)

var _ = Describe("LoadV3", func() {
	var s *openapi.Schema
	var spec *openapi.Type
	BeforeEach(func() {
		data, err := os.ReadFile("testdata/v3/precedence.json")
		Expect(err).NotTo(HaveOccurred())
		s, err = openapi.LoadV3("precedence.json", data)
		Expect(err).NotTo(HaveOccurred())
		root, ok := s.ForKind("ply.test/v1", "Widget")
		Expect(ok).To(BeTrue())
		Expect(root).To(BeIdenticalTo(byName(s, "ply.test.v1.Widget")))
		spec = root.Field("spec").Type
		Expect(spec).To(BeIdenticalTo(byName(s, "ply.test.v1.WidgetSpec")), "allOf with one $ref is a reference")
	})

	DescribeTable("gives v2-only, v3-only and both-present metadata the documented precedence",
		func(field string, strategy openapi.Strategy, key []string) {
			f := spec.Field(field)
			Expect(f).NotTo(BeNil())
			Expect(f.Meta.Strategy).To(Equal(strategy), "strategy %s", f.Meta.Strategy)
			if key == nil {
				Expect(f.Meta.MergeKey).To(BeEmpty())
			} else {
				Expect(f.Meta.MergeKey).To(Equal(key))
			}
		},
		Entry("patch extensions only: patch merge key", "v2only", openapi.StrategyMerge, []string{"port"}),
		Entry("list-type map only: list-map-keys", "v3only", openapi.StrategyMerge, []string{"port", "protocol"}),
		Entry("both: list-map-keys define identity", "both", openapi.StrategyMerge, []string{"port", "protocol"}),
		Entry("both with retainKeys: retainKeys kept", "retained", openapi.StrategyMerge|openapi.StrategyRetainKeys, []string{"name"}),
		Entry("list-type atomic wins over patch merge", "atomicWins", openapi.Strategy(0), nil),
		Entry("list-type set: merge as a set", "set", openapi.StrategyMerge, nil),
		Entry("list-type atomic", "atomicList", openapi.Strategy(0), nil),
		Entry("no extension", "plainList", openapi.Strategy(0), nil),
		Entry("map-type atomic: replace", "atomicMap", openapi.StrategyReplace, nil),
		Entry("map-type granular: merge", "granularMap", openapi.Strategy(0), nil),
		Entry("a reference takes its target's map-type", "selector", openapi.StrategyReplace, nil),
		Entry("a reference's own map-type wins over its target's", "ownSelector", openapi.Strategy(0), nil),
	)

	It("resolves list items through $ref and single-$ref allOf to the shared type", func() {
		port := byName(s, "ply.test.v1.Port")
		Expect(spec.Field("v2only").Type.Elem).To(BeIdenticalTo(port))
		Expect(spec.Field("v3only").Type.Elem).To(BeIdenticalTo(port))
		Expect(spec.Field("set").Type.Elem.Kind).To(Equal(openapi.KindPrimitive))
		Expect(spec.Field("atomicMap").Type.Kind).To(Equal(openapi.KindMap))
	})

	It("gives a key field its schema default, so a port without protocol matches TCP", func() {
		d, ok := spec.Field("both").Type.Elem.FieldDefault("protocol")
		Expect(ok).To(BeTrue())
		Expect(value.Equal(d, value.String("TCP"))).To(BeTrue())
		_, ok = spec.Field("both").Type.Elem.FieldDefault("port")
		Expect(ok).To(BeFalse())
	})

	DescribeTable("reads defaults as exact values",
		func(field string, want value.Value) {
			f := spec.Field(field)
			Expect(f.HasDefault).To(BeTrue())
			Expect(f.Default.Kind()).To(Equal(want.Kind()))
			Expect(value.Equal(f.Default, want)).To(BeTrue(), "default %s, want %s", f.Default.JSON(), want.JSON())
		},
		Entry("int32", "replicas", value.Int(1)),
		Entry("int64 beyond float64 precision", "big", value.Int(9007199254740993)),
	)

	It("keeps a default on a reference property to the field", func() {
		root := byName(s, "ply.test.v1.Widget")
		Expect(root.Field("spec").HasDefault).To(BeTrue())
		Expect(string(root.Field("spec").Default.JSON())).To(Equal(`{}`))
		Expect(spec.HasDefault).To(BeFalse())
	})

	It("makes int-or-string a primitive of either type", func() {
		t := spec.Field("target").Type
		Expect(t.Kind).To(Equal(openapi.KindPrimitive))
		Expect(t.Primitive).To(BeEmpty())
	})

	It("unites several documents, the first one winning", func() {
		data, err := os.ReadFile("testdata/v3/precedence.json")
		Expect(err).NotTo(HaveOccurred())
		both, err := openapi.LoadV3("twice", data, data)
		Expect(err).NotTo(HaveOccurred())
		_, ok := both.ForKind("ply.test/v1", "Widget")
		Expect(ok).To(BeTrue())
		_, err = openapi.LoadV3("twice", data, []byte(`{`))
		var oe *openapi.Error
		Expect(errors.As(err, &oe)).To(BeTrue())
		Expect(oe.Document).To(Equal("twice #2"))
		_, err = openapi.LoadV3("none")
		Expect(err).To(MatchError(ContainSubstring("no document given")))
	})

	DescribeTable("rejects bad documents with an *Error naming the document and the place",
		func(file, definition, path, msg string) {
			data, err := os.ReadFile(filepath.Join("testdata", "v3errors", file))
			Expect(err).NotTo(HaveOccurred())
			var got *openapi.Schema
			Expect(func() { got, err = openapi.LoadV3(file, data) }).NotTo(Panic())
			Expect(got).To(BeNil())
			var oe *openapi.Error
			Expect(errors.As(err, &oe)).To(BeTrue(), "error %v is not an *openapi.Error", err)
			Expect(oe.Document).To(Equal(file))
			Expect(oe.Definition).To(Equal(definition))
			Expect(oe.Path).To(Equal(path))
			Expect(oe.Msg).To(ContainSubstring(msg))
		},
		Entry("malformed JSON", "malformed.json", "", "", "not a valid OpenAPI v3 JSON document"),
		Entry("empty", "empty.json", "", "", "the document is empty"),
		Entry("a v2 document", "not-v3.json", "", "", `openapi is "", want a 3.x version`),
		Entry("dangling $ref", "dangling-ref.json", "a.B", "c[]", `"#/components/schemas/a.Missing" names no schema`),
		Entry("non-local $ref", "non-local-ref.json", "a.B", "c", "does not point into this document's components.schemas"),
		Entry("list-type map without keys", "map-without-keys.json", "a.B", "ports", "without x-kubernetes-list-map-keys"),
		Entry("unknown list-type", "bad-list-type.json", "a.B", "c", `x-kubernetes-list-type "bag", want atomic, set or map`),
		Entry("unknown map-type", "bad-map-type.json", "a.B", "c", `x-kubernetes-map-type "sometimes", want atomic or granular`),
		Entry("list-map-keys not a list", "keys-not-strings.json", "a.B", "c", "want a list of field names"),
		Entry("array without items", "array-without-items.json", "a.B", "c", "no items schema"),
	)
})
