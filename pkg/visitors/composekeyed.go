package visitors

import (
	"slices"
	"strings"

	"github.com/plyproject/ply/internal/smp"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/value"
)

// mergesKeyed reports whether leaf c of compose mode's repeat tree is a list of maps with items that merges onto lv,
// its member's outcome's list there, as mergedKeyed merges it: c has no directive but a "$setElementOrder" naming its
// items in their order (keyedOrder), the schema merges the list by one merge key, each of c's items is a map holding
// that key as a scalar, its other fields scalars, nulls or plain maps (plainFields); lv's items are maps each holding
// the key as a scalar with no "$patch" but "delete" (an item of c merges into such an item of its key as into another,
// the directive kept), those of a key c names holding no "$" key in their maps (undirectedMaps).
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
		if !plainFields(c.Type.Item(), it) {
			return false
		}
	}
	for _, it := range lv.Items() {
		d, directed := it.Get(smp.DirectiveKey)
		k, _ := it.Get(key)
		if (directed && !isDelete(d)) || (named[scalarKey(k)] && !undirectedMaps(it)) {
			return false
		}
	}
	return true
}

// mergedKeyed is leaf c (mergesKeyed) merged onto lv as strategicpatch merges a patch's list of maps into another's:
// each of c's items in turn merged into the first item of its key (mergedInto: its fields set over that item's, nulls
// kept, maps merged), lv's or, where lv has none, the first of c's items of that key, appended; then ordered as
// reordered orders it by c's items, by the places of lv's items (an appended item after the keys named before it,
// "$patch: delete" items last in each run), and then so by c's "$setElementOrder" where it has one.
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
		items[at] = mergedInto(items[at], p)
	}
	merged := orderedBy(items, lv.Items(), c.Local.Items(), keyOf)
	if c.Dirs == nil {
		return merged
	}
	return orderedBy(merged.Items(), lv.Items(), c.Dirs.SetOrder.Items(), keyOf)
}

// plainFields reports whether map m, of type t, holds no "$" key and no field a merge rule decides, its fields scalars,
// nulls and maps plain in turn where t gives a map (or no schema) of no strategy replace: strategicpatch merges such a
// map into another field by field (mergedInto), as a collation does.
func plainFields(t *openapi.Type, m value.Value) bool {
	for _, f := range m.Fields() {
		ft, meta := t.Child(f.Key)
		if strings.HasPrefix(f.Key, "$") || meta.Rule != nil {
			return false
		}
		if f.Value.IsMap() && (meta.Strategy.Has(openapi.StrategyReplace) || !plainFields(ft, f.Value) ||
			(ft.Kind != openapi.KindUnknown && ft.Kind != openapi.KindStruct && ft.Kind != openapi.KindMap)) {
			return false
		}
		if !f.Value.IsMap() && !f.Value.IsScalar() && !f.Value.IsNull() {
			return false
		}
	}
	return true
}

// mergedInto is map p (plainFields) merged into into as strategicpatch merges a patch's map into another: each of p's
// fields set over into's, nulls kept, a map merged in turn into a map into holds there.
func mergedInto(into, p value.Value) value.Value {
	for _, f := range p.Fields() {
		if held, _ := into.Get(f.Key); held.IsMap() && f.Value.IsMap() {
			into = into.With(f.Key, mergedInto(held, f.Value))
		} else {
			into = into.With(f.Key, f.Value)
		}
	}
	return into
}

// undirectedMaps reports whether the maps item holds, at any depth, hold no "$" key: a map of the patch merges into
// them as into data.
func undirectedMaps(item value.Value) bool {
	for _, f := range item.Fields() {
		if f.Value.IsMap() && (slices.ContainsFunc(f.Value.Fields(), dollarKeyed) || !undirectedMaps(f.Value)) {
			return false
		}
	}
	return true
}

// dollarKeyed reports whether f's key starts with "$".
func dollarKeyed(f value.Field) bool { return strings.HasPrefix(f.Key, "$") }

// holdsMaps reports whether an item of leaf c's list holds a map: merged onto its outcome's list, the fields of that
// outcome's maps below it lie a level deeper than the patch's values.
func holdsMaps(c *elements.Node) bool {
	for _, it := range c.Local.Items() {
		for _, f := range it.Fields() {
			if f.Value.IsMap() {
				return true
			}
		}
	}
	return false
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
