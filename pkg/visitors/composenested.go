package visitors

import (
	"slices"
	"strings"

	"github.com/plyproject/ply/internal/smp"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/value"
)

// keptItems is items, a keyed list's, less those of the keys deleted names (a patch's "$patch: delete" items): what
// strategicpatch's merge of a patch's list into items merges the patch's data items into (deleteMatchingEntries).
func keptItems(items []value.Value, deleted map[value.ScalarKey]bool, keyOf func(value.Value) value.ScalarKey) []value.Value {
	if len(deleted) == 0 {
		return items
	}
	return slices.DeleteFunc(slices.Clone(items), func(it value.Value) bool { return deleted[keyOf(it)] })
}

// mergedItems is kept, a keyed list's items, with data, a patch's data items of type t, each in turn merged into the
// first item of its key (mergedInto), kept's or, where kept has none, the first of data's of that key, appended as it
// stands: strategicpatch's merge of the two lists before it orders them (mergeSliceWithoutSpecialElements). failed is
// the first item whose merge fails, err its error; decided is false where mergedInto cannot tell an item's merge.
func mergedItems(t *openapi.Type, kept, data []value.Value, keyOf func(value.Value) value.ScalarKey) (items []value.Value,
	failed value.Value, err *elements.Error, decided bool) {
	return mergedItemsBy(kept, data, keyOf, func(into, p value.Value) (value.Value, *elements.Error, bool) {
		return mergedInto(t, into, p)
	})
}

// mergedItemsBy is mergedItems with merge merging each data item into the first item of its key: mergedInto for a
// merge of patches, mapOnto for a patch applied in apply mode (mergedListOnto).
func mergedItemsBy(kept, data []value.Value, keyOf func(value.Value) value.ScalarKey,
	merge func(into, p value.Value) (value.Value, *elements.Error, bool)) (items []value.Value, failed value.Value,
	err *elements.Error, decided bool) {
	items = append([]value.Value(nil), kept...)
	first := firstPlaces(items, keyOf)
	for _, p := range data {
		at, held := first[keyOf(p)]
		if !held {
			first[keyOf(p)] = len(items)
			items = append(items, p)
			continue
		}
		into, err, decided := merge(items[at], p)
		if err != nil || !decided {
			return nil, p, err, decided
		}
		items[at] = into
	}
	return items, value.Value{}, nil, true
}

// heldUndirected reports whether items, a keyed list's an item of a patch's list merges into, hold no "$patch" but
// "delete" (one of a key the patch's delete items name aside: dropped first): such an item is merged into as another,
// the directive kept.
func heldUndirected(items []value.Value, deleted map[value.ScalarKey]bool, keyOf func(value.Value) value.ScalarKey) bool {
	for _, it := range items {
		if d, directed := it.Get(smp.DirectiveKey); directed && !isDelete(d) && !deleted[keyOf(it)] {
			return false
		}
	}
	return true
}

// ordersOrHoldsList reports whether map m holds a list at a field of its own (not a "$" one), a "$setElementOrder"
// (listOrOrder) or another "$" field holding a map or a list (dollarData), or a map of it at any depth does.
func ordersOrHoldsList(m value.Value) bool {
	for _, f := range m.Fields() {
		if listOrOrder(f) || dollarData(f) || (f.Value.IsMap() && ordersOrHoldsList(f.Value)) {
			return true
		}
	}
	return false
}

// listOrOrder reports whether field f of a patch's map is a list at a field of its own (not a "$" one) or a
// "$setElementOrder" list.
func listOrOrder(f value.Field) bool {
	return f.Value.IsList() && (!strings.HasPrefix(f.Key, "$") || strings.HasPrefix(f.Key, smp.SetOrderPrefix))
}

// listData reports whether list l, at a field of type t (meta its metadata) of a patch's item of a keyed list, is one
// mergedInto may merge (listMergedInto tells it once the map it merges into is known): a list merged by no strategy
// at a field the schema does not declare (or of no schema), or of scalars where the schema has a list of scalars (the
// collation refuses a list where the schema has a scalar or a map, and checks the structure of its items), a merged
// set of scalars of one class, each value once, or a list merged by one merge key of maps (keyedDirected), with a
// "$patch: replace" item or data items each holding the key as a scalar or null, directedFields in turn.
func listData(t *openapi.Type, meta *openapi.Meta, l value.Value) bool {
	switch {
	case !elements.MergedList(t, meta): // (the collation refuses a list where the schema has another kind: left to it)
		return t.Kind == openapi.KindUnknown ||
			(t.Kind == openapi.KindList && t.Item().Kind == openapi.KindPrimitive && allScalars(l.Items()))
	case len(meta.MergeKey) == 0:
		_, once, ok := scalarsOfClass(l.Items())
		return ok && once
	case len(meta.MergeKey) > 1:
		return false
	}
	key := meta.MergeKey[0]
	data, _, replace, ok := keyedDirected(l.Items(), key)
	if !ok || replace {
		return ok
	}
	return keyedHeld(data, key) && !slices.ContainsFunc(data, func(it value.Value) bool { return !directedFields(t.Item(), it) })
}

