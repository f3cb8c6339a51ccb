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

// loadCRDDoc converts one CRD manifest, or a List of them, and adds its
// kinds to out.
func loadCRDDoc(doc string, d value.Value, out *Schema) error {
	if !d.IsMap() {
		return &Error{Document: doc, Msg: "the document is " + kindPhrase(d) + ", want a CustomResourceDefinition object"}
	}
	apiVersion, _ := str(d, "apiVersion")
	kind, _ := str(d, "kind")
	if kind == crdListKind || kind == "List" {
		return loadCRDList(doc, kind, d, out)
	}
	if kind != crdKind {
		return &Error{Document: doc, Msg: "kind is " + strconv.Quote(kind) + ", want " + crdKind}
	}
	if apiVersion != crdAPIVersion {
		return &Error{Document: doc, Msg: "apiVersion is " + strconv.Quote(apiVersion) + ", want " + crdAPIVersion}
	}
	c, err := readCRDSpec(doc, d)
	if err != nil {
		return err
	}
	for i, ver := range c.versions.Items() {
		if err := c.loadVersion(i, ver, out); err != nil {
			return err
		}
	}
	return nil
}

// loadCRDList adds the kinds of every item of list, a kind List (or
// CustomResourceDefinitionList) document, to out; an item's errors name it
// "doc items[i]".
func loadCRDList(doc, kind string, list value.Value, out *Schema) error {
	items, _ := list.Get("items")
	if !items.IsList() {
		return &Error{Document: doc, Msg: "items of the " + kind + " is missing or not a list"}
	}
	for i, item := range items.Items() {
		if err := loadCRDDoc(doc+" items["+strconv.Itoa(i)+"]", item, out); err != nil {
			return err
		}
	}
	return nil
}

// crdSpec is what the versions of one CRD share: the document it is read
// from, the label its errors name it by ("CustomResourceDefinition
// name"), its non-empty group and kind, and its versions, a non-empty
// list.
type crdSpec struct {
	doc, label  string
	group, kind string
	versions    value.Value
}

// fail returns the error at def (the CRD's label, or one of its versions)
// of c's document.
func (c *crdSpec) fail(def, msg string) error {
	return &Error{Document: c.doc, Definition: def, Msg: msg}
}

// readCRDSpec reads the spec of the CRD manifest d: the group, the kind
// of spec.names and the versions, each required.
func readCRDSpec(doc string, d value.Value) (*crdSpec, error) {
	meta, _ := d.Get("metadata")
	crdName, _ := str(meta, "name")
	c := &crdSpec{doc: doc, label: crdKind + " " + crdName}
	if crdName == "" {
		c.label = crdKind + " (no metadata.name)"
	}
	spec, ok := d.Get("spec")
	if !ok || !spec.IsMap() {
		return nil, c.fail(c.label, "spec is missing or not an object")
	}
	c.group, ok = str(spec, "group")
	if !ok || c.group == "" {
		return nil, c.fail(c.label, "spec.group is missing or not a non-empty string")
	}
	names, _ := spec.Get("names")
	c.kind, ok = str(names, "kind")
	if !ok || c.kind == "" {
		return nil, c.fail(c.label, "spec.names.kind is missing or not a non-empty string")
	}
	c.versions, ok = spec.Get("versions")
	if !ok || !c.versions.IsList() || c.versions.Len() == 0 {
		return nil, c.fail(c.label, "spec.versions is missing or empty, want a list of versions")
	}
	return c, nil
}

// loadVersion adds the kind of ver, the i-th of c's versions, to out
// under its GVK and the definition name "group/version/kind" when it is
// served; a GVK out already has is an error.
func (c *crdSpec) loadVersion(i int, ver value.Value, out *Schema) error {
	vname, ok := str(ver, "name")
	if !ok || vname == "" {
		return c.fail(c.label, "spec.versions["+strconv.Itoa(i)+"].name is missing or not a non-empty string")
	}
	vlabel := c.label + " version " + vname
	served := true
	if s, ok := ver.Get("served"); ok {
		b, isBool := s.AsBool()
		if !isBool {
			return c.fail(vlabel, "served is "+kindPhrase(s)+", want a boolean")
		}
		served = b
	}
	if !served {
		return nil
	}
	sv, _ := ver.Get("schema")
	root, ok := sv.Get("openAPIV3Schema")
	if !ok || !root.IsMap() {
		return c.fail(vlabel, "the version has no schema.openAPIV3Schema object, want a structural schema")
	}
	gvk := GVK{Group: c.group, Version: vname, Kind: c.kind}
	defName := c.group + "/" + vname + "/" + c.kind
	t, err := convertCRDSchema(c.doc, defName, root)
	if err != nil {
		var oe *Error
		if errors.As(err, &oe) {
			oe.Definition = vlabel
		}
		return err
	}
	if _, dup := out.byGVK[gvk]; dup {
		return c.fail(vlabel, "group "+strconv.Quote(c.group)+", version "+strconv.Quote(vname)+", kind "+
			strconv.Quote(c.kind)+" is defined twice")
	}
	out.byGVK[gvk] = t
	out.byName[defName] = t
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
