package openapi

import (
	"encoding/json"
	"errors"
	"sort"
	"strconv"

	"github.com/plyproject/ply/pkg/parse"
	"github.com/plyproject/ply/pkg/value"
)

const (
	crdAPIVersion  = "apiextensions.k8s.io/v1"
	crdKind        = "CustomResourceDefinition"
	crdListKind    = "CustomResourceDefinitionList"
	objectMetaName = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"
	crdDocTag      = "CustomResourceDefinition manifest"
)

// objectMeta is the metadata of custom resources and embedded resources
// when the schema at hand has no ObjectMeta definition: the fields whose
// merge semantics matter (labels and annotations merge per key, finalizers
// merge as a set, ownerReferences are keyed by uid); any other field is
// Unknown. It is shared and never modified.
var objectMeta = newObjectMeta()

func newObjectMeta() *Type {
	str := func(name string) *Type { return &Type{Name: name, Kind: KindPrimitive, Primitive: "string"} }
	boolean := func(name string) *Type { return &Type{Name: name, Kind: KindPrimitive, Primitive: "boolean"} }
	owner := structType("ObjectMeta.ownerReferences[]", map[string]*Field{
		"apiVersion":         {Type: str("ObjectMeta.ownerReferences[].apiVersion")},
		"kind":               {Type: str("ObjectMeta.ownerReferences[].kind")},
		"name":               {Type: str("ObjectMeta.ownerReferences[].name")},
		"uid":                {Type: str("ObjectMeta.ownerReferences[].uid")},
		"controller":         {Type: boolean("ObjectMeta.ownerReferences[].controller")},
		"blockOwnerDeletion": {Type: boolean("ObjectMeta.ownerReferences[].blockOwnerDeletion")},
	})
	return structType("ObjectMeta", map[string]*Field{
		"name":         {Type: str("ObjectMeta.name")},
		"generateName": {Type: str("ObjectMeta.generateName")},
		"namespace":    {Type: str("ObjectMeta.namespace")},
		"labels":       {Type: &Type{Name: "ObjectMeta.labels", Kind: KindMap, Elem: str("ObjectMeta.labels{}")}},
		"annotations":  {Type: &Type{Name: "ObjectMeta.annotations", Kind: KindMap, Elem: str("ObjectMeta.annotations{}")}},
		"finalizers": {
			Type:        &Type{Name: "ObjectMeta.finalizers", Kind: KindList, Elem: str("ObjectMeta.finalizers[]")},
			Meta:        Meta{Strategy: StrategyMerge},
			KubectlMeta: Meta{Strategy: StrategyMerge},
		},
		"ownerReferences": {
			Type:        &Type{Name: "ObjectMeta.ownerReferences", Kind: KindList, Elem: owner},
			Meta:        Meta{Strategy: StrategyMerge, MergeKey: []string{"uid"}},
			KubectlMeta: Meta{Strategy: StrategyMerge, MergeKey: []string{"uid"}},
		},
	})
}

// structType builds a struct Type from its fields, naming each field.
func structType(name string, fields map[string]*Field) *Type {
	t := &Type{Name: name, Kind: KindStruct, Fields: fields, FieldNames: make([]string, 0, len(fields))}
	for n, f := range fields {
		f.Name = n
		t.FieldNames = append(t.FieldNames, n)
	}
	sort.Strings(t.FieldNames)
	return t
}

// objectMetaType is the type of the metadata of a (custom or embedded)
// resource: the document's ObjectMeta when it has one, else objectMeta.
func (l *v3Loader) objectMetaType() *Type {
	if t, ok := l.defs[objectMetaName]; ok && t != nil {
		return t
	}
	return objectMeta
}

