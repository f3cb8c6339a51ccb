package openapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/plyproject/ply/pkg/value"
)

// Structural extensions read from OpenAPI v3 documents (besides the patch
// extensions LoadV2 reads too).
const (
	extListType    = "x-kubernetes-list-type"
	extListMapKeys = "x-kubernetes-list-map-keys"
	extMapType     = "x-kubernetes-map-type"

	extPreserveUnknown  = "x-kubernetes-preserve-unknown-fields"
	extEmbeddedResource = "x-kubernetes-embedded-resource"
	schemasPrefix       = "#/components/schemas/"
	v3DefaultDocTag     = "OpenAPI v3 document"
)

// v3Document is the part of an OpenAPI v3 document the loader reads.
type v3Document struct {
	OpenAPI    string `json:"openapi"`
	Components struct {
		Schemas map[string]*v3Schema `json:"schemas"`
	} `json:"components"`
}

// v3Schema is the part of an OpenAPI v3 schema object the loader reads.
// Extensions and defaults stay raw so that their faults are reported with
// the schema path.
type v3Schema struct {
	Type                 string               `json:"type"`
	Format               string               `json:"format"`
	Ref                  string               `json:"$ref"`
	Items                *v3Schema            `json:"items"`
	Properties           map[string]*v3Schema `json:"properties"`
	AdditionalProperties json.RawMessage      `json:"additionalProperties"`
	AllOf                []*v3Schema          `json:"allOf"`
	Default              rawValue             `json:"default"`

	GVK           rawValue `json:"x-kubernetes-group-version-kind"`
	PatchStrategy rawValue `json:"x-kubernetes-patch-strategy"`
	PatchMergeKey rawValue `json:"x-kubernetes-patch-merge-key"`
	ListType      rawValue `json:"x-kubernetes-list-type"`
	ListMapKeys   rawValue `json:"x-kubernetes-list-map-keys"`
	MapType       rawValue `json:"x-kubernetes-map-type"`
	IntOrString   rawValue `json:"x-kubernetes-int-or-string"`

	PreserveUnknown  rawValue `json:"x-kubernetes-preserve-unknown-fields"`
	EmbeddedResource rawValue `json:"x-kubernetes-embedded-resource"`
	MergeRule        rawValue `json:"x-ply-merge-rule"`

	// additional is AdditionalProperties when it is a schema: decoded by
	// check from the JSON text, or set by schemaOf (v3value.go), which
	// then leaves AdditionalProperties a non-empty marker.
	additional *v3Schema
}

// rawValue is an extension's or a default's value in a v3Schema, decoded
// on use so that its faults are reported with the schema path: either the
// JSON text encoding/json kept (decoded as yamlValue decodes it) or, in a
// document read by pkg/parse (v3value.go), the value itself. The zero
// rawValue is absent; a JSON null is present.
type rawValue struct {
	text    []byte
	decoded value.Value
	isValue bool // decoded holds the value (pkg/parse)
}

// UnmarshalJSON keeps a copy of the JSON text.
func (r *rawValue) UnmarshalJSON(b []byte) error {
	r.text = append(r.text[:0], b...)
	return nil
}

// present reports whether the schema declares the value.
func (r rawValue) present() bool { return r.isValue || len(r.text) > 0 }

