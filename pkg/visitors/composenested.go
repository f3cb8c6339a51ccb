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

// listOrOrder reports whether field f of a patch's map is a list at a field of its own (not a "$" one) or a
// "$setElementOrder" list.
func listOrOrder(f value.Field) bool {
	return f.Value.IsList() && (!strings.HasPrefix(f.Key, "$") || strings.HasPrefix(f.Key, smp.SetOrderPrefix))
}

// listData reports whether list l, at a field of type t (meta its metadata) of a patch's item of a keyed list, is one
// mergedInto may merge (listMergedInto tells it once the map it merges into is known): a list merged by no strategy
// at a field the schema does not declare (or of no schema), or where the schema has a list of scalars, whatever its
// items (the collation takes it whole, as strategicpatch does), or where the schema has a scalar or a map (which the
// collation refuses merged into a map, whatever that map holds there: listInto), a merged
// set whatever it holds (taken, merged or refused by listMergedInto), or a list merged by one merge key of maps
// (keyedDirected), with a
// "$patch: replace" item or data items each holding the key as a scalar or null, directedFields in turn.
func listData(t *openapi.Type, meta *openapi.Meta, l value.Value) bool {
	switch {
	case !elements.MergedList(t, meta): // (a list where the schema has another kind: refused, listInto)
		return t.Kind == openapi.KindUnknown || (t.Kind == openapi.KindList && t.Item().Kind == openapi.KindPrimitive) ||
			elements.KindMismatch(t, l) != ""
	case len(meta.MergeKey) == 0:
		return true // (a set of any items: taken where the map merged into lacks a list there, else setMergedInto)
	case len(meta.MergeKey) > 1:
		return false
	}
	key := meta.MergeKey[0]
	if keysUnread(t.Item(), l.Items(), key) {
		return mapsDirected(l.Items()) // (refused onto a list, taken less its "$patch" items elsewhere: listInto, listMergedInto)
	}
	data, _, replace, ok := keyedDirected(l.Items(), key)
	if !ok || replace {
		return ok
	}
	return keyedHeld(data, key) && !slices.ContainsFunc(data, func(it value.Value) bool {
		return !directedFields(t.Item(), it) && !fieldsContradicted(t.Item(), it) // (those: itemsDirected, keyedMergedInto)
	})
}

// listMergedInto is list pv, field name of a patch's map of type t (listData), merged as strategicpatch's merge of
// patches merges it into held, that field of the map it merges into: where held is no list (or absent), pv less its
// maps holding "$patch" (removeDirectives: a set naming a value twice keeps its items, as the collation does where
// live lacks a list); where it is one, pv as it stands at a field the schema does not declare (undeclared: the
// collation merges it by the no-schema rules, where strategicpatch's look-up fails); elsewhere strategicpatch looks
// the field up in t and takes pv as it stands for a list merged by no strategy ("$patch" maps and all, as the
// collation takes it whole), held for two empty lists, and merges a set (setMergedInto; one whose items and held's
// cannot merge fails before, in listInto: readFailure) or a list merged by one key (keyedMergedInto). err, its path
// below the field, is the error that merge meets as a collation meets it first; decided is false elsewhere: the
// front-end applies the repeat.
func listMergedInto(t *openapi.Type, name string, held, pv value.Value, ordered bool) (v value.Value, err *elements.Error,
	decided bool) {
	ft, meta := t.Child(name)
	if ordered && !held.IsList() && keysUnread(ft.Item(), pv.Items(), soleMergeKey(&meta)) {
		return value.Value{}, nil, false // (beside an order, the collation reads its keys)
	}
	if !held.IsList() {
		v, _ := smp.WithoutDirectives(pv)
		return v, nil, true
	}
	if undeclared(t, name) {
		return pv, nil, true // (a list of no schema: the patch's as it stands, as the collation takes it)
	}
	if t.Kind != openapi.KindStruct {
		return value.Value{}, nil, false
	}
	switch {
	case meta.Rule != nil:
		return value.Value{}, nil, false
	case !elements.MergedList(ft, &meta):
		return pv, nil, true
	case held.Len() == 0 && pv.Len() == 0:
		return held, nil, true
	case len(meta.MergeKey) == 0:
		v, decided := setMergedInto(held, pv)
		return v, nil, decided
	case len(meta.MergeKey) == 1:
		return keyedMergedInto(ft.Item(), meta.MergeKey[0], held, pv, ordered)
	}
	return value.Value{}, nil, false
}

