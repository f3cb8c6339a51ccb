package reduce

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
)

// KubernetesVersion is the Kubernetes release whose published OpenAPI v2
// and v3 documents are embedded as ply's default schemas.
const KubernetesVersion = "v1.36.3"

// keptKeywords are the schema keywords that survive the reduction, besides
// the schema-valued ones (items, properties, additionalProperties, allOf)
// that Reduce descends into.
var keptKeywords = map[string]bool{
	"type":    true,
	"format":  true,
	"$ref":    true,
	"default": true,

	"x-kubernetes-group-version-kind":      true,
	"x-kubernetes-patch-strategy":          true,
	"x-kubernetes-patch-merge-key":         true,
	"x-kubernetes-list-type":               true,
	"x-kubernetes-list-map-keys":           true,
	"x-kubernetes-map-type":                true,
	"x-kubernetes-unions":                  true,
	"x-kubernetes-preserve-unknown-fields": true,
	"x-kubernetes-embedded-resource":       true,
	"x-kubernetes-int-or-string":           true,
}

// Reduce returns the reduced form of the OpenAPI v2 JSON document doc
// (swagger, info.title, info.version, definitions, and an empty paths object
// because OpenAPI v2 requires one):
// compact JSON, object keys sorted, numbers written as in doc, a final
// newline. It fails when doc is not JSON, is not a swagger 2.0 document, or
// holds a schema that is not an object where one is required; the error
// names the offending definition and keyword path.
func Reduce(doc []byte) ([]byte, error) {
	top, err := decode(doc)
	if err != nil {
		return nil, err
	}
	if v, _ := top["swagger"].(string); v != "2.0" {
		return nil, fmt.Errorf("reduce: document is not OpenAPI v2: swagger is %v, want \"2.0\"", top["swagger"])
	}
	defs, ok := top["definitions"].(map[string]any)
	if !ok {
		return nil, errors.New("reduce: document has no definitions object")
	}
	out := map[string]any{"swagger": top["swagger"]}
	if out["definitions"], err = schemas(defs); err != nil {
		return nil, err
	}
	return encode(top, out)
}

// ReduceV3 is Reduce for an OpenAPI v3 JSON document: it keeps openapi,
// info.title, info.version, components.schemas (reduced like Reduce's
// definitions) and an empty paths object, in the same canonical form. It
// fails when doc is not JSON, its openapi is not 3.x, it has no
// components.schemas object, or a schema is not an object.
func ReduceV3(doc []byte) ([]byte, error) {
	top, err := decode(doc)
	if err != nil {
		return nil, err
	}
	if v, _ := top["openapi"].(string); !strings.HasPrefix(v, "3.") {
		return nil, fmt.Errorf("reduce: document is not OpenAPI v3: openapi is %v, want \"3.x\"", top["openapi"])
	}
	comps, _ := top["components"].(map[string]any)
	defs, ok := comps["schemas"].(map[string]any)
	if !ok {
		return nil, errors.New("reduce: document has no components.schemas object")
	}
	reduced, err := schemas(defs)
	if err != nil {
		return nil, err
	}
	out := map[string]any{"openapi": top["openapi"], "components": map[string]any{"schemas": reduced}}
	return encode(top, out)
}

// decode reads doc, which must be one JSON object, keeping numbers as
// written.
func decode(doc []byte) (map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	var root any
	if err := dec.Decode(&root); err != nil {
		return nil, fmt.Errorf("reduce: document is not JSON: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("reduce: document has data after its top-level JSON value")
	}
	top, ok := root.(map[string]any)
	if !ok {
		return nil, errors.New("reduce: document is not a JSON object")
	}
	return top, nil
}

// schemas reduces every named schema of defs.
func schemas(defs map[string]any) (map[string]any, error) {
	reduced := make(map[string]any, len(defs))
	names := make([]string, 0, len(defs))
	for name := range defs {
		names = append(names, name)
	}
	sort.Strings(names) // errors name the first bad definition in sorted order
	for _, name := range names {
		s, err := schema(defs[name], name)
		if err != nil {
			return nil, err
		}
		reduced[name] = s
	}
	return reduced, nil
}

// encode adds info.title and info.version of top and an empty paths object
// (OpenAPI requires one, and gnostic enforces it; the operations are of no
// use to merging) to out and writes it in canonical form.
func encode(top, out map[string]any) ([]byte, error) {
	if info, ok := top["info"].(map[string]any); ok {
		kept := map[string]any{}
		for _, k := range [...]string{"title", "version"} {
			if v, ok := info[k]; ok {
				kept[k] = v
			}
		}
		out["info"] = kept
	}
	out["paths"] = map[string]any{}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(out); err != nil { // map keys are written sorted
		return nil, fmt.Errorf("reduce: encoding: %w", err)
	}
	return buf.Bytes(), nil
}

// schema reduces one schema object found at path.
func schema(v any, path string) (map[string]any, error) {
	s, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("reduce: %s: schema is %s, want an object", path, jsonKind(v))
	}
	out := make(map[string]any, len(s))
	for k, v := range s {
		switch {
		case keptKeywords[k]:
			out[k] = v
		case k == "items":
			if list, ok := v.([]any); ok { // tuple form
				items := make([]any, len(list))
				for i, item := range list {
					r, err := schema(item, path+".items["+strconv.Itoa(i)+"]")
					if err != nil {
						return nil, err
					}
					items[i] = r
				}
				out[k] = items
				continue
			}
			r, err := schema(v, path+".items")
			if err != nil {
				return nil, err
			}
			out[k] = r
		case k == "additionalProperties":
			if b, ok := v.(bool); ok {
				out[k] = b
				continue
			}
			r, err := schema(v, path+".additionalProperties")
			if err != nil {
				return nil, err
			}
			out[k] = r
		case k == "properties":
			props, ok := v.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("reduce: %s.properties is %s, want an object", path, jsonKind(v))
			}
			kept := make(map[string]any, len(props))
			for name, p := range props {
				r, err := schema(p, path+".properties."+name)
				if err != nil {
					return nil, err
				}
				kept[name] = r
			}
			out[k] = kept
		case k == "allOf":
			list, ok := v.([]any)
			if !ok {
				return nil, fmt.Errorf("reduce: %s.allOf is %s, want an array", path, jsonKind(v))
			}
			kept := make([]any, len(list))
			for i, item := range list {
				r, err := schema(item, path+".allOf["+strconv.Itoa(i)+"]")
				if err != nil {
					return nil, err
				}
				kept[i] = r
			}
			out[k] = kept
		}
	}
	return out, nil
}

// jsonKind names the JSON kind of a decoded value with its article.
func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case json.Number:
		return "a number"
	case string:
		return "a string"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("a %T", v)
}
