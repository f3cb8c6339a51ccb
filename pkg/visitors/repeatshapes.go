package visitors

import (
	"slices"
	"strings"

	"github.com/plyproject/ply/internal/smp"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/fieldpath"
	"github.com/plyproject/ply/pkg/value"
)

// listOnto returns list pv, a field of type t (metadata meta) of apply mode's patch item that the schema merges and
// no "$setElementOrder" orders, merged into lv, the outcome's field there (held: present), as strategicpatch's
// mergeMap merges it (valueOnto's merged lists): a keyed list holding "$patch" items as directedListOnto merges it, an
// empty set onto the outcome's set naming a value twice as dedupedOnto does, any other as mergedListOnto does (its
// items' "$patch: delete" maps as del says). ok is false where none of them decides it: the front-end applies the
// repeat.
func listOnto(t *openapi.Type, meta *openapi.Meta, pv, lv value.Value, held bool, del deletedRule) (value.Value, bool) {
	if l, ok := dedupedOnto(t, meta, pv, lv, held); ok {
		return l, true
	}
	if slices.ContainsFunc(pv.Items(), directedItem) {
		return directedListOnto(t, meta, pv, lv, held, del)
	}
	return mergedListOnto(t, meta, pv, lv, held, del)
}

// directedListOnto is mergedListOnto for pv, a list merged by one key whose items are maps, some holding "$patch":
// "delete" ones holding the key as a string or an integer, "replace" ones (others of any "$patch" value refused), the
// rest plain (keyedPlain), as strategicpatch's mergeSlice merges it where the outcome holds a list
// (mergeSliceWithSpecialElements): a "replace" item takes the data items as they stand for the outcome's list (none
// holding a null or a "$" key at any depth, each after the first item of its key, by a stable sort on its key's first
// place: normalizeSliceOrder), else each "delete" item first drops every item of its key from lv, then the data items
// merge into what is left (mergedListOnto; their "$patch: delete" maps merged into lv's items as del says). Where the
// outcome lacks the list, mergeMap's removeDirectives drops the "$patch" items: the data items taken onto nothing
// (mergedListOnto). ok is false elsewhere.
func directedListOnto(t *openapi.Type, meta *openapi.Meta, pv, lv value.Value, held bool, del deletedRule) (value.Value, bool) {
	if meta.Rule != nil || len(meta.MergeKey) != 1 || !elements.MergedList(t, meta) || (held && !lv.IsList()) {
		return value.Value{}, false
	}
	keyOf := keyOfItems(meta.MergeKey[0])
	var data []value.Value
	deleted := map[value.ScalarKey]bool{}
	replace := false
	for _, it := range pv.Items() {
		d, isDirected := it.Get(smp.DirectiveKey)
		s, _ := d.AsString()
		switch {
		case !it.IsMap():
			return value.Value{}, false
		case !isDirected:
			data = append(data, it)
		case s == smp.ReplaceValue:
			replace = true
		case s != smp.DeleteValue || !keyedPlain(meta.MergeKey[0], []value.Value{it.Without(smp.DirectiveKey)}):
			return value.Value{}, false
		default:
			deleted[keyOf(it)] = true
		}
	}
	if !held || !replace {
		kept := slices.DeleteFunc(slices.Clone(lv.Items()), func(it value.Value) bool { return deleted[keyOf(it)] })
		return mergedListOnto(t, meta, value.List(data), value.List(kept), held, del)
	}
	if !keyedPlain(meta.MergeKey[0], data) || slices.ContainsFunc(data, func(it value.Value) bool {
		return holdsDirective(it) || StripNulls(it) != it
	}) {
		return value.Value{}, false
	}
	first := firstPlaces(data, keyOf)
	slices.SortStableFunc(data, func(a, b value.Value) int { return first[keyOf(a)] - first[keyOf(b)] })
	return value.List(data), true
}

// dedupedOnto returns lv, the outcome's set of scalars of one kind (mergeableHeld) at a field of type t (metadata
// meta), where patch list pv at that field is empty and lv names a value twice, as strategicpatch's mergeSlice leaves
// it: its deduplicateScalars works in place on lv's own slice (appending no item copies nothing), each later copy of
// a value overwritten by the slice's last item, and the order it then enforces reads that slice so rewritten, which
// keeps the deduplicated items as they stand (smp.DedupScalars). ok is false elsewhere.
func dedupedOnto(t *openapi.Type, meta *openapi.Meta, pv, lv value.Value, held bool) (value.Value, bool) {
	if !held || !pv.IsList() || pv.Len() > 0 || !lv.IsList() || len(meta.MergeKey) > 0 || meta.Rule != nil ||
		!mergeableHeld(t, meta, lv) || len(firstPlaces(lv.Items(), scalarKey)) == lv.Len() {
		return value.Value{}, false
	}
	return value.List(smp.DedupScalars(slices.Clone(lv.Items()))), true
}