// LoadV3 loads one or more OpenAPI v3 JSON documents (such as the
// per-group-version documents a Kubernetes server serves at
// /openapi/v3/apis/<group>/<version>) into one Schema. Schemas are read
// from components.schemas and converted as LoadV2 converts definitions
// (same kinds, $ref and single-$ref allOf resolution, defaults, patch
// extensions, GVK index). On top of that a property's structural
// extensions set its Field.Meta:
//
//   - x-kubernetes-list-type atomic: no merge strategy (the list is
//     replaced whole), whatever the patch strategy says;
//   - x-kubernetes-list-type set: StrategyMerge with no key (a set of
//     primitives);
//   - x-kubernetes-list-type map: StrategyMerge keyed by
//     x-kubernetes-list-map-keys, which take precedence over
//     x-kubernetes-patch-merge-key (so ports are keyed by containerPort and
//     protocol); retainKeys from the patch strategy is kept;
//   - x-kubernetes-map-type atomic: StrategyReplace; granular: merged.
//
// A property that is a reference takes the list-type and map-type its
// target schema declares unless it declares its own.
//
// Each document is converted on its own; the result holds the union, the
// first document that defines a name or claims a GVK winning (Kubernetes
// repeats shared schemas such as ObjectMeta in every document). Errors are
// *Error values naming the document (name, followed by its position when
// there are several; "OpenAPI v3 document" when name is empty) and the
// schema and path at fault: malformed JSON, a dangling or non-local $ref,
// a malformed extension or default. List-map-keys naming a field the item
// type lacks are kept, with a Warning (Schema.Warnings), as kube-openapi
// reads them. LoadV3 never panics and does not cache.
func LoadV3(name string, docs ...[]byte) (*Schema, error) {
	if len(docs) == 1 {
		return loadV3(docName(name), docs[0])
	}
	if len(docs) == 0 {
		return nil, &Error{Document: docName(name), Msg: "no document given, want one or more OpenAPI v3 JSON documents"}
	}
	out := &Schema{byName: make(map[string]*Type), byGVK: make(map[GVK]*Type)}
	for i, doc := range docs {
		s, err := loadV3(docName(name)+" #"+strconv.Itoa(i+1), doc)
		if err != nil {
			return nil, err
		}
		out.union(s)
	}
	return out, nil
}

func docName(name string) string {
	if name == "" {
		return v3DefaultDocTag
	}
	return name
}

// union adds the names and GVKs of o that s does not have yet, and o's
// warnings.
func (s *Schema) union(o *Schema) {
	s.warnings = append(s.warnings, o.warnings...)
	for n, t := range o.byName {
		if _, ok := s.byName[n]; !ok {
			s.byName[n] = t
		}
	}
	for g, t := range o.byGVK {
		if _, ok := s.byGVK[g]; !ok {
			s.byGVK[g] = t
		}
	}
}

// v3Loader converts one parsed document.
type v3Loader struct {
	doc  string
	crd  bool // a CRD's structural schema: $ref is not allowed
	raw  map[string]*v3Schema
	defs map[string]*Type
	keys []keyCheck // list-map-keys to check once every type is filled
	// warnings are the departures from the specification read past.
	warnings []Warning
}

// warnf records a departure from the specification that the loader read
// past, at definition def and path.
func (l *v3Loader) warnf(def, path, format string, args ...any) {
	l.warnings = append(l.warnings, Warning{Document: l.doc, Definition: def, Path: path, Msg: fmt.Sprintf(format, args...)})
}

// keyCheck is a list-map-keys declaration awaiting its item type.
type keyCheck struct {
	def, path string
	list      *Type
	keys      []string
}

func (l *v3Loader) errorf(def, path, format string, args ...any) *Error {
	return &Error{Document: l.doc, Definition: def, Path: path, Msg: fmt.Sprintf(format, args...)}
}

// loadV3 parses and converts one document, uncached.
func loadV3(name string, data []byte) (*Schema, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, &Error{Document: name, Msg: "the document is empty, want an OpenAPI v3 JSON document"}
	}
	var doc v3Document
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, &Error{Document: name, Msg: "not a valid OpenAPI v3 JSON document: " + err.Error()}
	}
	if !strings.HasPrefix(doc.OpenAPI, "3.") {
		return nil, &Error{Document: name, Msg: fmt.Sprintf("openapi is %q, want a 3.x version", doc.OpenAPI)}
	}
	l := &v3Loader{doc: name, raw: doc.Components.Schemas}
	return l.load()
}

