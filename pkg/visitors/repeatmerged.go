package visitors

import (
	"slices"

	"github.com/plyproject/ply/internal/smp"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/value"
)

// mergedListOnto returns list pv, a field of type t (metadata meta) of apply mode's patch item that the schema merges
// (elements.MergedList), merged into lv, the outcome's field there (held: present), as strategicpatch's mergeMap merges
// it where that is exact here (sortedOntoLacking's fields, under kubectl's order): where the outcome lacks the field,
// pv less its nulls at any depth (discardNullValuesFromPatch: StripNulls), its items as they stand otherwise, a key or
// value named twice too; where it holds a list, mergeSlice's merge: for a set of scalars (no merge key) of one kind on
// both sides (strings, integers or booleans; either side may be empty), either naming a value twice, lv's values each
// once (deduplicateScalars keeps the first; where pv is empty and lv names a value twice, the in-place deduplication
// orders lv's own slice: dedupedOnto, which callers try first), then pv's it lacks, each once, ordered as
// normalizeElementOrder orders them (setUnion, by first places); for a list merged by one key of maps, each side's
// items holding the key as a string or an integer, none holding "$patch", either naming a key twice (keyedPlain), pv's
// items merged in turn into the first item of their key, lv's or an earlier one of pv's, field by field (mapOnto: nulls
// delete, lists the schema merges merged so in turn, "$patch: delete" maps as del says), the others appended as the
// collation builds them (merged onto nothing, less their nulls; no "$" key at any depth: appendedCleaned), then ordered
// by pv's items, lv's by their places, interleaved (orderedBy). ok is false elsewhere (a merge rule, lv another kind,
// any other shape): the front-end applies the repeat.
func mergedListOnto(t *openapi.Type, meta *openapi.Meta, pv, lv value.Value, held bool, del deletedRule) (value.Value, bool) {
	if meta.Rule != nil || !pv.IsList() || (held && !lv.IsList()) || !mergeableHeld(t, meta, lv) {
		return value.Value{}, false
	}
	if len(meta.MergeKey) == 0 {
		if !setOfKind(lv.Items(), pv.Items()) {
			return value.Value{}, false
		} else if !held {
			return pv, true
		}
		once := firstOnce(lv, scalarKey)
		if pv.Len() == 0 && once.Len() < lv.Len() {
			return value.Value{}, false // (strategicpatch's in-place deduplication orders live's own slice)
		}
		return setUnion(once, pv), true
	}
	key := meta.MergeKey[0]
	if !keyedPlain(key, pv.Items()) {
		return value.Value{}, false
	} else if !held {
		return listOnNothing(t.Item(), pv)
	}
	keyOf := keyOfItems(key)
	data, cleaned := appendedCleaned(t.Item(), lv.Items(), pv.Items(), keyOf)
	if !cleaned {
		return value.Value{}, false
	}
	// (mapOnto fails nothing: it reports only whether it merges, so mergedItemsBy gives no error here)
	items, _, _, decided := mergedItemsBy(lv.Items(), data, keyOf,
		func(into, p value.Value) (value.Value, *elements.Error, bool) {
			m, merged := mapOnto(p, into, t.Item(), true, del)
			return m, nil, merged
		})
	if !decided {
		return value.Value{}, false
	}
	return orderedBy(items, lv.Items(), pv.Items(), keyOf), true
}

// mergeableHeld reports whether lv, the outcome's list (or nothing) at a field of type t (metadata meta) the schema
// merges, is one mergedListOnto reads: a set of scalars of one kind, or, merged by one key, maps each holding the key
// as a string or an integer, none holding "$patch"; a value or key named twice too (strategicpatch merges into the
// first item of a key, and ranks each by its first place).
func mergeableHeld(t *openapi.Type, meta *openapi.Meta, lv value.Value) bool {
	switch {
	case !elements.MergedList(t, meta) || len(meta.MergeKey) > 1:
		return false
	case len(meta.MergeKey) == 0:
		return t.Item().Kind == openapi.KindPrimitive && setOfKind(lv.Items(), nil)
	}
	k := t.Item().Kind
	return (k == openapi.KindStruct || k == openapi.KindMap) && keyedPlain(meta.MergeKey[0], lv.Items())
}

