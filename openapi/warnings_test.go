package openapi_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/kube-openapi/pkg/util/proto"

	"github.com/plyproject/ply/openapi"
)

// Documents that depart from the OpenAPI specification where kube-openapi
// (gnostic's parse, then its proto models: the reader of kubectl and
// strategicpatch) reads past the departure: the loaders read them as
// kube-openapi does, with a Warning naming the place.
var _ = Describe("documents kube-openapi reads past a departure from the specification", func() {
	// kubeOpenAPIReads fails unless kube-openapi reads data.
	kubeOpenAPIReads := func(data []byte) proto.Models {
		doc, err := parseOrNil(data)
		ExpectWithOffset(1, err).NotTo(HaveOccurred(), "gnostic refuses the document")
		m, err := proto.NewOpenAPIData(doc)
		ExpectWithOffset(1, err).NotTo(HaveOccurred(), "kube-openapi refuses the document")
		return m
	}
	// sameShapes fails unless the loader reads every definition of data
	// with the shape kube-openapi gives it.
	sameShapes := func(data []byte, models proto.Models) {
		shapes, err := openapi.ShapeNames(data)
		ExpectWithOffset(1, err).NotTo(HaveOccurred())
		for name, shape := range shapes {
			ExpectWithOffset(1, shape).To(Equal(protoShape(models.LookupModel(name))), name)
		}
	}
	v2Doc := func(definitions string) []byte {
		return []byte(`{"swagger": "2.0", "info": {"title": "t", "version": "v1"}, "paths": {}, "definitions": ` + definitions + `}`)
	}

	DescribeTable("v2: reads the document with one Warning naming the place",
		func(data []byte, definition, path, msg string) {
			sameShapes(data, kubeOpenAPIReads(data))
			s, err := openapi.LoadV2Uncached("", data)
			Expect(err).NotTo(HaveOccurred())
			ws := s.Warnings()
			Expect(ws).To(HaveLen(1))
			Expect(ws[0].Definition).To(Equal(definition))
			Expect(ws[0].Path).To(Equal(path))
			Expect(ws[0].Msg).To(ContainSubstring(msg))
			Expect(ws[0].String()).To(HavePrefix("openapi: warning: OpenAPI v2 document"))
		},
		Entry("additionalProperties a string (strategicpatch's test schema has one)",
			v2Doc(`{"T": {"properties": {"m": {"type": "object", "additionalProperties": "object"}}}}`), "T", "m",
			`additionalProperties is a string, want a boolean or a schema; read as true (values of any kind), as kube-openapi reads it (at #/definitions/T/properties/m/additionalProperties)`),
		Entry("a definition that is null", readFile("testdata/warnings/definition-null.json"), "ply.test.v1.Nothing", "",
			`the schema is a null, want a schema object; read as the empty schema (any value), as kube-openapi reads it (at #/definitions/ply.test.v1.Nothing)`),
		Entry("a property that is a string", v2Doc(`{"T": {"properties": {"a": "string"}}}`), "T", "a",
			"the schema is a string, want a schema object; read as the empty schema (any value)"),
		Entry("an allOf item that is a number", v2Doc(`{"T": {"allOf": [3]}}`), "T", "",
			"the schema is an integer, want a schema object; read as the empty schema (any value), as kube-openapi reads it (at #/definitions/T/allOf/0)"),
		Entry("items a string", v2Doc(`{"T": {"type": "array", "items": "string"}}`), "T", "",
			"items is a string, want a schema or a list of schemas; read as the empty schema (items of any value)"),
		Entry("properties a string", v2Doc(`{"T": {"type": "object", "properties": "a"}}`), "T", "",
			"properties is a string, want an object of schemas; read as an object declaring no properties"),
		Entry("allOf an object", v2Doc(`{"T": {"allOf": {"$ref": "#/definitions/T"}}}`), "T", "",
			"allOf is an object, want a list of schemas; read as no allOf"),
		Entry("a description that is a number", v2Doc(`{"T": {"type": "string", "description": 12}}`), "T", "",
			`description is an integer, want a string; read as the string "12", which the loader does not use`),
		Entry("a $ref that is null", v2Doc(`{"T": {"$ref": null, "type": "string"}}`), "T", "",
			"$ref is a null, want a string; read as absent"),
		Entry("enum an object", v2Doc(`{"T": {"type": "string", "enum": {"a": 1}}}`), "T", "",
			"enum is an object, want a list; ignored, as the loader does not use it"),
		Entry("required holding a number", v2Doc(`{"T": {"properties": {"a": {}}, "required": [1]}}`), "T", "",
			"required[0] is an integer, want a string; ignored"),
		Entry("xml a string", v2Doc(`{"T": {"type": "string", "xml": "x"}}`), "T", "", "xml is a string, want an object; ignored"),
		Entry("definitions a list", readFile("testdata/warnings/definitions-list.json"), "", "",
			"definitions is an array, want an object of schemas; read as no definitions"),
		Entry("an info title that is a number", readFile("testdata/warnings/info-title-number.json"), "", "",
			"info.title is an integer, want a string; not used to name the document"),
		Entry("definitions that only reference each other", readFile("testdata/warnings/alias-cycle.json"), "ply.test.v1.Ping", "",
			"the definition is a cycle of $refs that never reaches a schema (ply.test.v1.Ping -> ply.test.v1.Pong -> ply.test.v1.Ping); "+
				"read as any value, as kube-openapi reads the document"),
		// The parser reads 18446744073709551615 as the number
		// 18446744073709552000 (as kubectl's JSON reading does); on an
		// integer field that is no integer of the field.
		Entry("an integer default beyond int64", readFile("testdata/warnings/default-out-of-range.json"), "ply.test.v1.Big", "count",
			"default: integer 18446744073709552000 does not fit in 64 bits; the default is left out, as kube-openapi reads the document (keeping the value)"),
		Entry("a group-version-kind without kind", readFile("testdata/warnings/bad-gvk.json"), "ply.test.v1.Kindless", "",
			"x-kubernetes-group-version-kind[0].kind is missing or not a non-empty string, want {group, version, kind} strings; "+
				"the entry is skipped, as kubectl skips it"),
		Entry("a group-version-kind that is no list", v2Doc(`{"T": {"type": "string", "x-kubernetes-group-version-kind": {"kind": "T"}}}`), "T", "",
			"x-kubernetes-group-version-kind is an object, want a list of {group, version, kind}; the entry is skipped"),
	)

	It("indexes the well-formed group-version-kinds of a definition, skipping the malformed ones (v2 and v3)", func() {
		gvk := `"x-kubernetes-group-version-kind": [{"version": "v1"}, {"group": "ply.test", "version": "v1", "kind": "Good"}, {"kind": 3}]`
		v2, err := openapi.LoadV2Uncached("", v2Doc(`{"T": {"type": "object", "properties": {"a": {}}, `+gvk+`}}`))
		Expect(err).NotTo(HaveOccurred())
		v3, err := openapi.LoadV3("", []byte(`{"openapi": "3.0.0", "components": {"schemas": {"T": {"type": "object", `+gvk+`}}}}`))
		Expect(err).NotTo(HaveOccurred())
		for _, s := range []*openapi.Schema{v2, v3} {
			_, ok := s.ForKind("ply.test/v1", "Good")
			Expect(ok).To(BeTrue())
			Expect(s.Warnings()).To(HaveLen(2))
			Expect(s.Warnings()[0].Msg).To(HavePrefix("x-kubernetes-group-version-kind[0].kind is missing"))
			Expect(s.Warnings()[1].Msg).To(HavePrefix("x-kubernetes-group-version-kind[2].version is missing"))
		}
	})

	DescribeTable("an unknown word in x-kubernetes-patch-strategy: ignored, as strategicpatch ignores it, with a Warning",
		func(load func() (*openapi.Schema, error), definition, path string, want openapi.Strategy) {
			s, err := load()
			Expect(err).NotTo(HaveOccurred())
			Expect(s.Warnings()).To(HaveLen(1))
			w := s.Warnings()[0]
			Expect([]string{w.Definition, w.Path}).To(Equal([]string{definition, path}))
			Expect(w.Msg).To(HavePrefix(`x-kubernetes-patch-strategy: unknown patch strategy "mrege" in `))
			Expect(w.Msg).To(HaveSuffix("; ignored, as strategicpatch ignores it"))
			f, _ := at(byName(s, definition), path)
			Expect(f.Meta.Strategy).To(Equal(want))
			Expect(f.KubectlMeta.Strategy).To(Equal(want))
		},
		Entry("v2, the only word", func() (*openapi.Schema, error) {
			data := readFile("testdata/warnings/unknown-strategy.json")
			kubeOpenAPIReads(data)
			return openapi.LoadV2Uncached("", data)
		}, "ply.test.v1.PodSpec", "containers", openapi.Strategy(0)),
		Entry("v3, beside retainKeys", func() (*openapi.Schema, error) {
			return openapi.LoadV3("typo", []byte(`{"openapi": "3.0.0", "components": {"schemas": {"a.B": {"type": "object",
				"properties": {"c": {"type": "object", "x-kubernetes-patch-strategy": "mrege,retainKeys"}}}}}}`))
		}, "a.B", "c", openapi.StrategyRetainKeys),
	)

	It("v2: still refuses, of the documents kube-openapi reads, only these (faults of the extensions ply interprets, a repeated key)", func() {
		files, err := filepath.Glob("testdata/errors/*")
		Expect(err).NotTo(HaveOccurred())
		var refused []string
		for _, f := range files {
			data := readFile(f)
			doc, err := parseOrNil(data)
			if err != nil {
				continue
			}
			if _, err := proto.NewOpenAPIData(doc); err != nil {
				continue
			}
			_, err = openapi.LoadV2Uncached("", data)
			Expect(err).To(HaveOccurred(), f) // a document under testdata/errors is refused
			refused = append(refused, filepath.Base(f))
		}
		Expect(refused).To(ConsistOf("duplicate-gvk.json", "duplicate-key.json", "empty-merge-key.json",
			"merge-and-replace.json", "strategy-not-string.json"))
		warned, err := filepath.Glob("testdata/warnings/*")
		Expect(err).NotTo(HaveOccurred())
		for _, f := range warned {
			s, err := openapi.LoadV2Uncached("", readFile(f))
			Expect(err).NotTo(HaveOccurred(), f)
			Expect(s.Warnings()).NotTo(BeEmpty(), f)
		}
	})

	It("v2: reads strategicpatch's own test schemas, as kube-openapi reads them", func() {
		dir := moduleDir("k8s.io/apimachinery")
		files, err := filepath.Glob(filepath.Join(dir, "pkg", "util", "strategicpatch", "testdata", "*.json"))
		Expect(err).NotTo(HaveOccurred())
		Expect(files).To(HaveLen(4)) // two v2 documents, two v3
		warned := map[string][]openapi.Warning{}
		for _, f := range files {
			data, err := os.ReadFile(f)
			Expect(err).NotTo(HaveOccurred())
			s, err := openapi.LoadSource(filepath.Base(f), data)
			Expect(err).NotTo(HaveOccurred(), f)
			warned[filepath.Base(f)] = s.Warnings()
			if !strings.HasSuffix(f, "-v3.json") {
				sameShapes(data, kubeOpenAPIReads(data))
			}
		}
		Expect(warned).To(Equal(map[string][]openapi.Warning{
			"swagger-merge-item.json": {{Document: "swagger-merge-item.json", Definition: "retainKeysMergeItem", Path: "simpleMap",
				Msg: "additionalProperties is a string, want a boolean or a schema; read as true (values of any kind), " +
					"as kube-openapi reads it (at #/definitions/retainKeysMergeItem/properties/simpleMap/additionalProperties)"}},
			"swagger-merge-item-v3.json": nil, "swagger-precision-item.json": nil, "swagger-precision-item-v3.json": nil,
		}))
	})

	// Every Swagger 2.0 schema keyword, and the schema positions, given a
	// value of every JSON kind: the loader reads each document kube-openapi
	// reads, and warns exactly when the value's kind is not the one the
	// specification gives the keyword.
	It("v2: reads every keyword value kube-openapi reads, warning where the kind departs from the specification", func() {
		values := map[string]string{"string": `"object"`, "integer": `3`, "number": `1.5`, "boolean": `true`,
			"null": `null`, "array": `[{"type": "string"}]`, "object": `{}`}
		// The kinds the specification gives each keyword (and the schema
		// positions: a definition, a property, an allOf item).
		specKinds := map[string]string{
			"default": "any", "example": "any", "format": "string", "title": "string", "description": "string",
			"pattern": "string", "discriminator": "string", "$ref": "string", "multipleOf": "integer number",
			"maximum": "integer number", "minimum": "integer number", "maxLength": "integer", "minLength": "integer",
			"maxItems": "integer", "minItems": "integer", "maxProperties": "integer", "minProperties": "integer",
			"exclusiveMaximum": "boolean", "exclusiveMinimum": "boolean", "uniqueItems": "boolean", "readOnly": "boolean",
			"xml": "object", "externalDocs": "object", "enum": "array", "required": "array", "type": "string array",
			"allOf": "array", "properties": "object", "items": "object array", "additionalProperties": "boolean object",
			"(definition)": "object", "(property)": "object", "(allOf item)": "object",
		}
		read, departures := 0, 0
		for keyword, kinds := range specKinds {
			for kind, v := range values {
				var data []byte
				switch keyword {
				case "(definition)":
					data = v2Doc(`{"T": ` + v + `}`)
				case "(property)":
					data = v2Doc(`{"T": {"properties": {"a": ` + v + `}}}`)
				case "(allOf item)":
					data = v2Doc(`{"T": {"allOf": [` + v + `]}}`)
				default:
					data = v2Doc(`{"O": {"type": "string"}, "T": {"properties": {"a": {"` + keyword + `": ` + v + `}}}}`)
				}
				doc, err := parseOrNil(data)
				if err == nil {
					_, err = proto.NewOpenAPIData(doc)
				}
				s, loadErr := openapi.LoadV2Uncached("", data)
				if err != nil {
					continue // kube-openapi refuses it; the loader may or may not
				}
				read++
				Expect(loadErr).NotTo(HaveOccurred(), "%s: %s", keyword, v)
				departs := kinds != "any" && !strings.Contains(kinds, kind) &&
					!(keyword == "type" && kind == "array") // [{"type": ...}] is no list of strings
				if keyword == "required" && kind == "array" {
					departs = true // a list of schemas, not of strings
				}
				if departs {
					departures++
				}
				Expect(s.Warnings()).To(HaveLen(map[bool]int{false: 0, true: 1}[departs]), "%s: %s", keyword, v)
			}
		}
		// Of the 231 documents (33 places, 7 kinds), kube-openapi reads 111,
		// 64 of them with a value of a kind the specification does not give.
		Expect(read).To(Equal(111))
		Expect(departures).To(Equal(64))
	})

	DescribeTable("v3: reads the document with a Warning naming the place, keeping the keys",
		func(file, definition, path, msg string, key []string) {
			data := readFile(filepath.Join("testdata", "v3warnings", file))
			s, err := openapi.LoadV3(file, data)
			Expect(err).NotTo(HaveOccurred())
			ws := s.Warnings()
			Expect(ws).To(HaveLen(1))
			Expect(ws[0]).To(Equal(openapi.Warning{Document: file, Definition: definition, Path: path, Msg: msg}))
			f, _ := at(byName(s, definition), path)
			Expect(f.Meta.MergeKey).To(Equal(key))
		},
		Entry("list-map-keys naming a field the item does not declare", "bad-map-key.json", "a.B", "ports",
			`x-kubernetes-list-map-keys names "proto", which the item type a.Port does not declare as a field; `+
				`the key is kept (items are merged by it), as kube-openapi reads the extension unchecked`,
			[]string{"port", "proto"}),
		Entry("list-map-keys on a list of primitives", "map-keys-on-primitives.json", "a.B", "names",
			`x-kubernetes-list-map-keys names "name", which the item type a.B.names[] does not declare as a field; `+
				`the key is kept (items are merged by it), as kube-openapi reads the extension unchecked`,
			[]string{"name"}),
	)

	It("v3: reads schemas that only reference each other as any value, with a Warning", func() {
		s, err := openapi.LoadV3("cycle", readFile("testdata/v3warnings/ref-cycle.json"))
		Expect(err).NotTo(HaveOccurred())
		Expect(s.Warnings()).To(Equal([]openapi.Warning{{Document: "cycle", Definition: "a.A",
			Msg: "the definition is a cycle of $refs that never reaches a schema (a.A -> a.B -> a.A); read as any value, as kube-openapi reads the document"}}))
		Expect(byName(s, "a.A").Kind).To(Equal(openapi.KindUnknown))
		Expect(byName(s, "a.B")).To(BeIdenticalTo(byName(s, "a.A")))
	})

	It("v3: leaves out a default that is no value of its field, with a Warning", func() {
		s, err := openapi.LoadV3("big", readFile("testdata/v3warnings/bad-default.json"))
		Expect(err).NotTo(HaveOccurred())
		Expect(s.Warnings()).To(HaveLen(1))
		Expect(s.Warnings()[0].Msg).To(HavePrefix("default: "))
		Expect(s.Warnings()[0].Msg).To(HaveSuffix("; the default is left out, as kube-openapi reads the document (keeping the value)"))
		f, _ := at(byName(s, "a.B"), "n")
		Expect(f.HasDefault).To(BeFalse())
	})

	It("lists the warnings of every source of a Union, in order, and of the kubectl view", func() {
		a, err := openapi.LoadV2Uncached("a", v2Doc(`{"A": {"properties": {"x": "s"}}}`))
		Expect(err).NotTo(HaveOccurred())
		b, err := openapi.LoadV3("b", readFile("testdata/v3warnings/bad-map-key.json"))
		Expect(err).NotTo(HaveOccurred())
		u := openapi.Union(a, nil, b)
		Expect(u.Warnings()).To(Equal(append(a.Warnings(), b.Warnings()...)))
		Expect(u.Warnings()).To(HaveLen(2))
		Expect(u.Kubectl().Warnings()).To(Equal(u.Warnings()))
		def, err := openapi.DefaultV2()
		Expect(err).NotTo(HaveOccurred())
		Expect(def.Warnings()).To(BeEmpty())
	})

	It("keeps refusing, in a CustomResourceDefinition, a list-map-key its item does not declare (the API server refuses it too) and an unknown patch strategy", func() {
		crd := `{"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
			"metadata": {"name": "things.ply.test"}, "spec": {"group": "ply.test", "names": {"kind": "Thing", "plural": "things"},
			"scope": "Namespaced", "versions": [{"name": "v1", "served": true, "storage": true, "schema": {"openAPIV3Schema":
			{"type": "object", "properties": {"spec": {"type": "object", "properties": {"ports": {"type": "array",
			"x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["port"],
			"items": {"type": "object", "properties": {"name": {"type": "string"}}}}}}}}}}]}}`
		_, err := openapi.LoadCRD("thing.json", []byte(crd))
		Expect(err).To(MatchError(ContainSubstring(`x-kubernetes-list-map-keys names "port", which the item type`)))
		typo := strings.Replace(strings.Replace(crd, `["port"]`, `["name"]`, 1), `"x-kubernetes-list-type": "map"`,
			`"x-kubernetes-list-type": "map", "x-kubernetes-patch-strategy": "mrege"`, 1)
		_, err = openapi.LoadCRD("thing.json", []byte(typo))
		Expect(err).To(MatchError(HaveSuffix(`x-kubernetes-patch-strategy: unknown patch strategy "mrege" in "mrege", ` +
			`want merge, replace, retainKeys or merge,retainKeys`)))
	})
})

// readFile is the content of a test file.
func readFile(path string) []byte {
	data, err := os.ReadFile(path)
	ExpectWithOffset(1, err).NotTo(HaveOccurred())
	return data
}

// moduleDir is the module cache directory of the version of module ply's
// go.mod selects.
func moduleDir(module string) string {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", module).Output()
	ExpectWithOffset(1, err).NotTo(HaveOccurred())
	dir := strings.TrimSpace(string(out))
	ExpectWithOffset(1, dir).NotTo(BeEmpty(), "go list -m %s: no directory (run go mod download)", module)
	return dir
}
