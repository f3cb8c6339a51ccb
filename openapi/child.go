package openapi

import "github.com/plyproject/ply/pkg/value"

// Child returns the type and merge metadata of the value under key name of
// an object of type t: the declared field of a struct, the value type of a
// map, and Unknown (no metadata) for anything else, including fields a
// struct does not declare.
func (t *Type) Child(name string) (*Type, Meta) {
	if t == nil {
		return Unknown, Meta{}
	}
	switch t.Kind {
	case KindStruct:
		if f := t.Fields[name]; f != nil && f.Type != nil {
			return f.Type, f.Meta
		}
	case KindMap:
		if t.Elem != nil {
			return t.Elem, Meta{}
		}
	}
	return Unknown, Meta{}
}

// Item returns the item type of a list type (Unknown when t is not a list
// or has no item type).
func (t *Type) Item() *Type {
	if t == nil || t.Kind != KindList || t.Elem == nil {
		return Unknown
	}
	return t.Elem
}

// FieldDefault returns the schema default of field name of a struct type:
// the field's own default, else its type's.
func (t *Type) FieldDefault(name string) (value.Value, bool) {
	f := t.Field(name)
	switch {
	case f == nil:
		return value.Value{}, false
	case f.HasDefault:
		return f.Default, true
	case f.Type != nil && f.Type.HasDefault:
		return f.Type.Default, true
	}
	return value.Value{}, false
}

// KeyDefault returns the default that fills merge-key field name of an
// item of type t when the item leaves the field out: FieldDefault, except
// zero values ("", 0, false). Kubernetes publishes zero-value defaults for
// required fields (a container's name, a port's containerPort); for a
// merge key they would turn a missing identity into a made-up one, so they
// do not count. A kubectl view (Type.Kubectl) has no key defaults, as
// strategicpatch has none.
func (t *Type) KeyDefault(name string) (value.Value, bool) {
	if t != nil && t.isKubectl {
		return value.Value{}, false
	}
	d, ok := t.FieldDefault(name)
	if !ok {
		return d, false
	}
	switch d.Kind() {
	case value.KindNull:
		return d, false
	case value.KindString:
		s, _ := d.AsString()
		return d, s != ""
	case value.KindInt, value.KindFloat:
		f, _ := d.AsFloat()
		return d, f != 0
	case value.KindBool:
		b, _ := d.AsBool()
		return d, b
	}
	return d, true
}

// NullKey reports whether an item of type t whose merge-key field is present and null is named by the value null: in a
// kubectl view (Type.Kubectl, KubectlBuilt), as strategicpatch compares a key field's value, null included, so that
// such items match one another (never an item lacking the field). Elsewhere a null key field counts as absent and takes
// KeyDefault, or is missing.
func (t *Type) NullKey() bool { return t != nil && t.isKubectl }
