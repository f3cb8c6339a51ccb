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

// listOnNothing returns keyed list pv, of a patch item applied in apply mode, whose items are of type t, where the
// outcome lacks the list, as strategicpatch's mergeMap takes a field the original lacks: pv less its nulls at any depth
// (discardNullValuesFromPatch: StripNulls), its items otherwise as they stand, a key named twice too; each item as
// mapOnto merges it onto nothing (fields the schema types as the item holds them, lists merged onto nothing so in
// turn, its "$" keys as mapOnto takes them where the outcome lacks a map: the collation reads such items, without
// live, as the same values, and drops the directives strategicpatch copies). ok where mapOnto merges each.
func listOnNothing(t *openapi.Type, pv value.Value) (value.Value, bool) {
	items := make([]value.Value, pv.Len())
	for i, it := range pv.Items() {
		m, ok := mapOnto(it, value.Value{}, t, true, deleteUnknown)
		if !ok {
			return value.Value{}, false
		}
		items[i] = m
	}
	return value.List(items), true
}

// appendedCleaned returns data, a patch item's keyed list (items of type t) merged into held, the outcome's list
// there, with each item whose key neither held nor an earlier item of data names (keyOf) as a collation with held as
// live builds it: merged onto nothing (mapOnto), its nulls dropped at any depth, the collation dropping the nulls of
// content live lacks (docs/strategicpatch.md, "What stays different": strategicpatch's
// mergeSliceWithoutSpecialElements appends it as it stands, its nulls kept), a set or a keyed list inside it as it
// stands, naming a value or key twice too. A later item of such a key is merged into that one as the collation
// merges it. ok is false where mapOnto does not merge one so (a "$" key at any depth, a field of another kind than
// the schema's): the front-end applies the repeat.
func appendedCleaned(t *openapi.Type, held, data []value.Value, keyOf func(value.Value) value.ScalarKey) ([]value.Value, bool) {
	named := firstPlaces(held, keyOf)
	out := slices.Clone(data)
	for i, it := range data {
		if _, merged := named[keyOf(it)]; merged {
			continue
		}
		named[keyOf(it)] = 0
		m, ok := mapOnto(it, value.Value{}, t, true, deleteUnknown)
		if !ok {
			return nil, false
		}
		out[i] = m
	}
	return out, true
}

// mergedOrderFailure returns the error a collation of patch map p (type t) with the outcome as live gives at list
// field name, which p orders by "$setElementOrder" and mergedOrderOnto does not decide, lv the outcome's field there
// (held: present), where p's list does not name its items in the order's order and strategicpatch's
// validatePatchWithSetOrderList fails too: the field a list t merges by one merge key, no merge rule, the order a
// non-empty list of maps holding the key as a string or an integer, p's list non-empty maps each holding it so,
// none holding "$patch" (a key named twice too: both name it by one identity), no "$deleteFromPrimitiveList" beside
// it, lv absent or a list mergedListOnto reads. The collation checks the order as smp.OrderMismatch reads the items'
// identities (format.CheckOrder): each item's the first place of its key in p's list, each entry's that of its key,
// or a place no item holds. Nil elsewhere.
func mergedOrderFailure(p value.Value, t *openapi.Type, name string, lv value.Value, held bool) *elements.Error {
	f := orderedFieldOf(p, t, name)
	ft, meta, order, pv, deletes := f.t, f.meta, f.order, f.list, f.deletes
	if t.Kind != openapi.KindStruct || t.Field(name) == nil || !elements.MergedList(ft, &meta) || len(meta.MergeKey) != 1 ||
		meta.Rule != nil || deletes || !order.IsList() || order.Len() == 0 || !plainEntries(order.Items(), meta.MergeKey) ||
		!pv.IsList() || pv.Len() == 0 || !keyedPlain(meta.MergeKey[0], pv.Items()) ||
		(held && (!lv.IsList() || !mergeableHeld(ft, &meta, lv))) {
		return nil
	}
	keyOf := keyOfItems(meta.MergeKey[0])
	first := firstPlaces(pv.Items(), keyOf)
	seq, ids := make([]int, pv.Len()), make([]int, order.Len())
	for i, it := range pv.Items() {
		seq[i] = first[keyOf(it)]
	}
	for i, e := range order.Items() {
		if at, named := first[keyOf(e)]; named {
			ids[i] = at
		} else {
			ids[i] = pv.Len()
		}
	}
	if msg := smp.OrderMismatch(name, seq, ids); msg != "" {
		return &elements.Error{Source: elements.Patch, Path: fieldpath.Path{fieldpath.Field(name)}, Msg: msg}
	}
	return nil
}