// target returns the schema name a reference stands for: a $ref, or an
// allOf holding a single $ref and nothing that shapes the value.
func (s *v3Schema) target() (string, bool) {
	if s.Ref != "" {
		return strings.TrimPrefix(s.Ref, schemasPrefix), true
	}
	if len(s.AllOf) == 1 && s.AllOf[0] != nil && s.AllOf[0].Ref != "" &&
		s.Type == "" && s.Properties == nil && s.Items == nil && s.AdditionalProperties == nil {
		return strings.TrimPrefix(s.AllOf[0].Ref, schemasPrefix), true
	}
	return "", false
}

func (l *v3Loader) load() (*Schema, error) {
	names := make([]string, 0, len(l.raw))
	for name := range l.raw {
		names = append(names, name)
	}
	sort.Strings(names) // every pass reports the first fault in name order
	for _, name := range names {
		if l.raw[name] == nil {
			return nil, l.errorf(name, "", "the schema is null, want a schema object")
		}
		if err := l.check(l.raw[name], name, ""); err != nil {
			return nil, err
		}
	}
	l.defs = make(map[string]*Type, len(names))
	for _, name := range names {
		if _, alias := l.raw[name].target(); !alias {
			l.defs[name] = &Type{Name: name}
		}
	}
	aliasOf := func(n string) string {
		t, _ := l.raw[n].target()
		return t
	}
	for _, name := range names {
		if _, cycle := resolveAlias(l.defs, name, aliasOf); cycle != "" {
			l.warnf(name, "", "%s", cycle) // never in a CRD, which check refuses any $ref in
		}
	}
	for _, name := range names {
		if _, alias := l.raw[name].target(); alias {
			continue
		}
		if err := l.fill(l.defs[name], l.raw[name], name, ""); err != nil {
			return nil, err
		}
	}
	for _, c := range l.keys {
		item := c.list.Item()
		for _, k := range c.keys {
			if item.Kind != KindStruct || item.Field(k) == nil {
				if l.crd { // the API server refuses such a CustomResourceDefinition
					return nil, l.errorf(c.def, c.path, "%s names %q, which the item type %s does not declare as a field",
						extListMapKeys, k, item.Name)
				}
				// Kubernetes' own documents have such keys (the List types
				// of storage.k8s.io/v1 in 1.29, of
				// storagemigration.k8s.io/v1alpha1 in 1.30 to 1.34), and
				// kube-openapi does not check the extension.
				l.warnf(c.def, c.path, "%s names %q, which the item type %s does not declare as a field; "+
					"the key is kept (items are merged by it), as kube-openapi reads the extension unchecked",
					extListMapKeys, k, item.Name)
			}
		}
	}
	byGVK, err := indexGVKs(l.doc, names, l.defs, func(name string) ([]GVK, error) {
		v, ok, err := l.ext(l.raw[name].GVK, extGVK, name, "")
		if err != nil || !ok {
			return nil, err
		}
		gvks, skipped := parseGVKs(v)
		for _, msg := range skipped {
			l.warnf(name, "", "%s", msg)
		}
		return gvks, nil
	})
	if err != nil {
		return nil, err
	}
	return &Schema{byName: l.defs, byGVK: byGVK, warnings: l.warnings}, nil
}