// listMergedInto is list pv, field name of a patch's map of type t (listData), merged as strategicpatch's merge of
// patches merges it into held, that field of the map it merges into: where held is no list (or absent), pv less its
// maps holding "$patch" (removeDirectives); where it is one, strategicpatch looks the field up in t, which must
// declare it (else the look-up fails: decided false), and takes pv as it stands for a list merged by no strategy
// (holding no "$patch" map, which the collation reads otherwise: decided false), held for two empty lists, and merges
// a set (setMergedInto) or a list merged by one key (keyedMergedInto). decided is false elsewhere: the front-end
// applies the repeat.
func listMergedInto(t *openapi.Type, name string, held, pv value.Value) (v value.Value, decided bool) {
	if !held.IsList() {
		v, _ := smp.WithoutDirectives(pv)
		return v, true
	}
	if t.Kind != openapi.KindStruct || t.Field(name) == nil {
		return value.Value{}, false
	}
	ft, meta := t.Child(name)
	switch {
	case meta.Rule != nil:
		return value.Value{}, false
	case !elements.MergedList(ft, &meta):
		return pv, !smp.HoldsDirectives(pv)
	case held.Len() == 0 && pv.Len() == 0:
		return held, true
	case len(meta.MergeKey) == 0:
		return setMergedInto(held, pv)
	case len(meta.MergeKey) == 1:
		return keyedMergedInto(ft.Item(), meta.MergeKey[0], held, pv)
	}
	return value.Value{}, false
}

// setMergedInto is set pv merged into held as strategicpatch merges lists of scalars (mergeSlice): held's values, then
// pv's that held lacks, ordered by pv's order, held's own values by held's places, interleaved (orderedBy). decided
// where both hold scalars of one class (strings, numbers or booleans; either may be empty), each value once: where a
// list repeats a value, strategicpatch's deduplication in place may rewrite held, by which it ranks the items.
func setMergedInto(held, pv value.Value) (value.Value, bool) {
	hc, heldOnce, heldOK := scalarsOfClass(held.Items())
	pc, patchOnce, patchOK := scalarsOfClass(pv.Items())
	if !heldOK || !patchOK || !heldOnce || !patchOnce || (hc != value.KindNull && pc != value.KindNull && hc != pc) {
		return value.Value{}, false
	}
	return setUnion(held, pv), true
}

// setUnion is set pv merged into held, a set naming each value once, as strategicpatch's mergeSlice merges lists of
// scalars of one class: held's values, then pv's that held lacks, each once, ordered by pv's first places, held's own
// values by held's places, interleaved (orderedBy).
func setUnion(held, pv value.Value) value.Value {
	at := firstPlaces(held.Items(), scalarKey)
	items := slices.Clone(held.Items())
	for _, x := range pv.Items() {
		if _, in := at[scalarKey(x)]; !in {
			at[scalarKey(x)] = len(items)
			items = append(items, x)
		}
	}
	return orderedBy(items, held.Items(), pv.Items(), scalarKey)
}

// keyedMergedInto is list pv, merged by merge key key, its items of type t, merged into held as strategicpatch merges a
// patch's list of maps into another (mergeSlice): with a "$patch: replace" item, pv's data items (replacesKeyed), those
// of a key together at its first's place; else held less the items of the keys pv's "$patch: delete" items name, each
// of pv's data items merged in turn (mergedItems), ordered by pv's data items, held's kept items by their places
// (orderedBy), as mergedKeyed merges a repeat's list. decided where held's items are maps each holding the key as a
// scalar or null with no "$patch" but "delete", pv's data items too (listData), and every merge of an item is decided
// without error (an error is left to the collation, which may meet another first).
func keyedMergedInto(t *openapi.Type, key string, held, pv value.Value) (value.Value, bool) {
	keyOf := keyOfField(key)
	data, deleted, replace, ok := keyedDirected(pv.Items(), key)
	switch {
	case !ok:
		return value.Value{}, false
	case replace:
		return orderedBy(data, data, nil, keyOf), replacesKeyed(data, held, key)
	case !keyedHeld(data, key) || !keyedHeld(held.Items(), key) || !heldUndirected(held.Items(), deleted, keyOf):
		return value.Value{}, false
	}
	kept := keptItems(held.Items(), deleted, keyOf)
	items, _, err, decided := mergedItems(t, kept, data, keyOf)
	if err != nil || !decided {
		return value.Value{}, false
	}
	return orderedBy(items, kept, data, keyOf), true
}