// setMergedInto is set pv merged into held as strategicpatch merges lists of scalars (mergeSlice): setUnion. decided
// where both hold scalars of one class (strings, numbers or booleans; either may be empty), pv holding items where
// held repeats a value: appending an empty list leaves held's own slice, which strategicpatch's deduplication in place
// rewrites (the others are merged in a new array where held's has no room, as a patch's decoded list has none: class
// oracle-aliases-first).
func setMergedInto(held, pv value.Value) (value.Value, bool) {
	hc, heldOnce, heldOK := scalarsOfClass(held.Items())
	pc, _, patchOK := scalarsOfClass(pv.Items())
	if !heldOK || !patchOK || (hc != value.KindNull && pc != value.KindNull && hc != pc) {
		return value.Value{}, false
	}
	if !heldOnce && pv.Len() == 0 {
		return value.List(smp.DedupScalars(slices.Clone(held.Items()))), true
	}
	return setUnion(held, pv), true
}

// setUnion is set pv merged into held, sets of scalars of one class, as strategicpatch's mergeSlice merges them:
// held's values, then pv's that held lacks, each once at its first place there, ordered by pv's order, held's own
// values by held's places (orderedBy: a value a list repeats ranks by its first place there, as strategicpatch's index
// finds it), interleaved.
func setUnion(held, pv value.Value) value.Value {
	at := firstPlaces(held.Items(), scalarKey)
	items := make([]value.Value, 0, len(at)+pv.Len())
	for i, x := range held.Items() {
		if at[scalarKey(x)] == i {
			items = append(items, x)
		}
	}
	for i, x := range pv.Items() {
		if _, in := at[scalarKey(x)]; !in {
			at[scalarKey(x)] = len(held.Items()) + i
			items = append(items, x)
		}
	}
	return orderedBy(items, held.Items(), pv.Items(), scalarKey)
}

// setClassFailure returns the error a collation gives merging set pv, a patch's list at a field of type t (meta its
// metadata) the schema merges by no merge key (not a set of maps), into held, the list there of the map it merges
// into, where their items cannot merge (smp.ListClass, as collate's patchList reads them: items of mixed classes, the
// lists' classes differing, nulls, lists; at live's list where its items tell it) or both hold objects
// (smp.NoMergeKey): strategicpatch fails there too. Nil elsewhere.
func setClassFailure(t *openapi.Type, meta *openapi.Meta, held, pv value.Value) *elements.Error {
	if elements.SetOfMaps(t, meta) {
		return nil
	}
	class, msg, fromLive := smp.ListClass(held.Items(), pv.Items())
	source := elements.Patch
	switch {
	case msg != "" && fromLive:
		source = elements.Live
	case msg != "":
	case class == value.KindMap:
		msg = smp.NoMergeKey
	default:
		return nil
	}
	return &elements.Error{Source: source, Msg: msg}
}

// keyedMergedInto is list pv, merged by merge key key, its items of type t, merged into held as strategicpatch merges a
// patch's list of maps into another (mergeSlice): with a "$patch: replace" item, pv's data items (replacesKeyed), those
// of a key together at its first's place; else held less the items of the keys pv's "$patch: delete" items name, each
// of pv's data items merged in turn (mergedItems), ordered by pv's data items, held's kept items by their places
// (orderedBy), as mergedKeyed merges a repeat's list. decided where held's items are maps each holding the key as a
// scalar or null with no "$patch" but "delete", pv's data items too (listData), and every merge of an item is decided.
// err is the error of the first of pv's items of each key held holds merged into held's, at its key's path (a
// collation builds those with the map's fields; a later item of a key it merges after them, as its own repeat: a merge
// of one that fails is left to it); with a "$patch: replace" item and ordered (a "$setElementOrder" beside pv), the
// error at the list of held's first item lacking the key (unkeyedHeld).
func keyedMergedInto(t *openapi.Type, key string, held, pv value.Value, ordered bool) (value.Value, *elements.Error, bool) {
	keyOf := keyOfField(key)
	data, deleted, replace, ok := keyedDirected(pv.Items(), key)
	switch {
	case !ok:
		return value.Value{}, nil, false
	case replace && ordered && replacesKeyed(data, held, key) && unkeyedHeld(t, key, held) != "":
		return value.Value{}, &elements.Error{Source: elements.Live, Msg: unkeyedHeld(t, key, held)}, true
	case replace:
		return orderedBy(data, data, nil, keyOf), nil, replacesKeyed(data, held, key)
	case !keyedHeld(data, key) || !keyedHeld(held.Items(), key) || !heldUndirected(held.Items(), deleted, keyOf) ||
		!itemsDirected(t, data, deleted, keyOf):
		return value.Value{}, nil, false
	}
	kept := keptItems(held.Items(), deleted, keyOf)
	at, first := firstPlaces(kept, keyOf), firstPlaces(data, keyOf)
	for i, p := range data {
		if h, inHeld := at[keyOf(p)]; inHeld && first[keyOf(p)] == i {
			if _, err, decided := mergedInto(t, kept[h], p); !decided || err != nil {
				return value.Value{}, keyedErr(t, key, p, err), decided
			}
		}
	}
	items, _, err, decided := mergedItems(t, kept, data, keyOf)
	if err != nil || !decided {
		return value.Value{}, nil, false // (a later item of a key: the collation merges it after the fields it builds)
	}
	return orderedBy(items, kept, data, keyOf), nil, true
}