// check verifies every $ref under s and decodes additionalProperties.
func (l *v3Loader) check(s *v3Schema, def, path string) error {
	if s == nil {
		return l.errorf(def, path, "the schema is null, want a schema object")
	}
	if s.Ref != "" && l.crd {
		return l.errorf(def, path, "$ref %q is not allowed in a CustomResourceDefinition schema (structural schemas are self-contained)", s.Ref)
	}
	if s.Ref != "" {
		if !strings.HasPrefix(s.Ref, schemasPrefix) {
			return l.errorf(def, path, "$ref %q does not point into this document's components.schemas (want %s<name>)", s.Ref, schemasPrefix)
		}
		if _, ok := l.raw[strings.TrimPrefix(s.Ref, schemasPrefix)]; !ok {
			return l.errorf(def, path, "$ref %q names no schema of this document", s.Ref)
		}
	}
	if ap := bytes.TrimSpace(s.AdditionalProperties); s.additional != nil || len(ap) > 0 && ap[0] == '{' {
		if s.additional == nil {
			s.additional = new(v3Schema)
			if err := json.Unmarshal(ap, s.additional); err != nil {
				return l.errorf(def, path+"{}", "additionalProperties is not a valid schema: %v", err)
			}
		}
		if err := l.check(s.additional, def, path+"{}"); err != nil {
			return err
		}
	} else if len(ap) > 0 && string(ap) != "true" && string(ap) != "false" {
		return l.errorf(def, path, "additionalProperties is %s, want a boolean or a schema", ap)
	}
	pnames := make([]string, 0, len(s.Properties))
	for n := range s.Properties {
		pnames = append(pnames, n)
	}
	sort.Strings(pnames)
	for _, n := range pnames {
		if err := l.check(s.Properties[n], def, joinField(path, n)); err != nil {
			return err
		}
	}
	if s.Items != nil {
		if err := l.check(s.Items, def, path+"[]"); err != nil {
			return err
		}
	}
	for _, sub := range s.AllOf {
		if err := l.check(sub, def, path); err != nil {
			return err
		}
	}
	return nil
}

// typeOf returns the Type of one use of a schema.
func (l *v3Loader) typeOf(s *v3Schema, def, path string) (*Type, error) {
	if target, ok := s.target(); ok {
		return l.defs[target], nil
	}
	t := &Type{Name: joinName(def, path)}
	if err := l.fill(t, s, def, path); err != nil {
		return nil, err
	}
	return t, nil
}

// fill sets t from s, with the kinds LoadV2 documents.
func (l *v3Loader) fill(t *Type, s *v3Schema, def, path string) error {
	intOrString := s.Format == formatIntOrString
	if v, ok, err := l.ext(s.IntOrString, extIntOrString, def, path); err != nil {
		return err
	} else if ok {
		b, isBool := v.AsBool()
		if !isBool {
			return l.errorf(def, path, "%s is %s, want a boolean", extIntOrString, kindPhrase(v))
		}
		intOrString = intOrString || b
	}
	switch {
	case intOrString:
		t.Kind = KindPrimitive
	case s.Type == "array":
		if s.Items == nil {
			return l.errorf(def, path, "the array has no items schema, want exactly 1")
		}
		elem, err := l.typeOf(s.Items, def, path+"[]")
		if err != nil {
			return err
		}
		t.Kind, t.Elem = KindList, elem
	case (s.Type == "object" || s.Type == "") && len(s.Properties) > 0:
		if err := l.fillStruct(t, s, def, path); err != nil {
			return err
		}
	case (s.Type == "object" || s.Type == "") && s.additional != nil:
		elem, err := l.typeOf(s.additional, def, path+"{}")
		if err != nil {
			return err
		}
		t.Kind, t.Elem = KindMap, elem
	case s.Type == "object" || s.Type == "":
		// Free-form, with or without x-kubernetes-preserve-unknown-fields:
		// fields merge as maps do when nothing is known about them.
		t.Kind = KindUnknown
	case s.Type == "string" || s.Type == "integer" || s.Type == "number" || s.Type == "boolean":
		t.Kind, t.Primitive = KindPrimitive, s.Type
	default:
		return l.errorf(def, path, "type %q is not an OpenAPI type, want object, array, string, integer, number or boolean", s.Type)
	}
	if _, err := l.boolExt(s.PreserveUnknown, extPreserveUnknown, def, path); err != nil {
		return err
	}
	if embedded, err := l.boolExt(s.EmbeddedResource, extEmbeddedResource, def, path); err != nil {
		return err
	} else if embedded {
		if t.Kind != KindStruct && t.Kind != KindUnknown {
			return l.errorf(def, path, "%s is true on a %s, want an object", extEmbeddedResource, t.Kind)
		}
		l.addObjectFields(t)
	}
	var err error
	t.Default, t.HasDefault, err = l.defaultOf(s, def, path)
	return err
}

