package visitors

import (
	"github.com/plyproject/ply/internal/order"
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
