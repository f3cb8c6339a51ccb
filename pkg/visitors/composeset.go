package visitors

import (
	"cmp"
	"slices"

	"github.com/plyproject/ply/internal/order"
	"github.com/plyproject/ply/internal/smp"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/value"
)

// composesSet reports whether atomic node c of compose mode's repeat tree (collated without live there: the patch's
// list whole) is a merged set of scalars its member's outcome holds, lv there, that a collation of the repeat with that
// outcome as live merges as composeSet does: the schema merges the list by no merge key, c has no directive, and both
// lists hold scalars of one class (strings, numbers or booleans), the same where both have items, each value once.
func composesSet(c *elements.AtomicElement, lv value.Value) bool {
	if c.Dirs != nil || !c.HasLocal || !c.Local.IsList() || !lv.IsList() || !elements.MergedList(c.Type, &c.Meta) ||
		len(c.Meta.MergeKey) > 0 {
		return false
	}
	patch, patchOK := distinctScalars(c.Local.Items())
	live, liveOK := distinctScalars(lv.Items())
	return patchOK && liveOK && (patch == value.KindNull || live == value.KindNull || patch == live)
}

// distinctScalars returns the class of items (numbers one; KindNull for none), ok where they are all strings, all
// numbers or all booleans, each value once.
func distinctScalars(items []value.Value) (class value.Kind, ok bool) {
	if len(items) == 0 {
		return value.KindNull, true
	}
	class, ok = itemClass(items)
	if !ok || (class != value.KindString && class != value.KindInt && class != value.KindBool) {
		return class, false
	}
	seen := make(map[value.ScalarKey]bool, len(items))
	for _, it := range items {
		k, _ := elements.SetKey(it, false)
		if seen[k] {
			return class, false
		}
		seen[k] = true
	}
	return class, true
}

// composeSet merges set c (composesSet) onto lv, its member's outcome there, as the set node a collation with lv as
// live builds is walked: its members are the patch's values, then those lv alone holds, each as it stands, ordered as
// a patch's list merged onto live is (order.Onto: compose orders a set so too).
func (o Ordered) composeSet(c *elements.AtomicElement, lv value.Value) elements.Outcome {
	patch, live := c.Local.Items(), lv.Items()
	at := make(map[value.ScalarKey]int, len(live))
	for j, x := range live {
		k, _ := elements.SetKey(x, false)
		at[k] = j
	}
	items := make([]elements.Item, 0, len(patch)+len(live))
	named := make([]bool, len(live))
	for i, x := range patch {
		k, _ := elements.SetKey(x, false)
		li, found := at[k]
		if found {
			named[li] = true
		} else {
			li = -1
		}
		items = append(items, elements.Item{RecordedIndex: -1, LocalIndex: i, LiveIndex: li, Of: -1, OrderIndex: -1})
	}
	for j := range live {
		if !named[j] {
			items = append(items, elements.Item{RecordedIndex: -1, LocalIndex: -1, LiveIndex: j, Of: -1, OrderIndex: -1})
		}
	}
	set := &elements.SetElement{Node: elements.Node{Type: c.Type, Meta: c.Meta, Values: elements.Values{
		Local: c.Local, HasLocal: true, Live: lv, HasLive: true}}, Items: items}
	ord := order.Onto(set, items, nil, live, o.Ordering, o.Memory.intsOf())
	list := make([]value.Value, 0, len(ord))
	for _, id := range ord {
		if it := items[id]; it.LocalIndex >= 0 {
			list = append(list, patch[it.LocalIndex])
		} else {
			list = append(list, live[it.LiveIndex])
		}
	}
	return elements.Keep(value.List(list))
}

// composesList reports whether atomic node c of compose mode's repeat tree is a merged list whose outcome merged onto
// lv, its member's outcome's list there, Phase 2 gives as a collation with that outcome as live does: a set of
// scalars (composesSet), or an empty keyed list (emptyOntoKeyed).
func composesList(c *elements.AtomicElement, lv value.Value) bool {
	return composesSet(c, lv) || emptyOntoKeyed(c, lv)
}

// composeList is c (composesList) merged onto lv.
func (o Ordered) composeList(c *elements.AtomicElement, lv value.Value) elements.Outcome {
	if composesSet(c, lv) {
		return o.composeSet(c, lv)
	}
	return elements.Keep(regrouped(lv, c.Meta.MergeKey[0]))
}

// emptyOntoKeyed reports whether atomic node c of compose mode's repeat tree is an empty list, without directives, the
// schema merges by one merge key, and lv a list of maps each holding that key as a scalar (a string, number or boolean),
// with no "$patch" but "delete": merged onto lv, it orders lv's items as regrouped does.
func emptyOntoKeyed(c *elements.AtomicElement, lv value.Value) bool {
	if c.Dirs != nil || !c.HasLocal || !c.Local.IsList() || c.Local.Len() > 0 || !lv.IsList() ||
		!elements.MergedList(c.Type, &c.Meta) || len(c.Meta.MergeKey) != 1 {
		return false
	}
	for _, it := range lv.Items() {
		k, _ := it.Get(c.Meta.MergeKey[0])
		if !it.IsMap() || !k.IsScalar() {
			return false
		}
		if d, directed := it.Get(smp.DirectiveKey); directed && !isDelete(d) {
			return false
		}
	}
	return true
}

// regrouped returns keyed list lv as merging an empty list onto it in compose mode orders it: its items but the
// "$patch: delete" ones, each after those before it of keys first named earlier (an item of a key named before joins
// that key's first item's run), then its delete items, each in lv's order.
func regrouped(lv value.Value, mergeKey string) value.Value {
	items := lv.Items()
	first := make(map[value.ScalarKey]int, len(items)) // each key's first position in lv
	kept := make([]value.Value, 0, len(items))
	var deletes []value.Value
	for i, it := range items {
		k, _ := it.Get(mergeKey)
		key, _ := elements.SetKey(k, false)
		if _, seen := first[key]; !seen {
			first[key] = i
		}
		if d, _ := it.Get(smp.DirectiveKey); isDelete(d) {
			deletes = append(deletes, it)
		} else {
			kept = append(kept, it)
		}
	}
	rank := func(it value.Value) int {
		k, _ := it.Get(mergeKey)
		key, _ := elements.SetKey(k, false)
		return first[key]
	}
	slices.SortStableFunc(kept, func(a, b value.Value) int { return cmp.Compare(rank(a), rank(b)) })
	return value.List(append(kept, deletes...))
}

// isDelete reports whether d is the directive "$patch: delete".
func isDelete(d value.Value) bool {
	s, ok := d.AsString()
	return ok && s == smp.DeleteValue
}
