package openapi

import "sync"

// Kubectl returns the kubectl view of s: the schema with the same names
// and kinds, each type replaced by its kubectl view (Type.Kubectl), so that
// merges read merge metadata as k8s.io/apimachinery's strategicpatch (and
// so kubectl apply) reads it. The engine uses it when the
// MultiFieldMergeKeys feature gate is off.
//
// The view is as lazy as s: a lookup parses what the same lookup on s
// parses and converts only the types reachable from the type found. It is
// built once per Schema (every call returns the same pointer) and safe for
// concurrent use. The view of a view, and of nil, is itself.
func (s *Schema) Kubectl() *Schema {
	if s == nil || s.kubectlOf != nil {
		return s
	}
	s.view.once.Do(func() { s.view.s = &Schema{kubectlOf: s} })
	return s.view.s
}

// KubectlBuilt marks t, a type built in Go whose fields' Meta is already
// what kubectl reads (KubectlMeta equal to Meta: the patch strategy and a
// one-field merge key verbatim, no list or map types) and whose merge keys
// take no defaults, as its own kubectl view, and returns it: Kubectl then
// returns t itself, building nothing, and KeyDefault reports no default.
// Call it before t is shared, once its fields are set; the types its
// fields reach need it as well.
func KubectlBuilt(t *Type) *Type {
	t.isKubectl = true
	return t
}

// kubectlMu serializes the building of kubectl views of types; reading a
// view already built takes no lock.
var kubectlMu sync.Mutex

// Kubectl returns the kubectl view of t: the same shape, every field's
// Meta replaced by its KubectlMeta, so that
//
//   - only x-kubernetes-patch-strategy and x-kubernetes-patch-merge-key
//     count: x-kubernetes-list-type, x-kubernetes-list-map-keys and
//     x-kubernetes-map-type are ignored;
//   - a merge key is one field name taken verbatim ("port,protocol" is a
//     single field name, which items do not have);
//   - KeyDefault reports no default: a merge-key field an item leaves out
//     is missing, never filled from the schema.
//
// Every type reachable from t is converted once per process and shared by
// every view that reaches it; a type reached through a $ref cycle is, as
// in t's graph, the same pointer. Types without fields or item type
// (primitives, Unknown) are their own view. Kubectl is safe for concurrent
// use; the view of a view, and of nil, is itself.
func (t *Type) Kubectl() *Type {
	if t == nil || t.isKubectl || (len(t.Fields) == 0 && t.Elem == nil) {
		return t
	}
	if v := t.kubectl.Load(); v != nil {
		return v
	}
	kubectlMu.Lock()
	defer kubectlMu.Unlock()
	views := make(map[*Type]*Type)
	v := kubectlView(t, views)
	// Publish only complete views: a reader that finds one never sees a
	// type whose fields are still being filled.
	for src, view := range views {
		src.kubectl.Store(view)
	}
	return v
}

// kubectlView returns the view of t, building it (and the views of the
// types it reaches) into views unless it exists. The caller holds
// kubectlMu.
func kubectlView(t *Type, views map[*Type]*Type) *Type {
	if t == nil || t.isKubectl || (len(t.Fields) == 0 && t.Elem == nil) {
		return t
	}
	if v := t.kubectl.Load(); v != nil {
		return v
	}
	if v, ok := views[t]; ok {
		return v
	}
	v := &Type{Name: t.Name, Kind: t.Kind, Primitive: t.Primitive, FieldNames: t.FieldNames,
		Default: t.Default, HasDefault: t.HasDefault, isKubectl: true}
	views[t] = v // before the fields: a cycle back to t finds v
	v.Elem = kubectlView(t.Elem, views)
	if t.Fields != nil {
		v.Fields = make(map[string]*Field, len(t.Fields))
		for name, f := range t.Fields {
			v.Fields[name] = &Field{Name: f.Name, Type: kubectlView(f.Type, views), Meta: f.KubectlMeta, KubectlMeta: f.KubectlMeta,
				Default: f.Default, HasDefault: f.HasDefault, NotAList: f.NotAList}
		}
	}
	return v
}