// keyedErr is err, of mergedInto merging item p of a list merged by key key, its items of type t, at p's path below
// the list; nil for nil.
func keyedErr(t *openapi.Type, key string, p value.Value, err *elements.Error) *elements.Error {
	if err == nil {
		return nil
	}
	at := *err
	at.Path = append(fieldpath.Path{fieldpath.Key(elements.KeyFields(p, []string{key}, t))}, err.Path...)
	return &at
}

// orderEntries reports whether order, the "$setElementOrder" of field name of a map of type t, is of a shape orderData
// takes: t declares name a list merged by no merge key or one, and order is a list of entries, scalars for a set, maps
// each holding the key as a scalar for a keyed list.
func orderEntries(t *openapi.Type, name string, order value.Value) bool {
	ft, meta := t.Child(name)
	if t.Field(name) == nil || !elements.MergedList(ft, &meta) || len(meta.MergeKey) > 1 || !order.IsList() ||
		order.Len() == 0 {
		return false
	}
	key := soleMergeKey(&meta)
	return (key == "" && allScalars(order.Items())) || (key != "" && keyedScalars(order.Items(), key))
}

// orderData reports whether "$setElementOrder/<f>" field f of map m, of type t, orders a list mergedInto may order
// (orderedInto, orderedList): t declares <f> a list merged by no merge key or one, the order is a list of items with
// entries, scalars for a set, maps each holding the key as a scalar for a keyed list, and m's list there, where m holds
// one, holds no "$patch" item but "delete" and names its data items in the order's order as strategicpatch checks it
// (validatePatchWithSetOrderList: each entry naming the next item passes it).
func orderData(t *openapi.Type, m value.Value, f value.Field) bool {
	name := strings.TrimPrefix(f.Key, smp.SetOrderPrefix)
	if undeclared(t, name) {
		return unmergedOrder(m, name)
	}
	if !orderEntries(t, name, f.Value) {
		return false
	}
	ft, meta := t.Child(name)
	key := soleMergeKey(&meta)
	l, holds := m.Get(name)
	if !holds {
		return true
	}
	if !l.IsList() {
		return false
	}
	if _, unkeyed := unkeyedItem(ft.Item(), l.Items(), key); unkeyed {
		return true // (the collation reads the list's items before it checks the order: listInto)
	}
	if key != "" && slices.ContainsFunc(l.Items(), isReplaceItem) {
		// (its data items replace the other list's, "$patch: delete" items and keys named twice among them or not:
		// named in the order's order as strategicpatch checks it, every item of the merged list is one the order
		// names, so that the other list's places, which deletions in place would move, rank none)
		return replaceOrder(&elements.Directives{HasSetOrder: true, SetOrder: f.Value}, l.Items(), key)
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
	case key == "" && pv.Len() == 0:
		// (appending an empty list leaves held's own slice, which strategicpatch deduplicates in place: it ranks by
		// that slice so rewritten, as setMergedInto merged it)
		rewritten := slices.Clone(held.Items())
		smp.DedupScalars(rewritten)
		return orderedBy(merged.Items(), rewritten, order.Items(), keyOf), true
	case key == "":
		return orderedBy(merged.Items(), held.Items(), order.Items(), keyOf), true
	}
	return orderedBy(merged.Items(), orderView(pv.Items(), held, keyOf), order.Items(), keyOf), true
}

// ordersBelow reports whether map m holds a "$setElementOrder" or another "$" field holding a map or a list
// (dollarData), or a map or a list's map item of it at any depth does: a collation checks such an order against its
// list, and reads such a field, before it merges the lists of the maps m merges into (keyedFits leaves a merge that
// fails beside one to it).
func ordersBelow(m value.Value) bool {
	for _, f := range m.Fields() {
		if strings.HasPrefix(f.Key, smp.SetOrderPrefix) || dollarData(f) || (f.Value.IsMap() && ordersBelow(f.Value)) ||
			(f.Value.IsList() && slices.ContainsFunc(f.Value.Items(), ordersBelow)) {
			return true
		}
	}
	return false
}