// firstOnce is list l less its items whose key (keyOf) an earlier item names: strategicpatch's merge of sets
// (mergeSlice's deduplicateScalars) drops them, and orders the values left by their first places (normalizeElementOrder),
// which those of the items kept are.
func firstOnce(l value.Value, keyOf func(value.Value) value.ScalarKey) value.Value {
	first := firstPlaces(l.Items(), keyOf)
	if len(first) == l.Len() {
		return l
	}
	items := make([]value.Value, 0, len(first))
	for i, it := range l.Items() {
		if first[keyOf(it)] == i {
			items = append(items, it)
		}
	}
	return value.List(items)
}

// orderedFieldOnto returns out, the outcome's map a patch map pm (of type t) merges into (mapOnto), with the list pm
// orders by "$setElementOrder" field key merged into it as strategicpatch's mergePatchIntoOriginal merges it where the
// outcome holds the map (mergedOrderOnto: merged, then ordered, or, left out, out's list reordered by it; its items'
// "$patch: delete" maps as del says); the
// directive is not kept. ok is false where mergedOrderOnto does not decide it: the front-end applies the repeat.
func orderedFieldOnto(pm, out value.Value, t *openapi.Type, key string, del deletedRule) (value.Value, bool) {
	name := strings.TrimPrefix(key, smp.SetOrderPrefix)
	return withDecided(out, name, func(lv value.Value, held bool) (value.Value, bool, bool) {
		return mergedOrderOnto(pm, t, name, lv, held, del)
	})
}

// holdsDirective reports whether v holds a map key starting with "$" at any depth.
func holdsDirective(v value.Value) bool {
	switch {
	case v.IsMap():
		return slices.ContainsFunc(v.Fields(), func(f value.Field) bool {
			return strings.HasPrefix(f.Key, "$") || holdsDirective(f.Value)
		})
	case v.IsList():
		return slices.ContainsFunc(v.Items(), holdsDirective)
	}
	return false
}

// namedOnce reports whether the list "$setElementOrder/<f>" field key of patch map pm (type t) orders there, if pm
// holds one, names each value or key once (keyOfItems by the list's merge key); the order may name one twice, which
// mergedOrderOnto sorts by, as the collation applies it where the outcome lacks pm's map.
func namedOnce(pm value.Value, t *openapi.Type, key string) bool {
	name := strings.TrimPrefix(key, smp.SetOrderPrefix)
	_, meta := t.Child(name)
	list, _ := pm.Get(name)
	return len(firstPlaces(list.Items(), keyOfItems(soleMergeKey(&meta)))) == list.Len()
}

// orderedField is what a patch map p of type t holds at and beside its field name that a "$setElementOrder" may
// order: the field's type and metadata (t.Child), the order, the list (set: p holds the field) and a
// "$deleteFromPrimitiveList" of it (deletes: p holds one), as the functions deciding a repeat's ordered list read them
// (mergedOrderOnto, emptyOrderOnto, mergedOrderFailure, unmergedOrderOnto, unmergedOrderFailure).
type orderedField struct {
	t                    *openapi.Type
	meta                 openapi.Meta
	order, list, deleted value.Value
	set, deletes         bool
}

// orderedFieldOf reads p's field name and its directives (orderedField).
func orderedFieldOf(p value.Value, t *openapi.Type, name string) orderedField {
	var f orderedField
	f.t, f.meta = t.Child(name)
	f.order, _ = p.Get(smp.SetOrderPrefix + name)
	f.list, f.set = p.Get(name)
	f.deleted, f.deletes = p.Get(smp.DeletePrefix + name)
	return f
}
