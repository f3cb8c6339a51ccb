package visitors

import (
	"strings"

	"github.com/plyproject/ply/internal/smp"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/fieldpath"
	"github.com/plyproject/ply/pkg/value"
)

// retainRefused returns the message of the error collate's format.ReadMap gives reading patch map pm (of type t) for
// its "$retainKeys" (smp.MalformedMap, the read ReadMap makes: the directive not a list, an entry not a string, then
// the first data field set to other than null that no entry names), where strategicpatch's applyRetainKeysDirective
// refuses the directive too (merging pm into a map): the directive not a list, or a field set to other than null,
// "$deleteFromPrimitiveList/<f>" and "$setElementOrder/<f>" aside ("$" keys it does not know too), that no string
// entry names. "" where either accepts it, pm holds "$patch", or a "$deleteFromPrimitiveList/<f>" or
// "$setElementOrder/<f>" of pm is not a list.
func retainRefused(pm value.Value, t *openapi.Type) string {
	keys, retains := pm.Get(smp.RetainKeysKey)
	if _, directed := pm.Get(smp.DirectiveKey); !retains || directed {
		return ""
	}
	named := make(map[string]bool, keys.Len())
	for _, k := range keys.Items() {
		if s, ok := k.AsString(); ok {
			named[s] = true
		}
	}
	refused := !keys.IsList() // (strategicpatch's)
	for _, f := range pm.Fields() {
		listed := strings.HasPrefix(f.Key, smp.DeletePrefix) || strings.HasPrefix(f.Key, smp.SetOrderPrefix)
		switch {
		case listed && !f.Value.IsList():
			return ""
		case listed || f.Key == smp.RetainKeysKey || f.Value.IsNull() || named[f.Key]:
			continue
		}
		refused = true
	}
	if !refused {
		return ""
	}
	return smp.MalformedMap(pm, t, false)
}

// ownRetainRefused reports whether apply mode's Repeat r of patch item p (type t) fails onto v, its key's outcome, with
// its own collation's error r.Err, the one of the "$retainKeys" of its own map (retainRefused, at the item itself):
// a collation with v as live reads that map first, and refuses it so whatever v holds; strategicpatch's mergeMap
// applies that directive first, and refuses it too.
func ownRetainRefused(r elements.Repeat, p value.Value, t *openapi.Type, v value.Value) bool {
	e, ok := r.Err.(*elements.Error)
	return ok && r.Element == nil && len(e.Path) == 0 && v.IsMap() && p.IsMap() && e.Msg != "" &&
		retainRefused(p, t) == e.Msg
}

// retainFailure returns the error a collation of a patch map with the outcome as live gives at its field f (of type t),
// a map holding a "$retainKeys" both strategicpatch and the collation refuse (retainRefused), where lv, the outcome's
// field there (held: present), is a map f merges into field by field (fieldByField): strategicpatch merges f into
// it (mergeMapHandler), meeting the directive first, and the collation reads f's map before anything below it; or
// where the outcome lacks the field, which strategicpatch copies unchecked and the collation reads all the same. deep
// says the patch's values may reach the depth limit: nil then, and elsewhere.
func retainFailure(t *openapi.Type, f value.Field, lv value.Value, held, deep bool) *elements.Error {
	ft, meta := t.Child(f.Key)
	if deep || (held && !lv.IsMap()) || !f.Value.IsMap() || !fieldByField(ft, &meta) {
		return nil
	}
	if msg := retainRefused(f.Value, ft); msg != "" {
		return &elements.Error{Source: elements.Patch, Path: fieldpath.Path{fieldpath.Field(f.Key)}, Msg: msg}
	}
	return nil
}

// mapFailure returns the error a collation of a patch map with the outcome as live gives at its field f (of type t),
// a map merging into lv, the outcome's map there (held: present), where strategicpatch fails there too and
// sortedOntoLacking reads it: a "$patch" of another value than "replace" or "delete" (directedFailure), a "$retainKeys"
// both refuse (retainFailure), else an order of a list without items (nestedOrderFailure, under kubectl's order, as
// sortedOntoLacking reads the map's merged lists); where the outcome lacks the map, a set naming a value twice that its
// order contradicts (twiceOrderedFailure); the "$retainKeys" of an item of a keyed list the collation refuses
// (itemRetainFailure); an order of a list without items, or that the outcome's item holds as a null, in an item of a
// keyed list (itemOrderFailure, repeatitemorder.go; under kubectl's order); any of these in a map below f's map the
// outcome holds a map for (deeperFailure; under kubectl's order). Nil elsewhere, and with deep (the patch's values may
// reach the depth limit).
func mapFailure(t *openapi.Type, f value.Field, lv value.Value, held, deep, kubectl bool) *elements.Error {
	if deep {
		return nil
	} else if e := undeclaredFailure(t, f, lv, held); e != nil {
		return e
	} else if e := directedFailure(t, f, lv, held); e != nil {
		return e
	} else if e = twiceOrderedFailure(t, f, held); e != nil {
		return e
	} else if e = itemRetainFailure(t, f, lv, held); e != nil {
		return e
	} else if e = retainFailure(t, f, lv, held, deep); e != nil || !kubectl {
		return e
	} else if e = nestedOrderFailure(t, f, lv, held, deep); e != nil {
		return e
	} else if e = itemOrderFailure(t, f, lv, held); e != nil {
		return e
	}
	return deeperFailure(t, f, lv, held)
}

// itemRetainFailure returns the error a collation of a patch map with the outcome as live gives at its field f (of type
// t), a list the schema merges by one key (no merge rule, no directive beside it) whose items are maps each holding
// the key as a scalar, each key once, where lv, the outcome's field there (held: present), is a list or absent: the
// one item holding a "$retainKeys" the collation refuses (retainRefused), the others holding no "$" key at any depth,
// fails at its key, merged into lv's item of the key or appended (where strategicpatch copies it unchecked:
// docs/strategicpatch.md, "What stays different"), as the collation reads the item's map. Nil elsewhere.
func itemRetainFailure(t *openapi.Type, f value.Field, lv value.Value, held bool) *elements.Error {
	ft, meta := t.Child(f.Key)
	key := soleMergeKey(&meta)
	if key == "" || meta.Rule != nil || !f.Value.IsList() || !elements.MergedList(ft, &meta) || (held && !lv.IsList()) {
		return nil
	}
	var failure *elements.Error
	seen := map[value.ScalarKey]bool{}
	for _, it := range f.Value.Items() {
		k, keyed := it.Get(key)
		if !it.IsMap() || !keyed || !k.IsScalar() || seen[scalarKey(k)] {
			return nil
		}
		seen[scalarKey(k)] = true
		msg := retainRefused(it, ft.Item())
		switch {
		case msg != "" && failure == nil && !holdsDirective(it.Without(smp.RetainKeysKey)):
			failure = &elements.Error{Source: elements.Patch, Msg: msg, Path: fieldpath.Path{fieldpath.Field(f.Key),
				fieldpath.Key(elements.KeyFields(it, []string{key}, ft.Item()))}}
		case holdsDirective(it):
			return nil
		}
	}
	return failure
}
