package openapi

import (
	"strings"
	"sync/atomic"

	"github.com/plyproject/ply/pkg/value"
)

// Kind is the shape of a schema Type, as far as merging cares.
type Kind uint8

// The shapes a Type can have.
const (
	// KindUnknown is a value with no usable schema (free-form, or a field the
	// schema does not declare). Merging falls back to kubectl's rule: maps
	// merge recursively, lists are replaced whole.
	KindUnknown Kind = iota
	// KindPrimitive is a string, integer, number or boolean.
	KindPrimitive
	// KindStruct is an object with named, individually typed fields.
	KindStruct
	// KindMap is an object whose values all share one type (additionalProperties).
	KindMap
	// KindList is an array.
	KindList
)

var kindNames = [...]string{"unknown", "primitive", "struct", "map", "list"}

// String names the kind.
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "invalid"
}

// Strategy is the patch strategy declared for a field
// (x-kubernetes-patch-strategy), a set of flags.
type Strategy uint8

// Patch strategy flags. StrategyMerge and StrategyReplace are exclusive;
// StrategyRetainKeys combines with StrategyMerge ("merge,retainKeys").
const (
	StrategyMerge Strategy = 1 << iota
	StrategyReplace
	StrategyRetainKeys
)

// Has reports whether all flags of f are set in s.
func (s Strategy) Has(f Strategy) bool { return s&f == f }

// String renders s the way the schema writes it ("merge,retainKeys").
func (s Strategy) String() string {
	var parts []string
	if s.Has(StrategyMerge) {
		parts = append(parts, "merge")
	}
	if s.Has(StrategyReplace) {
		parts = append(parts, "replace")
	}
	if s.Has(StrategyRetainKeys) {
		parts = append(parts, "retainKeys")
	}
	return strings.Join(parts, ",")
}

// Meta is the merge metadata a schema attaches to one use of a type: a
// struct field, or the root. It comes from x-kubernetes-patch-strategy and
// x-kubernetes-patch-merge-key (and, for OpenAPI v3, the list-type
// extensions).
type Meta struct {
	// Strategy is the declared patch strategy; zero means none declared
	// (lists then replace, maps merge).
	Strategy Strategy
	// MergeKey holds the fields that identify an item of a merged list of
	// maps, in declaration order; a multi-field key "containerPort,protocol"
	// has two entries. Empty when none is declared.
	MergeKey []string
	// Set reports a list declared x-kubernetes-list-type: set (its
	// strategy is then merge, with no merge key).
	Set bool
	// Rule names the merge rule a program registered that decides the
	// field (pkg/elements.RegisterRule), declared by the schema extension
	// x-ply-merge-rule or set in code (Schema.WithRules); nil: the
	// built-in rules decide. It counts in kubectl's view too.
	Rule *RuleRef
}

// Type is a resolved schema type. Types are immutable once built and shared
// by every goroutine that merges with the schema that built them.
//
// Invariants: Fields is non-nil only for KindStruct, and FieldNames holds
// its keys sorted; Elem is non-nil for KindMap (value type) and KindList
// (item type). A Type reached through a $ref cycle is the same pointer, so
// walks must be driven by data, not by the schema.
type Type struct {
	// Name is the definition name (io.k8s.api.apps.v1.Deployment) or, for
	// anonymous types, a path-like description; used in messages only.
	Name string
	// Kind is the shape.
	Kind Kind
	// Primitive is the JSON type of a KindPrimitive ("string", "integer",
	// "number", "boolean"); empty when any primitive is allowed.
	Primitive string
	// Fields maps each declared field of a KindStruct to its Field.
	Fields map[string]*Field
	// FieldNames lists the keys of Fields in sorted order.
	FieldNames []string
	// Elem is the value type of a KindMap or the item type of a KindList.
	Elem *Type
	// Default is the default declared on this type's own schema, when
	// HasDefault. A named definition's default applies wherever it is used;
	// an anonymous (inline) type belongs to one field, so its default is the
	// field's default too.
	Default value.Value
	// HasDefault reports whether the schema declares Default.
	HasDefault bool

	// kubectl is t's kubectl view once built (see Kubectl); isKubectl
	// marks a Type that is a kubectl view.
	kubectl   atomic.Pointer[Type]
	isKubectl bool
}

// Field is one declared field of a struct Type.
type Field struct {
	// Name is the JSON field name.
	Name string
	// Type is the field's type; never nil (KindUnknown when unresolved).
	Type *Type
	// Meta is the merge metadata declared on the field.
	Meta Meta
	// KubectlMeta is the merge metadata kubectl's strategic merge patch
	// reads for the field: x-kubernetes-patch-strategy and
	// x-kubernetes-patch-merge-key alone (no list or map type), the merge
	// key one field name taken verbatim, so "port,protocol" names a single
	// field. The loaders set it; the kubectl view (Type.Kubectl) uses it as
	// Meta. Types built in Go set it alongside Meta.
	KubectlMeta Meta
	// Default is the default declared on the field's own schema (the
	// property, including a $ref property), when HasDefault. It belongs to
	// this use of Type only; Type.Default is the default of the type itself.
	Default value.Value
	// HasDefault reports whether the property declares Default.
	HasDefault bool
	// NotAList is the error strategicpatch's look-up of the field as a list
	// (LookupPatchMetadataForSlice, which a "$setElementOrder/<field>"
	// makes) gives under the reader of the document that declares the
	// field, where that reader refuses it; empty where it finds the field.
	// The OpenAPI v2 loader sets it as kubectl's reader of v2 documents
	// answers ("expected slice, but got primitive" for a primitive,
	// "expected slice, but got map" for a map or an object without
	// properties; a $ref, an array or a schema of no type is found). The
	// OpenAPI v3 and CRD loaders leave it empty: kubectl's v3 look-up
	// finds every declared field. Types built in Go set it as their
	// source's look-up answers (for Go struct tags, PatchMetaFromStruct:
	// "expected slice or array type, but got: struct" for a field neither
	// a slice, an array nor a pointer).
	NotAList string
}

// Unknown is the shared Type of values without schema.
var Unknown = &Type{Name: "unknown", Kind: KindUnknown}

// Field returns the declared field called name, or nil.
func (t *Type) Field(name string) *Field {
	if t == nil || t.Fields == nil {
		return nil
	}
	return t.Fields[name]
}