// setOfKind reports whether items a and b are scalars of one kind as the collation reads them: strings, booleans or
// numbers (none: true). strategicpatch's merge of sets holds them to one Go type and dedupes them in place, which moves
// a value named twice within the merged slice, which the merge then orders by a's first places and b's (lv's as given:
// where live's array has room strategicpatch reads it as rewritten, docs/strategicpatch.md's oracle-aliases-live).
// Numbers with a fraction (float64s) beside integers (int64s; an integral decimal among them, decodedKind) are two Go
// types strategicpatch refuses to merge ("list element types are not identical"); the collation merges them as one
// class, by their values, as it merges one kind, and so do the callers here.
func setOfKind(a, b []value.Value) bool {
	all := append(a[:len(a):len(a)], b...)
	first := decodedKind(value.Value{})
	for i, it := range all {
		k := decodedKind(it)
		if k == value.KindFloat {
			k = value.KindInt // (numbers: one class, as the collation merges them)
		}
		if i == 0 {
			first = k
		}
		if k != first || (k != value.KindString && k != value.KindInt && k != value.KindBool && k != value.KindFloat) {
			return false
		}
	}
	return true
}

// decodedKind is the kind strategicpatch decodes scalar x as: a number's by its value (an integral decimal an
// integer, value.Key's kind), another scalar's its own; value.KindNull for anything else.
func decodedKind(x value.Value) value.Kind {
	if k, ok := x.Key(); ok {
		return k.Kind
	}
	return value.KindNull
}

// keyedPlain reports whether items are maps each holding key as a string or an integer, none holding "$patch"
// (strategicpatch moves "$patch: delete" items last). A key may be named twice: a patch's later item of a key merges
// into the first, and an outcome's list ranks each item by its key's first place.
func keyedPlain(key string, items []value.Value) bool {
	for _, it := range items {
		if !it.IsMap() {
			return false
		}
		k, holds := it.Get(key)
		if !holds || (k.Kind() != value.KindString && k.Kind() != value.KindInt) {
			return false
		}
		if _, directed := it.Get(smp.DirectiveKey); directed {
			return false
		}
	}
	return true
}

// mergedOrderOnto returns list field name of apply mode's patch map p (type t), a list the schema merges that p
// orders by "$setElementOrder", merged into lv, the outcome's field there (held: present), as strategicpatch's
// mergePatchIntoOriginal decides it, under kubectl's order: the order non-empty, its entries strings, integers or
// booleans for a set, maps holding the key as a string or an integer for a list merged by one key, p's list, where
// p holds one, naming its items in the order's order (orderData), no "$deleteFromPrimitiveList" beside it. Where p
// leaves the list out: absent where the outcome lacks it, else the outcome's list (mergeableHeld, with items) ordered
// by it; where p holds it: mergedListOnto's list ordered by it (orderedList: the items it names by its order, the
// others by the outcome's places, interleaved; where the outcome lacks the list, p's items less their nulls by the
// order, a key named twice kept twice). p's list and the order may name a key or value twice. ok is false elsewhere:
// the front-end applies the repeat. A "$patch: delete" map in p's items merged into the outcome's is as del says.
func mergedOrderOnto(p value.Value, t *openapi.Type, name string, lv value.Value, held bool, del deletedRule) (list value.Value, present, ok bool) {
	f := orderedFieldOf(p, t, name)
	ft, meta, order, pv, set, deletes := f.t, f.meta, f.order, f.list, f.set, f.deletes
	if order.IsList() && order.Len() == 0 {
		return emptyOrderOnto(p, t, name, lv, held, del)
	}
	if deletes || t.Kind != openapi.KindStruct || !orderData(t, p, value.Field{Key: smp.SetOrderPrefix + name, Value: order}) ||
		!plainEntries(order.Items(), meta.MergeKey) || (held && !lv.IsList()) {
		return value.Value{}, false, false
	}
	keyOf := keyOfItems(soleMergeKey(&meta))
	switch {
	case !set && !held:
		return value.Value{}, false, true
	case !set:
		if lv.Len() == 0 || !mergeableHeld(ft, &meta, lv) {
			return value.Value{}, false, false
		}
		return orderedBy(lv.Items(), lv.Items(), order.Items(), keyOf), true, true
	}
	merged, ok := dedupedOnto(ft, &meta, pv, lv, held) // (orderedList ranks by lv as deduplicated in place too)
	if !ok {
		merged, ok = mergedListOnto(ft, &meta, pv, lv, held, del)
	}
	if !ok {
		return value.Value{}, false, false
	}
	list, ok = orderedList(t, name, lv, held, pv, merged, order)
	return list, ok, ok
}

