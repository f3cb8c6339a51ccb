package openapi

import (
	"fmt"
	"strings"

	"github.com/plyproject/ply/pkg/parse"
	"github.com/plyproject/ply/pkg/value"
)

// additionalSchemaMarker is what schemaOf leaves in
// v3Schema.AdditionalProperties when additionalProperties is a schema
// (already decoded into v3Schema.additional): the field is non-empty, as
// the JSON text would be, so that v3Schema.target sees the property.
var additionalSchemaMarker = []byte("{}")

// loadV3Parsed converts one OpenAPI v3 JSON document as loadV3 does, but
// reads it with ply's own parser (pkg/parse) instead of encoding/json, and
// takes the extensions and defaults from the parsed tree instead of
// decoding their JSON text again with a YAML decoder: the same Schema,
// several times faster. It serves the embedded documents (default.go),
// which the package's tests check load identically both ways (a document
// pkg/parse reads is the JSON encoding/json reads; duplicate keys, which
// encoding/json resolves to the last and pkg/parse rejects, do not occur in
// them). Documents users and servers supply go through loadV3, whose
// messages about malformed JSON are encoding/json's. Errors are *Error
// values naming the document and the schema path at fault.
func loadV3Parsed(name string, data []byte) (*Schema, error) {
	doc, err := parse.Document(data)
	if err != nil {
		return nil, &Error{Document: name, Msg: "not a valid OpenAPI v3 JSON document: " + err.Error()}
	}
	if !doc.IsMap() {
		return nil, &Error{Document: name, Msg: "the document is " + kindPhrase(doc) + ", want an OpenAPI v3 JSON object"}
	}
	version, _ := doc.Get("openapi")
	if v, _ := version.AsString(); !strings.HasPrefix(v, "3.") {
		return nil, &Error{Document: name, Msg: fmt.Sprintf("openapi is %q, want a 3.x version", v)}
	}
	l := &v3Loader{doc: name}
	components, _ := doc.Get("components")
	schemas, _ := components.Get("schemas")
	if !schemas.IsMap() && !schemas.IsNull() {
		return nil, l.errorf("", "", "components.schemas is %s, want an object", kindPhrase(schemas))
	}
	l.raw = make(map[string]*v3Schema, schemas.Len())
	for _, f := range schemas.Fields() {
		s, err := l.schemaOf(f.Value, f.Key, "")
		if err != nil {
			return nil, err
		}
		l.raw[f.Key] = s
	}
	return l.load()
}

// schemaOf converts the parsed schema object v (of definition def, at
// path) to the v3Schema encoding/json would decode from its JSON: null is
// a nil schema, members the loader does not read are skipped, extensions
// and defaults are kept as values.
func (l *v3Loader) schemaOf(v value.Value, def, path string) (*v3Schema, error) {
	if v.IsNull() {
		return nil, nil
	}
	if !v.IsMap() {
		return nil, l.errorf(def, path, "the schema is %s, want a schema object", kindPhrase(v))
	}
	s := &v3Schema{}
	for _, f := range v.Fields() {
		var err error
		switch f.Key {
		case "type":
			s.Type, err = l.stringOf(f.Value, f.Key, def, path)
		case "format":
			s.Format, err = l.stringOf(f.Value, f.Key, def, path)
		case "$ref":
			s.Ref, err = l.stringOf(f.Value, f.Key, def, path)
		case "items":
			s.Items, err = l.schemaOf(f.Value, def, path+"[]")
		case "properties":
			err = l.propertiesOf(s, f.Value, def, path)
		case "additionalProperties":
			if f.Value.IsMap() {
				s.AdditionalProperties = additionalSchemaMarker
				s.additional, err = l.schemaOf(f.Value, def, path+"{}")
			} else {
				// true or false; anything else check reports.
				s.AdditionalProperties = f.Value.JSON()
			}
		case "allOf":
			err = l.allOfOf(s, f.Value, def, path)
		case "default":
			s.Default = valueOf(f.Value)
		case extGVK:
			s.GVK = valueOf(f.Value)
		case extPatchStrategy:
			s.PatchStrategy = valueOf(f.Value)
		case extPatchMergeKey:
			s.PatchMergeKey = valueOf(f.Value)
		case extListType:
			s.ListType = valueOf(f.Value)
		case extListMapKeys:
			s.ListMapKeys = valueOf(f.Value)
		case extMapType:
			s.MapType = valueOf(f.Value)
		case extIntOrString:
			s.IntOrString = valueOf(f.Value)
		case extPreserveUnknown:
			s.PreserveUnknown = valueOf(f.Value)
		case extEmbeddedResource:
			s.EmbeddedResource = valueOf(f.Value)
		case ExtMergeRule:
			s.MergeRule = valueOf(f.Value)
		}
		if err != nil {
			return nil, err
		}
	}
	return s, nil
}

// valueOf is the rawValue of a parsed extension or default.
func valueOf(v value.Value) rawValue { return rawValue{decoded: v, isValue: true} }

// stringOf reads the string member key of a schema; null is "".
func (l *v3Loader) stringOf(v value.Value, key, def, path string) (string, error) {
	if v.IsNull() {
		return "", nil
	}
	s, ok := v.AsString()
	if !ok {
		return "", l.errorf(def, path, "%s is %s, want a string", key, kindPhrase(v))
	}
	return s, nil
}

// propertiesOf sets s.Properties from the parsed properties object v.
func (l *v3Loader) propertiesOf(s *v3Schema, v value.Value, def, path string) error {
	if v.IsNull() {
		return nil
	}
	if !v.IsMap() {
		return l.errorf(def, path, "properties is %s, want an object", kindPhrase(v))
	}
	s.Properties = make(map[string]*v3Schema, v.Len())
	for _, f := range v.Fields() {
		ps, err := l.schemaOf(f.Value, def, joinField(path, f.Key))
		if err != nil {
			return err
		}
		s.Properties[f.Key] = ps
	}
	return nil
}

// allOfOf sets s.AllOf from the parsed allOf list v.
func (l *v3Loader) allOfOf(s *v3Schema, v value.Value, def, path string) error {
	if v.IsNull() {
		return nil
	}
	if !v.IsList() {
		return l.errorf(def, path, "allOf is %s, want a list of schemas", kindPhrase(v))
	}
	s.AllOf = make([]*v3Schema, v.Len())
	for i, item := range v.Items() {
		sub, err := l.schemaOf(item, def, path)
		if err != nil {
			return err
		}
		s.AllOf[i] = sub
	}
	return nil
}