// addObjectFields makes t, a struct or an Unknown object being filled, the
// type of a Kubernetes object: apiVersion and kind are strings unless
// declared, and metadata is always the ObjectMeta type (the API server
// ignores what a CRD says of metadata beyond name restrictions).
func (l *v3Loader) addObjectFields(t *Type) {
	if t.Kind != KindStruct {
		t.Kind = KindStruct
		t.Fields = make(map[string]*Field, 3)
		t.FieldNames = nil
	}
	add := func(name string, ft *Type, replace bool) {
		if _, ok := t.Fields[name]; ok && !replace {
			return
		}
		if _, ok := t.Fields[name]; !ok {
			t.FieldNames = append(t.FieldNames, name)
		}
		t.Fields[name] = &Field{Name: name, Type: ft}
	}
	add("apiVersion", &Type{Name: joinName(t.Name, "apiVersion"), Kind: KindPrimitive, Primitive: "string"}, false)
	add("kind", &Type{Name: joinName(t.Name, "kind"), Kind: KindPrimitive, Primitive: "string"}, false)
	add("metadata", l.objectMetaType(), true)
	sort.Strings(t.FieldNames)
}

// LoadCRD loads the CustomResourceDefinition manifests (apiextensions.k8s.io/v1,
// YAML or JSON, one or more documents; empty documents are skipped; a
// CustomResourceDefinitionList or List, as kubectl get prints, contributes
// its items) in data
// into a Schema. Every served version's (a version without "served"
// counts as served) schema.openAPIV3Schema becomes the
// root type of the kind spec.names.kind in group spec.group and that
// version: ForKind("<group>/<version>", kind) finds it, and ByName finds it
// as "<group>/<version>/<kind>". The structural schema is converted as
// LoadV3 converts a schema (properties, items, additionalProperties,
// defaults, list types, list-map-keys, map types, patch extensions), and:
//
//   - an object with x-kubernetes-preserve-unknown-fields and no
//     properties is KindUnknown (merged as a free-form map); with
//     properties, its undeclared fields are Unknown as everywhere;
//   - an object with x-kubernetes-embedded-resource is a Kubernetes
//     object: apiVersion and kind are strings unless declared and metadata
//     is the ObjectMeta type;
//   - the root is such an object too.
//
// The ObjectMeta type of a CRD is built in: name, generateName and
// namespace are strings, labels and annotations maps of strings,
// finalizers a set, ownerReferences a list keyed by uid; other metadata
// fields are Unknown.
//
// Errors are *Error values whose Document is name ("CustomResourceDefinition
// manifest" when empty), followed by " #n" when data holds several
// documents (and " items[i]" inside a list), and whose Definition names the
// CRD and the version at fault:
// unreadable YAML or JSON, a document that is not an apiextensions.k8s.io/v1
// CustomResourceDefinition, a missing group, kind or version name, a served
// version without schema.openAPIV3Schema (not structural), a $ref, and the
// faults LoadV3 reports. LoadCRD never panics and does not cache.
func LoadCRD(name string, data []byte) (*Schema, error) {
	if name == "" {
		name = crdDocTag
	}
	docs, err := parse.Documents(data)
	if err != nil {
		return nil, &Error{Document: name, Msg: "not a valid YAML or JSON manifest: " + err.Error()}
	}
	return loadCRDs(name, docs)
}

