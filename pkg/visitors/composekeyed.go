package visitors

import (
	"strings"

	"github.com/plyproject/ply/internal/smp"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/value"
)

// mergesKeyed reports whether leaf c of compose mode's repeat tree is a list of maps with items that merges onto lv,
// its member's outcome's list there, as mergedKeyed merges it: c has no directive but a "$setElementOrder" naming its
// items in their order (keyedOrder), the schema merges the list by one merge key, each of c's items is a map holding
// that key as a scalar, its other fields scalars or nulls (no "$" field, none a merge rule names); lv's items are
// maps each holding the key as a scalar with no "$patch" but "delete", and no "$patch: delete" item of lv has a key c
// names.
func mergesKeyed(c *elements.Node, lv value.Value) bool {
	if !c.HasLocal || !c.Local.IsList() || c.Local.Len() == 0 || len(c.Meta.MergeKey) != 1 || !lv.IsList() ||
		!elements.MergedList(c.Type, &c.Meta) {
		return false
	}
	key := c.Meta.MergeKey[0]
	if !keyedScalars(c.Local.Items(), key) || !keyedScalars(lv.Items(), key) || (c.Dirs != nil && !keyedOrder(c, key)) {
		return false
	}
	named := make(map[value.ScalarKey]bool, c.Local.Len())
	for _, it := range c.Local.Items() {
		k, _ := it.Get(key)
		named[scalarKey(k)] = true
		for _, f := range it.Fields() {
			_, meta := c.Type.Item().Child(f.Key)
			if strings.HasPrefix(f.Key, "$") || !(f.Value.IsScalar() || f.Value.IsNull()) || meta.Rule != nil {
				return false
			}
		}
	}
	for _, it := range lv.Items() {
		d, directed := it.Get(smp.DirectiveKey)
		k, _ := it.Get(key)
		if directed && (!isDelete(d) || named[scalarKey(k)]) {
			return false
		}
	}
	return true
}

// mergedKeyed is leaf c (mergesKeyed) merged onto lv as strategicpatch merges a patch's list of maps into another's:
// each of c's items in turn merged into the first item of its key (its fields set over that item's, nulls kept), lv's
// or, where lv has none, the first of c's items of that key, appended; then ordered as reordered orders it by c's
// items, by the places of lv's items (an appended item after the keys named before it), and then so by c's
// "$setElementOrder" where it has one.
func mergedKeyed(c *elements.Node, lv value.Value) value.Value {
	key := c.Meta.MergeKey[0]
	keyOf := func(it value.Value) value.ScalarKey {
		k, _ := it.Get(key)
		return scalarKey(k)
	}
	items := append([]value.Value(nil), lv.Items()...)
	first := firstPlaces(items, keyOf)
	for _, p := range c.Local.Items() {
		at, held := first[keyOf(p)]
		if !held {
			first[keyOf(p)] = len(items)
			items = append(items, p)
			continue
		}
		for _, f := range p.Fields() {
			items[at] = items[at].With(f.Key, f.Value)
		}
	}
	merged := orderedBy(items, lv.Items(), c.Local.Items(), keyOf)
	if c.Dirs == nil {
		return merged
	}
	return orderedBy(merged.Items(), lv.Items(), c.Dirs.SetOrder.Items(), keyOf)
}

// keyedOrder reports whether c's directives are a "$setElementOrder" alone whose entries are maps each holding merge
// key key as a scalar, naming the keys of c's items in their order (an item of a key named twice by an entry of it
// each), as strategicpatch requires of an order before ordering the merged list by it.
func keyedOrder(c *elements.Node, key string) bool {
	if !ordersOnly(c.Dirs) || !c.Dirs.SetOrder.IsList() || !keyedScalars(c.Dirs.SetOrder.Items(), key) {
		return false
	}
	order, at := c.Dirs.SetOrder.Items(), 0
	for _, it := range c.Local.Items() {
		k, _ := it.Get(key)
		for at < len(order) && !keyEquals(order[at], key, k) {
			at++
		}
		if at == len(order) {
			return false
		}
		at++
	}
	return true
}

// keyEquals reports whether map entry holds key k as its merge key key.
func keyEquals(entry value.Value, key string, k value.Value) bool {
	ek, _ := entry.Get(key)
	return scalarKey(ek) == scalarKey(k)
}