func (l *v3Loader) fillStruct(t *Type, s *v3Schema, def, path string) error {
	t.Kind = KindStruct
	t.Fields = make(map[string]*Field, len(s.Properties))
	t.FieldNames = make([]string, 0, len(s.Properties))
	for name := range s.Properties {
		t.FieldNames = append(t.FieldNames, name)
	}
	sort.Strings(t.FieldNames)
	for _, name := range t.FieldNames {
		ps := s.Properties[name]
		fpath := joinField(path, name)
		ft, err := l.typeOf(ps, def, fpath)
		if err != nil {
			return err
		}
		f := &Field{Name: name, Type: ft}
		if f.Meta, f.KubectlMeta, err = l.meta(ps, ft, def, fpath); err != nil {
			return err
		}
		if _, ref := ps.target(); ref {
			if f.Default, f.HasDefault, err = l.defaultOf(ps, def, fpath); err != nil {
				return err
			}
		} else {
			f.Default, f.HasDefault = ft.Default, ft.HasDefault
		}
		t.Fields[name] = f
	}
	return nil
}

// meta reads the merge metadata of a property: the patch extensions first,
// then the structural extensions, which win where they disagree (m); and
// the patch extensions alone, as strategicpatch reads them (kubectl; see
// kubectlPatchMeta).
func (l *v3Loader) meta(ps *v3Schema, ft *Type, def, path string) (m, kubectl Meta, err error) {
	strategy, _, err := l.stringExt(ps.PatchStrategy, extPatchStrategy, def, path)
	if err != nil {
		return Meta{}, Meta{}, err
	}
	var unknown []string
	if m.Strategy, unknown, err = parseStrategy(strategy); err != nil {
		return Meta{}, Meta{}, l.errorf(def, path, "%s: %v", extPatchStrategy, err)
	}
	if unknown != nil {
		if l.crd {
			return Meta{}, Meta{}, l.errorf(def, path, "%s", strings.TrimSuffix(unknownStrategyWarning(strategy, unknown),
				"; ignored, as strategicpatch ignores it"))
		}
		l.warnf(def, path, "%s", unknownStrategyWarning(strategy, unknown))
	}
	mergeKey, _, err := l.stringExt(ps.PatchMergeKey, extPatchMergeKey, def, path)
	if err != nil {
		return Meta{}, Meta{}, err
	}
	if m.MergeKey, err = parseMergeKey(mergeKey); err != nil {
		return Meta{}, Meta{}, l.errorf(def, path, "%s: %v", extPatchMergeKey, err)
	}
	if m, err = l.structuralMeta(m, ps, ft, def, path); err != nil {
		return m, kubectl, err
	}
	kubectl = kubectlPatchMeta(strategy, mergeKey)
	if v, ok, err := l.ext(ps.MergeRule, ExtMergeRule, def, path); err != nil || !ok {
		return m, kubectl, err
	} else if m.Rule, err = parseRuleRef(v); err != nil {
		return m, kubectl, l.errorf(def, path, "%s: %v", ExtMergeRule, err)
	}
	kubectl.Rule = m.Rule
	return m, kubectl, nil
}