// orderWithoutItems returns the error a collation of patch map p (type t) with the outcome as live gives at list field
// name, a list the schema merges (by one key or as a set, no merge rule) that p orders by "$setElementOrder" (a list
// of plain entries: plainEntries) and neither p nor the outcome holds items of: p's list empty or left out, lv, the
// outcome's field there (held: present), an empty list or absent, not both absent, no "$deleteFromPrimitiveList"
// beside it (collate's format.CheckDirs: smp.OrderWithoutItems; strategicpatch's mergePatchIntoOriginal fails too,
// finding no element type). Nil elsewhere.
func orderWithoutItems(p value.Value, t *openapi.Type, name string, lv value.Value, held bool) *elements.Error {
	f := orderedFieldOf(p, t, name)
	if t.Kind != openapi.KindStruct || t.Field(name) == nil || !elements.MergedList(f.t, &f.meta) || f.meta.Rule != nil ||
		f.deletes || !f.order.IsList() || !plainEntries(f.order.Items(), f.meta.MergeKey) ||
		(f.set && (!f.list.IsList() || f.list.Len() > 0)) || (held && (!lv.IsList() || lv.Len() > 0)) || (!f.set && !held) {
		return nil
	}
	return &elements.Error{Source: elements.Patch, Path: fieldpath.Path{fieldpath.Field(name)}, Msg: smp.OrderWithoutItems(name)}
}

// ignoredDirective reports whether key, a field of a patch map of type t, is a "$" key t does not declare and the
// collation ignores (collate's format.ReadMap: not "$patch", "$retainKeys", "$setElementOrder/<f>" or
// "$deleteFromPrimitiveList/<f>"), a newer client's directive: dropped where strategicpatch copies it
// (docs/patches.md).
func ignoredDirective(t *openapi.Type, key string) bool {
	return strings.HasPrefix(key, "$") && t.Field(key) == nil && key != smp.DirectiveKey && key != smp.RetainKeysKey &&
		!strings.HasPrefix(key, smp.SetOrderPrefix) && !strings.HasPrefix(key, smp.DeletePrefix)
}

// replacesOrDeletes reports whether pm, a patch map, holds "$patch: replace" or "$patch: delete": where the outcome
// lacks its field (or holds another kind there), strategicpatch's mergeMap drops it (removeDirectives), the field
// absent after, as the collation takes it.
func replacesOrDeletes(pm value.Value) bool {
	d, _ := pm.Get(smp.DirectiveKey)
	s, _ := d.AsString()
	return s == smp.ReplaceValue || s == smp.DeleteValue
}

// nestedOrderFailure returns the error a collation of a patch map with the outcome as live gives at its field f (of
// type t), a map merging field by field into lv, the outcome's map there (held: present; or absent or another kind,
// where strategicpatch copies the map unchecked and the collation checks it all the same), that holds one
// "$setElementOrder" of a merged list neither f's map nor lv (less the fields f's "$retainKeys" clears first) holds
// items of (orderWithoutItems), or of a list lv holds as a null (nullOrdered), where mapOnto decides f's other
// fields: strategicpatch's mergePatchIntoOriginal,
// which applies f's orders first, fails there too, and the collation meets no error at f's other fields. deep says
// the patch's values may reach the depth limit: nil then, and elsewhere.
func nestedOrderFailure(t *openapi.Type, f value.Field, lv value.Value, held, deep bool) *elements.Error {
	ft, meta := t.Child(f.Key)
	if held && !lv.IsMap() {
		lv, held = value.Value{}, false // (another kind: f's map taken as onto nothing, otherKind)
	}
	if deep || !f.Value.IsMap() || !fieldByField(ft, &meta) {
		return nil
	}
	cleared, ok := value.MustMap(), true // (where the outcome lacks the map: its lists absent)
	if held {
		cleared, ok = retainedOnto(f.Value, lv)
	}
	if !ok {
		return nil
	}
	var failure *elements.Error
	rest := f.Value
	for _, g := range f.Value.Fields() {
		name, ordering := strings.CutPrefix(g.Key, smp.SetOrderPrefix)
		deleted, deleting := strings.CutPrefix(g.Key, smp.DeletePrefix)
		if !ordering && !deleting {
			continue
		}
		var e *elements.Error
		if deleting {
			name = deleted
			llv, lheld := cleared.Get(name)
			e = deletedFailure(f.Value, ft, name, llv, lheld)
		} else {
			llv, lheld := cleared.Get(name)
			if e = orderWithoutItems(f.Value, ft, name, llv, lheld); e == nil {
				e = nullOrdered(f.Value, ft, name, llv, lheld)
			}
		}
		if e != nil && failure != nil {
			return nil // (a second: which fails first is not read here)
		} else if e != nil {
			failure = &elements.Error{Source: e.Source, Path: append(fieldpath.Path{fieldpath.Field(f.Key)}, e.Path...), Msg: e.Msg}
			rest = rest.Without(g.Key).Without(name)
		}
	}
	if _, ok = mapOnto(rest, lv, ft, true, deleteUnknown); failure == nil || !ok {
		return nil
	}
	return failure
}