// orderData reports whether "$setElementOrder/<f>" field f of map m, of type t, orders a list mergedInto may order
// (orderedInto, orderedList): t declares <f> a list merged by no merge key or one, the order is a list of items with
// entries, scalars for a set, maps each holding the key as a scalar for a keyed list, and m's list there, where m holds
// one, holds no "$patch" item but "delete" and names its data items in the order's order as strategicpatch checks it
// (validatePatchWithSetOrderList: each entry naming the next item passes it).
func orderData(t *openapi.Type, m value.Value, f value.Field) bool {
	name := strings.TrimPrefix(f.Key, smp.SetOrderPrefix)
	ft, meta := t.Child(name)
	if t.Field(name) == nil || !elements.MergedList(ft, &meta) || len(meta.MergeKey) > 1 || !f.Value.IsList() ||
		f.Value.Len() == 0 {
		return false
	}
	key := soleMergeKey(&meta)
	if (key == "" && !allScalars(f.Value.Items())) || (key != "" && !keyedScalars(f.Value.Items(), key)) {
		return false
	}
	l, holds := m.Get(name)
	if !holds {
		return true
	}
	if !l.IsList() {
		return false
	}
	keyOf := keyOfItems(key)
	items, at := l.Items(), 0
	for _, it := range items {
		if d, directed := it.Get(smp.DirectiveKey); directed && !isDelete(d) {
			return false
		} else if directed {
			continue
		}
		for at < f.Value.Len() && keyOf(f.Value.Items()[at]) != keyOf(it) {
			at++
		}
		if at == f.Value.Len() {
			return false
		}
		at++
	}
	return true
}

// keyOfItems returns the identity of a list's items by merge key key ("": a set's scalars, scalarKey).
func keyOfItems(key string) func(value.Value) value.ScalarKey {
	if key == "" {
		return scalarKey
	}
	return keyOfField(key)
}

// soleMergeKey is meta's merge key where it has one alone, else "" (a set's items, identified as scalars: keyOfItems).
func soleMergeKey(meta *openapi.Meta) string {
	if len(meta.MergeKey) == 1 {
		return meta.MergeKey[0]
	}
	return ""
}

// keyOfField returns the identity of a keyed list's items by merge key key: the scalar (or null) each holds there.
func keyOfField(key string) func(value.Value) value.ScalarKey {
	return func(it value.Value) value.ScalarKey {
		k, _ := it.Get(key)
		return scalarKey(k)
	}
}

// orderedInto is into with "$setElementOrder/<f>" field f of patch map p (orderData), of type t, merged in as
// strategicpatch's merge of patches merges it (mergePatchIntoOriginal): the directive copied, where into holds none or
// the same (decided false where it holds another: strategicpatch refuses it), and, where p lacks <f> and into holds
// it, into's list ordered by it, its items each holding the merge key as a scalar (a set's scalars of one class, each
// once): the items it names by their first place there, the others by their places in the list (orderedBy). decided
// is false where into holds <f> as another kind than a list, or as an empty list.
func orderedInto(t *openapi.Type, into, p value.Value, f value.Field) (value.Value, bool) {
	if held, holds := into.Get(f.Key); holds && !value.Equal(held, f.Value) {
		return value.Value{}, false
	}
	into = into.With(f.Key, f.Value)
	name := strings.TrimPrefix(f.Key, smp.SetOrderPrefix)
	if _, sets := p.Get(name); sets {
		return into, true // (ordered with the list: orderedList)
	}
	lv, holds := into.Get(name)
	if !holds {
		return into, true
	}
	_, meta := t.Child(name)
	key := soleMergeKey(&meta)
	_, once, ok := scalarsOfClass(lv.Items())
	if !lv.IsList() || lv.Len() == 0 || (key != "" && !keyedScalars(lv.Items(), key)) || (key == "" && !(ok && once)) {
		return value.Value{}, false
	}
	return into.With(name, orderedBy(lv.Items(), lv.Items(), f.Value.Items(), keyOfItems(key))), true
}

// orderedList is merged, list pv of a patch's map of type t at field name merged into held (listMergedInto; inInto: the
// map merged into holds the field), ordered by pv's "$setElementOrder", order (orderData), as strategicpatch's merge of
// patches orders it (mergePatchIntoOriginal): the items order names by their first place there, the others by their
// places in held's list as the merge left its slice (orderView; a set's: held's), interleaved (orderedBy); where the
// map lacks the field, pv's items (less its "$patch" ones) by the order alone. decided is false where the map holds
// another kind there, or neither list holds an item (strategicpatch refuses either).
func orderedList(t *openapi.Type, name string, held value.Value, inInto bool, pv, merged, order value.Value) (value.Value, bool) {
	_, meta := t.Child(name)
	key := soleMergeKey(&meta)
	keyOf := keyOfItems(key)
	switch {
	case inInto && !held.IsList():
		return value.Value{}, false
	case !inInto && pv.Len() > 0:
		return orderedBy(merged.Items(), nil, order.Items(), keyOf), true
	case !inInto || (held.Len() == 0 && pv.Len() == 0):
		return value.Value{}, false
	case key == "":
		return orderedBy(merged.Items(), held.Items(), order.Items(), keyOf), true
	}
	return orderedBy(merged.Items(), orderView(pv.Items(), held, keyOf), order.Items(), keyOf), true
}