// structuralMeta applies the structural extensions of a property to the
// metadata m its patch extensions give.
func (l *v3Loader) structuralMeta(m Meta, ps *v3Schema, ft *Type, def, path string) (Meta, error) {
	// A reference takes the structural extensions of its target unless it
	// declares its own.
	structural := ps
	if target, ok := ps.target(); ok && !ps.ListType.present() && !ps.MapType.present() {
		structural = l.raw[target]
	}
	listType, hasListType, err := l.stringExt(structural.ListType, extListType, def, path)
	if err != nil {
		return Meta{}, err
	}
	var keys []string
	if v, ok, err := l.ext(structural.ListMapKeys, extListMapKeys, def, path); err != nil {
		return Meta{}, err
	} else if ok {
		if keys, err = l.stringList(v, def, path); err != nil {
			return Meta{}, err
		}
	}
	switch {
	case !hasListType:
		if keys != nil {
			return Meta{}, l.errorf(def, path, "%s without %s map", extListMapKeys, extListType)
		}
	case listType == "atomic":
		m.Strategy &^= StrategyMerge
		m.MergeKey = nil
	case listType == "set":
		m.Strategy = m.Strategy&^StrategyReplace | StrategyMerge
		m.MergeKey, m.Set = nil, true
	case listType == "map":
		if len(keys) == 0 {
			return Meta{}, l.errorf(def, path, "%s map without %s, want the key fields", extListType, extListMapKeys)
		}
		m.Strategy = m.Strategy&^StrategyReplace | StrategyMerge
		m.MergeKey = keys
		l.keys = append(l.keys, keyCheck{def: def, path: path, list: ft, keys: keys})
	default:
		return Meta{}, l.errorf(def, path, "%s %q, want atomic, set or map", extListType, listType)
	}
	mapType, hasMapType, err := l.stringExt(structural.MapType, extMapType, def, path)
	if err != nil {
		return Meta{}, err
	}
	switch {
	case !hasMapType:
	case mapType == "atomic":
		m.Strategy = StrategyReplace
	case mapType == "granular":
		m.Strategy &^= StrategyReplace
	default:
		return Meta{}, l.errorf(def, path, "%s %q, want atomic or granular", extMapType, mapType)
	}
	return m, nil
}

// ext decodes a raw extension value; ok is false when it is absent.
func (l *v3Loader) ext(raw rawValue, name, def, path string) (value.Value, bool, error) {
	if raw.isValue {
		return raw.decoded, true, nil
	}
	if len(raw.text) == 0 {
		return value.Value{}, false, nil
	}
	v, err := yamlValue(string(raw.text))
	if err != nil {
		return value.Value{}, false, l.errorf(def, path, "%s: %v", name, err)
	}
	return v, true, nil
}

// boolExt decodes a boolean extension; false when absent.
func (l *v3Loader) boolExt(raw rawValue, name, def, path string) (bool, error) {
	v, ok, err := l.ext(raw, name, def, path)
	if err != nil || !ok {
		return false, err
	}
	b, isBool := v.AsBool()
	if !isBool {
		return false, l.errorf(def, path, "%s is %s, want a boolean", name, kindPhrase(v))
	}
	return b, nil
}

// stringExt decodes a string-valued extension.
func (l *v3Loader) stringExt(raw rawValue, name, def, path string) (string, bool, error) {
	v, ok, err := l.ext(raw, name, def, path)
	if err != nil || !ok {
		return "", false, err
	}
	s, isString := v.AsString()
	if !isString {
		return "", false, l.errorf(def, path, "%s is %s, want a string", name, kindPhrase(v))
	}
	return s, true, nil
}

// stringList reads x-kubernetes-list-map-keys: a list of field names.
func (l *v3Loader) stringList(v value.Value, def, path string) ([]string, error) {
	if !v.IsList() {
		return nil, l.errorf(def, path, "%s is %s, want a list of field names", extListMapKeys, kindPhrase(v))
	}
	out := make([]string, 0, v.Len())
	for i, item := range v.Items() {
		s, ok := item.AsString()
		if !ok || s == "" {
			return nil, l.errorf(def, path, "%s[%d] is %s, want a non-empty field name", extListMapKeys, i, kindPhrase(item))
		}
		out = append(out, s)
	}
	return out, nil
}

// defaultOf returns the default declared on s.
func (l *v3Loader) defaultOf(s *v3Schema, def, path string) (value.Value, bool, error) {
	if s.Default.isValue {
		return s.Default.decoded, true, nil
	}
	if len(s.Default.text) == 0 {
		return value.Value{}, false, nil
	}
	v, err := yamlValue(string(s.Default.text))
	switch {
	case err != nil && l.crd:
		return value.Value{}, false, l.errorf(def, path, "default: %v", err)
	case err != nil:
		l.warnf(def, path, "default: %v; %s", err, defaultLeftOut)
		return value.Value{}, false, nil
	}
	return v, true, nil
}