// directedFailure returns the error a collation of a patch map with the outcome as live gives at its field f (of type
// t), a map merging field by field into lv, the outcome's map there (held: present), that holds "$patch" of another
// value than "replace" or "delete": for "merge", that it is a schema strategy (mergeDirective), else the unknown
// value's (smp.UnknownDirective), collate's format.ReadMap reading f's map first; strategicpatch's
// handleDirectiveInMergeMap refuses both. Nil elsewhere.
func directedFailure(t *openapi.Type, f value.Field, lv value.Value, held bool) *elements.Error {
	ft, meta := t.Child(f.Key)
	d, directed := f.Value.Get(smp.DirectiveKey)
	s, _ := d.AsString()
	if !held || !lv.IsMap() || !f.Value.IsMap() || !fieldByField(ft, &meta) || !directed || s == smp.ReplaceValue ||
		s == smp.DeleteValue {
		return nil
	}
	msg := smp.UnknownDirective(d)
	if s == smp.MergeValue {
		msg = mergeDirective
	}
	return &elements.Error{Source: elements.Patch, Path: fieldpath.Path{fieldpath.Field(f.Key)}, Msg: msg}
}

// deletedMap reports whether f, a field of a patch map of type t, holds a map of an object field (fieldByField) holding
// "$patch: delete" (deletesMap), where lv, the outcome's field there (held: present), is a map: strategicpatch's
// handleDirectiveInMergeMap leaves an empty map there, and so does the collation with that outcome as live; with gate
// PatchDeleteRemovesMap the collation removes the field (sortedOntoLacking's removes).
func deletedMap(t *openapi.Type, f value.Field, lv value.Value, held bool) bool {
	ft, meta := t.Child(f.Key)
	return held && lv.IsMap() && f.Value.IsMap() && fieldByField(ft, &meta) && deletesMap(f.Value)
}

// twiceOrderedFailure returns the error a collation of a patch map with the outcome as live gives at its field f (of
// type t), a map of an object field (fieldByField) the outcome lacks (held false), holding one "$setElementOrder" and
// no other "$" key at any depth, of a set of scalars (merged, no merge key, no merge rule) naming a value twice, whose
// order, of scalars, it does not follow (orderContradicted): the collation checks the order there as the patch holds
// it, where strategicpatch copies the map unchecked (docs/strategicpatch.md, "What stays different"). Nil elsewhere.
func twiceOrderedFailure(t *openapi.Type, f value.Field, held bool) *elements.Error {
	ft, meta := t.Child(f.Key)
	if held || !f.Value.IsMap() || !fieldByField(ft, &meta) {
		return nil
	}
	var key string
	for _, g := range f.Value.Fields() {
		if strings.HasPrefix(g.Key, "$") && key != "" {
			return nil
		} else if strings.HasPrefix(g.Key, "$") {
			key = g.Key
		}
	}
	name, ordering := strings.CutPrefix(key, smp.SetOrderPrefix)
	rest := f.Value.Without(key)
	list, set := rest.Get(name)
	order, _ := f.Value.Get(key)
	lt, lmeta := ft.Child(name)
	if !ordering || !set || !list.IsList() || !order.IsList() || holdsDirective(rest) || namedOnce(f.Value, ft, key) ||
		!elements.MergedList(lt, &lmeta) || len(lmeta.MergeKey) > 0 || lmeta.Rule != nil ||
		!allScalars(list.Items()) || !allScalars(order.Items()) {
		return nil
	}
	e := orderContradicted(ft, name, list, order)
	if e == nil {
		return nil
	}
	return &elements.Error{Source: e.Source, Path: append(fieldpath.Path{fieldpath.Field(f.Key)}, e.Path...), Msg: e.Msg}
}

// undeclaredOver reports whether f, a field of a patch map of type t (a struct) that t does not declare, holds a map or
// a list, no "$" key at any depth but those directedPlainly reads, where lv, the outcome's field there (held:
// present), is absent, a scalar, or a map or list of the other kind: strategicpatch's mergeMap sets f's value there,
// less its nulls and its maps holding "$patch" (absent where f's value is one), looking up no schema (it fails the
// look-up only merging onto the same kind: class oracle-no-meta-undeclared), and so does the collation with that
// outcome as live, less the other "$" keys too (cleanedWhole).
func undeclaredOver(t *openapi.Type, f value.Field, lv value.Value, held bool) bool {
	pv := f.Value
	if t.Kind != openapi.KindStruct || t.Field(f.Key) != nil || !(pv.IsMap() || pv.IsList()) || !directedPlainly(pv) {
		return false
	}
	return !held || lv.IsScalar() || (lv.IsList() && pv.IsMap()) || (lv.IsMap() && pv.IsList())
}
