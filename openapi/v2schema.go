package openapi

import (
	"slices"
	"strconv"
	"strings"

	"github.com/plyproject/ply/pkg/parse"
	"github.com/plyproject/ply/pkg/value"
)

// v2Schema is one schema object of an OpenAPI v2 document as pkg/parse
// read it. Invariant: checkSchema accepted v, so v is a map whose keywords
// have the kinds the specification gives them, or a value kube-openapi
// reads past (recorded as a Warning): a v that is not a map is the empty
// schema, since it holds no keyword; a keyword of another kind is found by
// no accessor (its As* conversion fails, or it has no fields or items),
// which is how kube-openapi reads it. The accessors rely on that and check
// nothing.
type v2Schema struct{ v value.Value }

// anySchema is the schema that says nothing ({}): what a list of item
// schemas (a tuple, which neither ply nor kubectl reads) stands for.
var anySchema = v2Schema{v: value.MapFromSorted(nil)}

// str returns the string keyword key, "" when absent.
func (s v2Schema) str(key string) string {
	v, _ := s.v.Get(key)
	str, _ := v.AsString()
	return str
}

// has reports whether the schema declares keyword key.
func (s v2Schema) has(key string) bool {
	_, ok := s.v.Get(key)
	return ok
}

func (s v2Schema) ref() string    { return s.str("$ref") }
func (s v2Schema) format() string { return s.str("format") }

// types returns the declared type: none, one, or (a list) several.
func (s v2Schema) types() []string {
	v, _ := s.v.Get("type")
	if t, ok := v.AsString(); ok {
		return []string{t}
	}
	out := make([]string, 0, v.Len())
	for _, item := range v.Items() {
		t, _ := item.AsString()
		out = append(out, t)
	}
	return out
}

// properties returns the properties, sorted by name (nil when there are
// none; has("properties") tells an empty object from none).
func (s v2Schema) properties() []value.Field {
	v, _ := s.v.Get("properties")
	return v.Fields()
}

// allOf returns the allOf schemas, in order.
func (s v2Schema) allOf() []v2Schema {
	v, _ := s.v.Get("allOf")
	out := make([]v2Schema, v.Len())
	for i, item := range v.Items() {
		out[i] = v2Schema{v: item}
	}
	return out
}

// items returns the schema of an array's items; a list of item schemas (a
// tuple) is anySchema. ok is false when the schema has no items.
func (s v2Schema) items() (item v2Schema, ok bool) {
	v, ok := s.v.Get("items")
	switch {
	case !ok:
		return v2Schema{}, false
	case v.IsList():
		return anySchema, true
	}
	return v2Schema{v: v}, true
}

// additional returns additionalProperties when it is a schema (ok false
// when it is absent or a boolean).
func (s v2Schema) additional() (v2Schema, bool) {
	v, _ := s.v.Get("additionalProperties")
	if !v.IsMap() {
		return v2Schema{}, false
	}
	return v2Schema{v: v}, true
}

// extension returns the value of the vendor extension name (x-...),
// unchecked.
func (s v2Schema) extension(name string) (value.Value, bool) { return s.v.Get(name) }

// v2Limits are the parser's limits for v2 documents: its defaults, but for
// the size and, in step with it, the YAML separators (line breaks and flow
// separators) a document and a stream may hold. A server's /openapi/v2
// grows with every CRD installed and can exceed the 32 MiB that bound a
// manifest (gnostic, which read v2 documents before, had no bound); the
// bounds here only keep a runaway input from exhausting memory (256 MiB,
// eight times a manifest's).
var v2Limits = parse.Limits{
	MaxBytes:                256 << 20,
	MaxYAMLSeparators:       8 * parse.DefaultMaxYAMLSeparators,
	MaxYAMLStreamSeparators: 8 * parse.DefaultMaxYAMLStreamSeparators,
}

// v2Doc is an OpenAPI v2 document readV2 read.
type v2Doc struct {
	// name names the document in errors and warnings.
	name string
	// defs maps every definition to its schema; names lists them sorted.
	defs  map[string]v2Schema
	names []string
	// warnings are the departures from the specification read past.
	warnings []Warning
}

// readV2 reads data as an OpenAPI v2 document: a single YAML or JSON
// object with swagger "2.0", an optional info object, and an optional
// definitions object of schema objects, each checked by checkSchema
// (definitions in name order). Values of another kind than the
// specification's that kube-openapi reads past are read as it reads them,
// with a Warning each. name is the document's name for errors; when
// empty, the document is named by its info.title and info.version (when
// strings). Errors are *Error values.
func readV2(name string, data []byte) (*v2Doc, error) {
	docName := name
	if docName == "" {
		docName = "OpenAPI v2 document"
	}
	docs, perr := v2Limits.Documents(data)
	if msg := notADocument(docs, perr); msg != "" {
		return nil, &Error{Document: docName, Msg: msg}
	}
	doc := docs[0]
	if name == "" {
		info, _ := doc.Get("info")
		title, _ := info.Get("title")
		version, _ := info.Get("version")
		t, _ := title.AsString()
		v, _ := version.AsString()
		if id := strings.TrimSpace(t + " " + v); id != "" {
			docName = "OpenAPI v2 document " + strconv.Quote(id)
		}
	}
	r := &v2Reader{doc: docName}
	if err := r.checkTop(doc); err != nil {
		return nil, err
	}
	definitions, _ := doc.Get("definitions")
	out := &v2Doc{name: docName, defs: make(map[string]v2Schema, definitions.Len()), names: make([]string, 0, definitions.Len())}
	for _, f := range definitions.Fields() {
		if err := r.checkSchema(f.Value, f.Key, "", "#/definitions/"+pointerToken(f.Key)); err != nil {
			return nil, err
		}
		out.defs[f.Key] = v2Schema{v: f.Value}
		out.names = append(out.names, f.Key)
	}
	out.warnings = r.warnings
	return out, nil
}