// plainEntries reports whether entries, a "$setElementOrder"'s, are strings, integers (integral decimals too),
// booleans or numbers with a fraction (mergeKey none: a set's; decodedKind), or maps holding the one merge key as a
// string or an integer.
func plainEntries(entries []value.Value, mergeKey []string) bool {
	for _, e := range entries {
		if len(mergeKey) == 1 {
			e, _ = e.Get(mergeKey[0])
		}
		if k := e.Kind(); len(mergeKey) == 0 {
			k = decodedKind(e)
			if k != value.KindString && k != value.KindInt && k != value.KindBool && k != value.KindFloat {
				return false
			}
		} else if k != value.KindString && k != value.KindInt {
			return false
		}
	}
	return len(mergeKey) < 2
}

// emptyOrderOnto is mergedOrderOnto for an empty "$setElementOrder" of list field name of patch map p (type t), a list
// the schema merges by one key or as a set, no "$deleteFromPrimitiveList" beside it: mergePatchIntoOriginal merges p's
// list into lv (mergedListOnto: where the outcome lacks it, p's list, less its nulls as the collation takes it; where
// p leaves it out, lv), then, the order naming no item, sorts all of it by lv's first places (normalizeSliceOrder, an
// item lv lacks comparing as less than any other both ways: smp.SortByPlace). ok is false where both lists hold no
// items (strategicpatch fails on their element type) or mergedListOnto does not decide the merge.
func emptyOrderOnto(p value.Value, t *openapi.Type, name string, lv value.Value, held bool, del deletedRule) (list value.Value, present, ok bool) {
	f := orderedFieldOf(p, t, name)
	ft, meta, pv, set, deletes := f.t, f.meta, f.list, f.set, f.deletes
	switch {
	case deletes || t.Kind != openapi.KindStruct || t.Field(name) == nil || !elements.MergedList(ft, &meta) ||
		len(meta.MergeKey) > 1 || (held && !lv.IsList()) || (set && !pv.IsList()):
		return value.Value{}, false, false
	case !set && !held:
		return value.Value{}, false, true
	case pv.Len()+lv.Len() == 0:
		return value.Value{}, false, false
	}
	merged := lv
	if set {
		if merged, ok = mergedListOnto(ft, &meta, pv, lv, held, del); !ok {
			return value.Value{}, false, false
		}
	} else if !mergeableHeld(ft, &meta, lv) {
		return value.Value{}, false, false
	}
	keyOf := keyOfItems(soleMergeKey(&meta))
	first := firstPlaces(lv.Items(), keyOf)
	items := slices.Clone(merged.Items())
	smp.SortByPlace(items, func(it value.Value) int {
		if at, in := first[keyOf(it)]; in {
			return at
		}
		return -1
	})
	return value.List(items), true, true
}