// isReplaceItem reports whether list item it is a map holding "$patch: replace".
func isReplaceItem(it value.Value) bool {
	d, _ := it.Get(smp.DirectiveKey)
	s, ok := d.AsString()
	return ok && s == smp.ReplaceValue
}

// isDeleteItem reports whether list item it is a map holding "$patch: delete".
func isDeleteItem(it value.Value) bool {
	d, _ := it.Get(smp.DirectiveKey)
	return isDelete(d)
}

// orderFailed is the error a collation gives at the list a "$setElementOrder/<name>" orders.
type orderFailed struct {
	name string
	err  *elements.Error
}

// failedOrders are a map's orderFailed, by name.
type failedOrders []orderFailed

// unmergedOrder reports whether map m's "$setElementOrder/<name>", at a field name the schema does not declare
// (undeclared), fails where mergedInto tells it (orderFailures): m holds no "$deleteFromPrimitiveList/<name>", which
// the collation checks first, and holds no value at name but a list. Merged into a map holding a list there, or with
// m holding one, the collation refuses it as an order of a list the schema does not merge (smp.OrderOfUnmerged).
func unmergedOrder(m value.Value, name string) bool {
	if _, deletes := m.Get(smp.DeletePrefix + name); deletes {
		return false
	}
	l, holds := m.Get(name)
	return !holds || l.IsList()
}

// orderFailures returns, by name, the errors a collation gives at the lists p's "$setElementOrder/<f>" directives
// order, merging p, a patch's map of type t, into into (orderData: each a non-empty order its list follows): where into
// holds the field as other than a list (collate's patchNode: live's value is not a list), or the schema merges the list
// and neither p nor into holds an item there, one of them holding the field, or the schema does not declare it
// (undeclared: unmergedOrder, undeclaredOrdered) and p holds it (as other than a list: smp.OrderOfPatch) or into holds
// it as other than null (format.CheckDirs), or the schema types it as a scalar or an object and p or into holds it
// (otherKindOrderFailure: p's value no list, smp.OrderOfPatch, else the schema's kind, smp.OrderOfOtherKind;
// format.CheckDirs). The collation builds the field's node, and meets that error, in its place among p's fields.
func orderFailures(t *openapi.Type, into, p value.Value) failedOrders {
	var failed failedOrders
	for _, f := range p.Fields() {
		name, orders := strings.CutPrefix(f.Key, smp.SetOrderPrefix)
		if held, holds := into.Get(f.Key); !orders || (holds && !value.Equal(held, f.Value)) {
			continue // (into's other order: the collation fails at the map first, orderedInto leaves it to it)
		}
		ft, meta := t.Child(name)
		held, inInto := into.Get(name)
		pv, inPatch := p.Get(name)
		at := fieldpath.Path{fieldpath.Field(name)}
		if err := otherKindOrderFailure(t, p, name, held, inInto); err != nil {
			failed = append(failed, orderFailed{name, err})
			continue
		}
		switch {
		case inInto && !held.IsList():
			failed = append(failed, orderFailed{name, &elements.Error{Source: elements.Live, Path: at,
				Msg: smp.SetOrderPrefix + name + " orders a list, but the first patch's value is " + held.Kind().String()}})
		case (inInto || inPatch) && elements.MergedList(ft, &meta) && held.Len() == 0 && pv.Len() == 0:
			failed = append(failed, orderFailed{name, &elements.Error{Source: elements.Patch, Path: at,
				Msg: smp.OrderWithoutItems(name)}})
		case undeclared(t, name) && inPatch && !pv.IsList():
			failed = append(failed, orderFailed{name, &elements.Error{Source: elements.Patch, Path: at,
				Msg: smp.OrderOfPatch(name, pv.Kind())}})
		case undeclared(t, name) && (inPatch || (inInto && !held.IsNull())):
			failed = append(failed, orderFailed{name, &elements.Error{Source: elements.Patch, Path: at,
				Msg: smp.OrderOfUnmerged(name)}})
		}
	}
	slices.SortFunc(failed, func(a, b orderFailed) int { return strings.Compare(a.name, b.name) })
	return failed
}

// before returns the first of o's errors at a name before or at name, a field of the map its directives are in (nil
// for none, and for a "$" field, which the collation builds with the field it directs).
func (o failedOrders) before(name string) *elements.Error {
	if len(o) > 0 && !strings.HasPrefix(name, "$") && o[0].name <= name {
		return o[0].err
	}
	return nil
}

// first returns o's first error, nil for none.
func (o failedOrders) first() *elements.Error {
	if len(o) == 0 {
		return nil
	}
	return o[0].err
}

// has reports whether o holds an error at name.
func (o failedOrders) has(name string) bool {
	return slices.ContainsFunc(o, func(f orderFailed) bool { return f.name == name })
}