// notADocument says why the result of parse.Documents (docs, err) is not a
// single object, the form of an OpenAPI v2 document: unreadable text (with
// its line and column), nothing but comments or blank lines, several
// documents, or another kind of value. It is "" for a single object.
func notADocument(docs []value.Value, err error) string {
	const want = ", want an OpenAPI v2 document (a JSON or YAML object)"
	switch {
	case err != nil:
		return "not valid YAML or JSON (" + err.Error() + ")" + want
	case len(docs) == 0:
		return "the input holds no document, only comments, blank lines or nulls" + want
	case len(docs) > 1:
		return "the input holds " + strconv.Itoa(len(docs)) + " documents" + want
	case !docs[0].IsMap():
		return "the document is " + kindPhrase(docs[0]) + want
	}
	return ""
}

// v2Reader checks the structure of one document; doc names it. warnings
// are the departures from the specification it read past.
type v2Reader struct {
	doc      string
	warnings []Warning
}

// warnKind records a value v at ptr, of another kind than the want of the
// specification, that kube-openapi reads past, and how it is read.
func (r *v2Reader) warnKind(def, path, ptr, what string, v value.Value, want, reading string) {
	r.warnings = append(r.warnings, Warning{Document: r.doc, Definition: def, Path: path,
		Msg: what + " is " + kindPhrase(v) + ", want " + want + "; " + reading + ", as kube-openapi reads it (at " + ptr + ")"})
}

// fail is a fault of the value at ptr (a JSON pointer into the document),
// inside definition def at field path (both empty outside definitions).
func (r *v2Reader) fail(def, path, ptr, msg string) *Error {
	return &Error{Document: r.doc, Definition: def, Path: path, Msg: msg + " (at " + ptr + ")"}
}

// kindFault is fail for a value v of the wrong kind: "<what> is <kind>,
// want <want>".
func (r *v2Reader) kindFault(def, path, ptr, what string, v value.Value, want string) *Error {
	return r.fail(def, path, ptr, what+" is "+kindPhrase(v)+", want "+want)
}

// topKeys are the fields of a Swagger 2.0 document object (besides x-
// extensions).
var topKeys = [...]string{"swagger", "info", "host", "basePath", "schemes", "consumes", "produces", "paths",
	"definitions", "parameters", "responses", "securityDefinitions", "security", "tags", "externalDocs"}

// checkTop checks the document object doc: swagger "2.0" (an OpenAPI v3
// document is named as such), only Swagger 2.0 fields and x- extensions,
// info an object with string title and version, definitions an object.
// The other fields are not read and not checked further.
func (r *v2Reader) checkTop(doc value.Value) error {
	swagger, ok := doc.Get("swagger")
	if v3, isV3 := doc.Get("openapi"); !ok && isV3 {
		return &Error{Document: r.doc, Msg: "the document is OpenAPI v3 (openapi " + string(v3.JSON()) +
			"), want an OpenAPI v2 document (swagger \"2.0\"); load it as OpenAPI v3 (LoadV3)"}
	}
	if s, _ := swagger.AsString(); s != "2.0" {
		what := "missing"
		if ok {
			what = string(swagger.JSON())
		}
		return r.fail("", "", "#/swagger", "swagger is "+what+`, want "2.0" (a string)`)
	}
	for _, f := range doc.Fields() {
		if !strings.HasPrefix(f.Key, "x-") && !slices.Contains(topKeys[:], f.Key) {
			return r.fail("", "", "#/"+pointerToken(f.Key), "unknown field "+strconv.Quote(f.Key)+
				" of a Swagger 2.0 document, want one of "+strings.Join(topKeys[:], ", ")+" or an x- extension")
		}
	}
	if info, ok := doc.Get("info"); ok {
		if !info.IsMap() {
			return r.kindFault("", "", "#/info", "info", info, "an object")
		}
		for _, key := range [...]string{"title", "version"} {
			v, ok := info.Get(key)
			switch {
			case !ok || v.Kind() == value.KindString:
			case v.IsNull() || v.Kind() == value.KindInt:
				r.warnKind("", "", "#/info/"+key, "info."+key, v, "a string", "not used to name the document")
			default:
				return r.kindFault("", "", "#/info/"+key, "info."+key, v, "a string")
			}
		}
	}
	if defs, ok := doc.Get("definitions"); ok && !defs.IsMap() {
		r.warnKind("", "", "#/definitions", "definitions", defs, "an object of schemas", "read as no definitions")
	}
	return nil
}

// pointerToken escapes key as a JSON pointer token (RFC 6901).
func pointerToken(key string) string {
	if !strings.ContainsAny(key, "~/") {
		return key
	}
	return strings.ReplaceAll(strings.ReplaceAll(key, "~", "~0"), "/", "~1")
}