// loadCRDs converts the parsed CRD manifests docs of document name.
func loadCRDs(name string, docs []value.Value) (*Schema, error) {
	out := &Schema{byName: make(map[string]*Type), byGVK: make(map[GVK]*Type)}
	var count int
	for _, d := range docs {
		if !d.IsNull() {
			count++
		}
	}
	if count == 0 {
		return nil, &Error{Document: name, Msg: "no document, want one or more CustomResourceDefinition manifests"}
	}
	n := 0
	for _, d := range docs {
		if d.IsNull() {
			continue
		}
		n++
		doc := name
		if count > 1 {
			doc = name + " #" + strconv.Itoa(n)
		}
		if err := loadCRDDoc(doc, d, out); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// str returns the string under key of a map value.
func str(v value.Value, key string) (string, bool) {
	f, ok := v.Get(key)
	if !ok {
		return "", false
	}
	return f.AsString()
}

// loadCRDDoc converts one CRD manifest and adds its kinds to out.
func loadCRDDoc(doc string, d value.Value, out *Schema) error {
	fail := func(def, msg string) error { return &Error{Document: doc, Definition: def, Msg: msg} }
	if !d.IsMap() {
		return fail("", "the document is "+kindPhrase(d)+", want a CustomResourceDefinition object")
	}
	apiVersion, _ := str(d, "apiVersion")
	kind, _ := str(d, "kind")
	if kind == crdListKind || kind == "List" {
		items, _ := d.Get("items")
		if !items.IsList() {
			return fail("", "items of the "+kind+" is missing or not a list")
		}
		for i, item := range items.Items() {
			if err := loadCRDDoc(doc+" items["+strconv.Itoa(i)+"]", item, out); err != nil {
				return err
			}
		}
		return nil
	}
	if kind != crdKind {
		return fail("", "kind is "+strconv.Quote(kind)+", want "+crdKind)
	}
	if apiVersion != crdAPIVersion {
		return fail("", "apiVersion is "+strconv.Quote(apiVersion)+", want "+crdAPIVersion)
	}
	meta, _ := d.Get("metadata")
	crdName, _ := str(meta, "name")
	label := crdKind + " " + crdName
	if crdName == "" {
		label = crdKind + " (no metadata.name)"
	}
	spec, ok := d.Get("spec")
	if !ok || !spec.IsMap() {
		return fail(label, "spec is missing or not an object")
	}
	group, ok := str(spec, "group")
	if !ok || group == "" {
		return fail(label, "spec.group is missing or not a non-empty string")
	}
	names, _ := spec.Get("names")
	rootKind, ok := str(names, "kind")
	if !ok || rootKind == "" {
		return fail(label, "spec.names.kind is missing or not a non-empty string")
	}
	versions, ok := spec.Get("versions")
	if !ok || !versions.IsList() || versions.Len() == 0 {
		return fail(label, "spec.versions is missing or empty, want a list of versions")
	}
	for i, ver := range versions.Items() {
		vname, ok := str(ver, "name")
		if !ok || vname == "" {
			return fail(label, "spec.versions["+strconv.Itoa(i)+"].name is missing or not a non-empty string")
		}
		vlabel := label + " version " + vname
		served := true
		if s, ok := ver.Get("served"); ok {
			b, isBool := s.AsBool()
			if !isBool {
				return fail(vlabel, "served is "+kindPhrase(s)+", want a boolean")
			}
			served = b
		}
		if !served {
			continue
		}
		sv, _ := ver.Get("schema")
		root, ok := sv.Get("openAPIV3Schema")
		if !ok || !root.IsMap() {
			return fail(vlabel, "the version has no schema.openAPIV3Schema object, want a structural schema")
		}
		gvk := GVK{Group: group, Version: vname, Kind: rootKind}
		defName := group + "/" + vname + "/" + rootKind
		t, err := convertCRDSchema(doc, defName, root)
		if err != nil {
			var oe *Error
			if errors.As(err, &oe) {
				oe.Definition = vlabel
			}
			return err
		}
		if _, dup := out.byGVK[gvk]; dup {
			return fail(vlabel, "group "+strconv.Quote(group)+", version "+strconv.Quote(vname)+", kind "+
				strconv.Quote(rootKind)+" is defined twice")
		}
		out.byGVK[gvk] = t
		out.byName[defName] = t
	}
	return nil
}

// convertCRDSchema converts the openAPIV3Schema of one version.
func convertCRDSchema(doc, defName string, root value.Value) (*Type, error) {
	var s v3Schema
	if err := json.Unmarshal(root.JSON(), &s); err != nil {
		return nil, &Error{Document: doc, Definition: defName, Msg: "openAPIV3Schema is not a valid schema: " + err.Error()}
	}
	l := &v3Loader{doc: doc, crd: true, raw: map[string]*v3Schema{defName: &s}}
	if _, err := l.load(); err != nil {
		return nil, err
	}
	t := l.defs[defName]
	if t.Kind != KindStruct && t.Kind != KindUnknown {
		return nil, l.errorf(defName, "", "the root schema is a %s, want an object", t.Kind)
	}
	l.addObjectFields(t)
	return t, nil
}
