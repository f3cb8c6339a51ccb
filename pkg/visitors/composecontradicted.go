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

// contradictedOrder reports whether "$setElementOrder/<f>" field f of map m, of type t, is one orderData refuses only
// because m's list there does not follow it: its entries are of the list's shape (orderEntries), and the list holds
// data items, a key or value named twice among them or not, and no "$patch" item but "delete" ones holding the key as
// a scalar, of keys no data item holds (orderedData), that the order names in another order or leaves out
// (orderContradicted). A collation merging m into a map that holds its outcome fails at that list with the order
// check's error.
func contradictedOrder(t *openapi.Type, m value.Value, f value.Field) bool {
	name, orders := strings.CutPrefix(f.Key, smp.SetOrderPrefix)
	l, holds := m.Get(name)
	if !orders || !orderEntries(t, name, f.Value) || !holds || !l.IsList() || l.Len() == 0 {
		return false
	}
	_, meta := t.Child(name)
	data, ok := orderedData(l, soleMergeKey(&meta))
	return ok && data.Len() > 0 && orderContradicted(t, name, l, f.Value) != nil
}

// orderedData is l, a patch's list merged by merge key key ("": a set), less its "$patch: delete" items, as the
// collation's order check reads it (format.CheckOrder: deletions aside), its "$patch: replace" items kept. ok is false
// where l holds another "$patch" item, a delete item without the key as a scalar (keyedDirected), or one of a key a
// data item holds.
func orderedData(l value.Value, key string) (data value.Value, ok bool) {
	if !slices.ContainsFunc(l.Items(), directedItem) {
		return l, true
	}
	items, deleted, _, read := keyedDirected(l.Items(), key)
	if key == "" || !read || slices.ContainsFunc(items, func(it value.Value) bool { return deleted[keyOfField(key)(it)] }) {
		return value.Value{}, false
	}
	return value.List(slices.DeleteFunc(slices.Clone(l.Items()), isDeleteItem)), true
}

// orderContradicted returns the error a collation gives at list pv, field name of a patch's map of type t, whose items
// its "$setElementOrder" order does not name in their order: format.CheckOrder's, its message smp.OrderMismatch's for
// the items' identities (each item's key's or value's first place, its "$patch: delete" items aside) and the
// entries' (the first place of the key an entry names; an identity no item has for an entry naming none). Nil where pv follows the order.
func orderContradicted(t *openapi.Type, name string, pv, order value.Value) *elements.Error {
	_, meta := t.Child(name)
	keyOf := keyOfItems(soleMergeKey(&meta))
	pv, _ = orderedData(pv, soleMergeKey(&meta)) // (deletions aside)
	at := firstPlaces(pv.Items(), keyOf)
	seq, ids := make([]int, pv.Len()), make([]int, order.Len())
	for i, it := range pv.Items() {
		if seq[i] = at[keyOf(it)]; isReplaceItem(it) {
			seq[i] = -1 // (skipped while entries remain: smp.OrderMismatch)
		}
	}
	for i, e := range order.Items() {
		id, names := at[keyOf(e)]
		if !names {
			id = pv.Len()
		}
		ids[i] = id
	}
	if msg := smp.OrderMismatch(name, seq, ids); msg != "" {
		return &elements.Error{Source: elements.Patch, Path: fieldpath.Path{fieldpath.Field(name)}, Msg: msg}
	}
	return nil
}

// fieldsContradicted reports whether map m, of type t, is one directedFields refuses only for "$setElementOrder"
// fields whose lists contradict them (contradictedOrder): m without those fields is directedFields'. Merged into a
// map of its outcome (mergedInto), m fails at the first such list, as the collation's order check fails there.
func fieldsContradicted(t *openapi.Type, m value.Value) bool {
	rest, contradicted := m, false
	for _, f := range m.Fields() {
		if contradictedOrder(t, m, f) {
			rest, contradicted = rest.Without(f.Key), true
		}
	}
	return contradicted && directedFields(t, rest)
}

// itemsDirected reports whether data, a keyed list's data items of type t merged onto a list (keyOf their key; deleted
// the keys its "$patch: delete" items name), are each directedFields', or fieldsContradicted's where the item is the
// only one of its key: merged into the list's item of that key, mergedInto meets the order's error there; appended,
// the list holding none, it is taken as it stands, as the collation takes an item live lacks and strategicpatch
// appends it (one merged after an earlier item of its key the collation reads otherwise).
func itemsDirected(t *openapi.Type, data []value.Value, deleted map[value.ScalarKey]bool,
	keyOf func(value.Value) value.ScalarKey) bool {
	named := make(map[value.ScalarKey]int, len(data))
	for _, it := range data {
		named[keyOf(it)]++
	}
	for _, it := range data {
		if directedFields(t, it) {
			continue
		}
		if named[keyOf(it)] > 1 || deleted[keyOf(it)] || !fieldsContradicted(t, it) {
			return false
		}
	}
	return true
}
