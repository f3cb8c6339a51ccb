package visitors

import (
	"strings"

	"github.com/plyproject/ply/internal/smp"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/fieldpath"
	"github.com/plyproject/ply/pkg/value"
)

// otherKindFirst returns the error compose mode's Repeat r of patch item p (type t) meets merged into v, where Phase 1
// took the item whole (an atomic tree: its collation without the outcome builds no field of it, nor checks one) and a
// field of p's own map holds a list where the schema has a scalar, an object or a map: the collation's kind check
// (elements.KindMismatch) reads the patch's value before the outcome's, so it fails there whatever v holds, where the
// fields it builds before it (by name) are p's scalars of fields the schema types as scalars or does not declare, and
// v's fields p lacks (taken as they stand, unchecked), none a "$" key, a null or one a merge rule names, and the item
// lies within the depth limit (not r.Deep). strategicpatch takes such a list (its merge replaces a value of another kind); the collation
// refuses it (docs/errors.md, "a field of the wrong type"), as the front-end's does. Nil where that does not hold.
func otherKindFirst(r elements.Repeat, p value.Value, t *openapi.Type, v value.Value, unmergedRefused bool) error {
	if _, whole := r.Element.(*elements.AtomicElement); !whole || r.Err != nil || r.Deep || !p.IsMap() || !v.IsMap() {
		return nil
	}
	for _, f := range p.Fields() {
		ft, meta := t.Child(f.Key)
		if !(f.Value.IsList() || (unmergedRefused && f.Value.IsMap() && listOrScalar(ft))) || meta.Rule != nil ||
			strings.HasPrefix(f.Key, "$") {
			continue
		}
		if msg := elements.KindMismatch(ft, f.Value); msg != "" && scalarsBefore(p, t, f.Key) && plainBefore(v, t, f.Key) {
			return &elements.Error{Source: elements.Patch, Path: fieldpath.Path{fieldpath.Field(f.Key)}, Msg: msg}
		}
	}
	return nil
}

// listOrScalar reports whether the schema types a field of type t as a list or a scalar: with gate MultiFieldMergeKeys
// on, the collation's kind check refuses a map there before any look-up (as mapBefore reads it).
func listOrScalar(t *openapi.Type) bool {
	return t.Kind == openapi.KindList || t.Kind == openapi.KindPrimitive
}

// scalarsBefore reports whether map m's fields before name (by name), of a map of type t, are scalars (not null) at
// fields the schema types as scalars or does not declare, none a "$" key or one a merge rule names, but
// "$deleteFromPrimitiveList/<f>" keys holding no map (deletionData).
func scalarsBefore(m value.Value, t *openapi.Type, name string) bool {
	for _, f := range m.Fields() {
		if f.Key >= name {
			continue
		}
		ft, meta := t.Child(f.Key)
		if deletionData(t, f.Key) && !f.Value.IsMap() {
			continue
		}
		if strings.HasPrefix(f.Key, "$") || meta.Rule != nil || f.Value.IsNull() || f.Value.IsMap() || f.Value.IsList() ||
			(ft.Kind != openapi.KindPrimitive && ft.Kind != openapi.KindUnknown) {
			return false
		}
	}
	return true
}

// plainBefore reports whether map m's fields before name (by name), of a map of type t, hold no "$" key but
// "$deleteFromPrimitiveList/<f>" ones (deletionData) and none a merge rule names.
func plainBefore(m value.Value, t *openapi.Type, name string) bool {
	for _, f := range m.Fields() {
		if _, meta := t.Child(f.Key); f.Key < name && ((strings.HasPrefix(f.Key, "$") && !deletionData(t, f.Key)) || meta.Rule != nil) {
			return false
		}
	}
	return true
}

// deletionData reports whether key is a "$deleteFromPrimitiveList/<f>" directive of a map of type t: merging patches,
// the collation builds it as data of no schema, taking the patch's value whole where it is no map (or the first
// patch's holds none), without error within the depth limit.
func deletionData(t *openapi.Type, key string) bool {
	return strings.HasPrefix(key, smp.DeletePrefix) && directiveOf(t, key)
}
