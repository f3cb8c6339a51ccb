package visitors

import (
	"cmp"
	"slices"

	"github.com/plyproject/ply/internal/order"
	"github.com/plyproject/ply/internal/smp"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/value"
)

// composesSet reports whether node c of compose mode's repeat tree (collated without live there: a leaf holding the
// patch's list whole, or a set node it orders) is a merged set of scalars its member's outcome holds, lv there, that a
// collation of the repeat with that outcome as live merges as composeSet does: the schema merges the list by no merge
// key, c has no directive but a "$setElementOrder" of scalars or nulls naming the patch's values in its order
// (setOrdered), and both lists hold scalars of one class (strings, numbers or booleans), the same where both have
// items. A value either list repeats is one member, at its first place there (the collation's set node holds each
// value once, as strategicpatch's merge keeps each once).
func composesSet(c *elements.Node, lv value.Value) bool {
	if (c.Dirs != nil && !setOrdered(c)) || !c.HasLocal || !c.Local.IsList() || !lv.IsList() ||
		!elements.MergedList(c.Type, &c.Meta) || len(c.Meta.MergeKey) > 0 {
		return false
	}
	patch, _, patchOK := scalarsOfClass(c.Local.Items())
	live, _, liveOK := scalarsOfClass(lv.Items())
	if c.Dirs != nil && patch == value.KindNull && live == value.KindNull {
		return false // (ordering a list with no items fails: of what kind they are is unknown)
	}
	return patchOK && liveOK && (patch == value.KindNull || live == value.KindNull || patch == live)
}

// setOrdered reports whether c's directives are a "$setElementOrder" alone, of scalars or nulls (of any classes: an
// entry of another class names no value), naming the patch's values in the patch's order as strategicpatch's check
// walks them (validatePatchWithSetOrderList: each entry equal to the next value passes it, a value the patch repeats
// needing an entry of its own); a value it names twice ranks by its first place there (composeSet), as
// strategicpatch's index finds it and the collation's set node numbers it.
func setOrdered(c *elements.Node) bool {
	if !ordersOnly(c.Dirs) || !c.Dirs.SetOrder.IsList() || !scalarsOrNulls(c.Dirs.SetOrder.Items()) {
		return false
	}
	items, at := c.Local.Items(), 0
	for _, e := range c.Dirs.SetOrder.Items() {
		if at < len(items) && scalarKey(items[at]) == scalarKey(e) {
			at++
		}
	}
	return at == len(items) || c.Dirs.SetOrder.Len() == 0
}

// distinctScalars returns the class of items (numbers one; KindNull for none), ok where they are all strings, all
// numbers or all booleans, each value once.
func distinctScalars(items []value.Value) (class value.Kind, ok bool) {
	class, once, ok := scalarsOfClass(items)
	return class, ok && once
}

// scalarsOfClass returns the class of items (numbers one; KindNull for none), ok where they are all strings, all
// numbers or all booleans, and once where each value is among them once.
func scalarsOfClass(items []value.Value) (class value.Kind, once, ok bool) {
	if len(items) == 0 {
		return value.KindNull, true, true
	}
	class, ok = smp.OneClass(items)
	if !ok || (class != value.KindString && class != value.KindInt && class != value.KindBool) {
		return class, false, false
	}
	seen := make(map[value.ScalarKey]bool, len(items))
	for _, it := range items {
		k := scalarKey(it)
		if seen[k] {
			return class, false, true
		}
		seen[k] = true
	}
	return class, true, true
}

// composeSet merges set c (composesSet) onto lv, its member's outcome there, as the set node a collation with lv as
// live builds is walked: its members are the patch's values, then those lv alone holds, each as it stands and once (at
// its first place), ordered as
// a patch's list merged onto live is, by its "$setElementOrder" too (order.Onto: compose orders a set so as well).
func (o Ordered) composeSet(c *elements.Node, lv value.Value) elements.Outcome {
	patch, live := c.Local.Items(), lv.Items()
	at := firstPlaces(live, scalarKey)  // (each value once)
	var orderAt map[value.ScalarKey]int // (each value's place in the set's order)
	if c.Dirs != nil {
		orderAt = firstPlaces(c.Dirs.SetOrder.Items(), scalarKey)
	}
	place := func(x value.Value) int32 {
		if at, found := orderAt[scalarKey(x)]; found {
			return int32(at)
		}
		return -1
	}
	items := make([]elements.Item, 0, len(patch)+len(live))
	named := make([]bool, len(live))
	own := firstPlaces(patch, scalarKey)
	for i, x := range patch {
		if own[scalarKey(x)] != i {
			continue // (a value the patch repeats: its first's member)
		}
		li, found := at[scalarKey(x)]
		if found {
			named[li] = true
		} else {
			li = -1
		}
		items = append(items, elements.Item{RecordedIndex: -1, LocalIndex: i, LiveIndex: li, Of: -1, OrderIndex: place(x)})
	}
	for j, x := range live {
		if !named[j] && at[scalarKey(x)] == j { // (a value live repeats: its first's member)
			items = append(items, elements.Item{RecordedIndex: -1, LocalIndex: -1, LiveIndex: j, Of: -1, OrderIndex: place(x)})
		}
	}
	set := &elements.SetElement{Node: elements.Node{Type: c.Type, Meta: c.Meta, Dirs: c.Dirs, Values: elements.Values{
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

// orderedSetComposes reports whether set s of compose mode's repeat tree, one it orders by "$setElementOrder" (a set
// node without live: a leaf without one), merges onto lv, its member's outcome's list there, as composeSet merges it.
func orderedSetComposes(s *elements.SetElement, lv value.Value) bool {
	return composedList(s) != nil && composesSet(&s.Node, lv)
}

// composedList returns the node of e, a field of compose mode's repeat tree, where it may be a merged list Phase 2
// merges onto its member's outcome's (composesList): a leaf, or a set or list with items it orders (orderedSetComposes,
// mergesKeyed); nil for another.
func composedList(e elements.Element) *elements.Node {
	switch e := e.(type) {
	case *elements.AtomicElement:
		return &e.Node
	case *elements.SetElement:
		if !e.Ruled && e.Chain == nil && e.Dirs != nil {
			return &e.Node
		}
	case *elements.ListElement:
		if !e.Ruled && !e.Ranked && e.Chain == nil && e.Dirs != nil && e.HasLocal {
			return &e.Node
		}
	}
	return nil
}

// composesList reports whether node c of compose mode's repeat tree is a merged list whose outcome merged onto
// lv, its member's outcome's list there, Phase 2 gives as a collation with that outcome as live does: a set of
// scalars (composesSet), an empty keyed list, one the repeat only orders (reorders), or a keyed list of maps of
// scalars (mergesKeyed).
func composesList(c *elements.Node, lv value.Value) bool {
	return composesSet(c, lv) || reorders(c, lv) || mergesKeyed(c, lv)
}

// composeList is c (composesList) merged onto lv; the error is mergedKeyed's.
func (o Ordered) composeList(c *elements.Node, lv value.Value) (elements.Outcome, error) {
	if composesSet(c, lv) {
		return o.composeSet(c, lv), nil
	}
	if mergesKeyed(c, lv) {
		merged, err := mergedKeyed(c, lv)
		return elements.Keep(merged), err
	}
	var order []value.Value
	if c.Dirs != nil {
		order = c.Dirs.SetOrder.Items()
	}
	return elements.Keep(reordered(lv, order, mergeKeyOf(c))), nil
}

// mergeKeyOf returns the merge key of c's list ("" for a set).
func mergeKeyOf(c *elements.Node) string {
	if len(c.Meta.MergeKey) == 0 {
		return ""
	}
	return c.Meta.MergeKey[0]
}

// reorders reports whether leaf c of compose mode's repeat tree leaves lv's items as they are and only orders
// them, as reordered does: c is an empty list without directives the schema merges by one merge key, or a list the
// repeat leaves out (or, merged, holds empty: strategicpatch's merge of an empty list leaves lv's items in lv's order,
// delete items last) and orders by "$setElementOrder" alone, merged by one merge key or none, or merged by no strategy
// and no key (atomicOrdered); lv holds items (but for an empty list: none, the outcome an empty list), maps each
// holding that key as a scalar with no "$patch" but "delete" (for no key, scalars of one class, each once; merged by
// no strategy, a value may repeat), and the order's entries are such maps (scalars or nulls, which name no item).
func reorders(c *elements.Node, lv value.Value) bool {
	empty := c.Dirs == nil && c.HasLocal && c.Local.IsList() && c.Local.Len() == 0 && len(c.Meta.MergeKey) == 1
	leftOut := !c.HasLocal || (elements.EmptyOrdered(c) && elements.MergedList(c.Type, &c.Meta))
	ordered := c.Dirs != nil && ordersOnly(c.Dirs) && leftOut && c.Dirs.SetOrder.IsList() && len(c.Meta.MergeKey) <= 1
	if !(empty || ordered) || !lv.IsList() || (lv.Len() == 0 && !empty) {
		return false
	}
	if ordered && !c.HasLocal && atomicOrdered(c) {
		_, _, ok := scalarsOfClass(lv.Items())
		return ok && scalarsOrNulls(c.Dirs.SetOrder.Items())
	}
	if !elements.MergedList(c.Type, &c.Meta) {
		return false
	}
	key := mergeKeyOf(c)
	if key == "" {
		_, distinct := distinctScalars(lv.Items())
		return distinct && (!ordered || scalarsOrNulls(c.Dirs.SetOrder.Items()))
	}
	for _, it := range lv.Items() {
		if d, directed := it.Get(smp.DirectiveKey); directed && !isDelete(d) {
			return false
		}
	}
	return keyedScalars(lv.Items(), key) && (!ordered || keyedScalars(c.Dirs.SetOrder.Items(), key))
}

// atomicOrdered reports whether c, a list its repeat leaves out and orders by "$setElementOrder" alone, is one the
// schema merges by no strategy and no merge key: strategicpatch's merge of patches keeps the first patch's list and
// orders it by the directive as it orders a set of scalars (its items the order names by their first place there,
// the others by their first place in that list, interleaved by it), each item kept, a value it repeats too, as
// reordered orders it.
func atomicOrdered(c *elements.Node) bool {
	return c.Type.Kind == openapi.KindList && !elements.MergedList(c.Type, &c.Meta) && len(c.Meta.MergeKey) == 0
}

// ordersHeld reports whether atomic node c of apply mode's repeat tree is a list merged by no strategy and no merge
// key that the repeat leaves out and orders by "$setElementOrder" alone (atomicOrdered), where lv, its member's
// outcome's list, holds scalars of one class, a value repeated or not, the order naming scalars (reorders):
// strategicpatch's apply keeps lv's items and orders them by the directive as its merge of patches does, the
// directive dropped (reordered).
func ordersHeld(c *elements.AtomicElement, lv value.Value) bool {
	return !c.HasLocal && c.Dirs != nil && atomicOrdered(&c.Node) && reorders(&c.Node, lv)
}

// keyedScalars reports whether each of items is a map holding key as a scalar.
func keyedScalars(items []value.Value, key string) bool {
	for _, it := range items {
		if k, _ := it.Get(key); !it.IsMap() || !k.IsScalar() {
			return false
		}
	}
	return true
}

// keyedHeld reports whether each of items is a map holding key as a scalar or null.
func keyedHeld(items []value.Value, key string) bool {
	for _, it := range items {
		if k, held := it.Get(key); !it.IsMap() || !held || !(k.IsScalar() || k.IsNull()) {
			return false
		}
	}
	return true
}

// allScalars reports whether each of items is a string, number or boolean.
func allScalars(items []value.Value) bool {
	for _, it := range items {
		if !it.IsScalar() {
			return false
		}
	}
	return true
}

// scalarsOrNulls reports whether each of items is a scalar or null: an order's entries strategicpatch hashes, a null
// naming no item of a list of scalars.
func scalarsOrNulls(items []value.Value) bool {
	for _, it := range items {
		if !it.IsScalar() && !it.IsNull() {
			return false
		}
	}
	return true
}

// reordered returns list lv (reorders) as compose mode orders it by "$setElementOrder" order (none: an empty list
// merged onto it), key its merge key ("": a set): the items order names, by their key's first place there, and the
// others, by their key's first place in lv (an item of a key named before joins that key's first item's run), each run
// with its "$patch: delete" items last in lv's order, interleaved: the others' head goes first where its key comes
// before the named head's in lv.
func reordered(lv value.Value, order []value.Value, key string) value.Value {
	return orderedBy(lv.Items(), lv.Items(), order, keyOfItems(key))
}

// orderedBy returns items ordered as reordered orders them, the places of their keys (keyOf) taken from placed (an
// item whose key placed lacks, at place 0, goes before the others' head).
func orderedBy(items, placed, order []value.Value, keyOf func(value.Value) value.ScalarKey) value.Value {
	inLive, inOrder := firstPlaces(placed, keyOf), firstPlaces(order, keyOf)
	var named, others, namedDeletes, otherDeletes []value.Value
	for _, it := range items {
		_, isNamed := inOrder[keyOf(it)]
		d, _ := it.Get(smp.DirectiveKey)
		switch {
		case isNamed && isDelete(d):
			namedDeletes = append(namedDeletes, it)
		case isNamed:
			named = append(named, it)
		case isDelete(d):
			otherDeletes = append(otherDeletes, it)
		default:
			others = append(others, it)
		}
	}
	slices.SortStableFunc(named, func(a, b value.Value) int { return cmp.Compare(inOrder[keyOf(a)], inOrder[keyOf(b)]) })
	slices.SortStableFunc(others, func(a, b value.Value) int { return cmp.Compare(inLive[keyOf(a)], inLive[keyOf(b)]) })
	named, others = append(named, namedDeletes...), append(others, otherDeletes...)
	out := make([]value.Value, 0, len(items))
	for len(others) > 0 && len(named) > 0 {
		if inLive[keyOf(others[0])] < inLive[keyOf(named[0])] {
			out, others = append(out, others[0]), others[1:]
		} else {
			out, named = append(out, named[0]), named[1:]
		}
	}
	return value.List(append(append(out, others...), named...))
}

// firstPlaces maps the key of each of items (keyOf) to its first position among them.
func firstPlaces(items []value.Value, keyOf func(value.Value) value.ScalarKey) map[value.ScalarKey]int {
	first := make(map[value.ScalarKey]int, len(items))
	for i, it := range items {
		if _, seen := first[keyOf(it)]; !seen {
			first[keyOf(it)] = i
		}
	}
	return first
}

// scalarKey is x's identity as a set's value.
func scalarKey(x value.Value) value.ScalarKey {
	k, _ := elements.SetKey(x, false)
	return k
}

// isDelete reports whether d is the directive "$patch: delete".
func isDelete(d value.Value) bool {
	s, ok := d.AsString()
	return ok && s == smp.DeleteValue
}

// alone walks compose mode's repeat tree e applied to nothing (its list's repeats apart where the list is taken whole):
// as its tree is walked, but for a list in its maps whose own repeats stay apart and which it orders by
// "$setElementOrder": as without live anywhere, strategicpatch keeping them at their places in the patch, though Phase
// 1 collated the repeat onto a skeleton of its maps, whose live orders each after its key's member (order.ApartIn).
func (o Ordered) alone(e elements.Element) (elements.Outcome, error) {
	m, _ := e.(*elements.MapElement)
	if m == nil || m.Ruled || m.Dirs != nil || !holdsOrderedApart(m) {
		return o.Walker.Walk(e)
	}
	fields := make([]value.Field, 0, len(m.Fields))
	for _, f := range m.Fields {
		var out elements.Outcome
		var err error
		if l, _ := f.Element.(*elements.ListElement); l != nil && orderedApart(l) {
			in := o
			in.unplaced = true
			out, err = in.VisitList(l)
		} else {
			out, err = o.alone(f.Element)
		}
		if err != nil {
			return elements.Absent, err
		}
		if out.Present {
			fields = append(fields, value.Field{Key: f.Name, Value: out.Value})
		}
	}
	return elements.Keep(value.MapFromSorted(fields)), nil
}

// orderedApart reports whether l is a list without live and without rule that names a key twice and is ordered by
// "$setElementOrder".
func orderedApart(l *elements.ListElement) bool {
	return !l.HasLive && !l.Ruled && len(l.Repeats) > 0 && l.Dirs != nil && l.Dirs.HasSetOrder
}

// holdsOrderedApart reports whether map m or a map of its fields, of no rule and no directive, holds an orderedApart
// list.
func holdsOrderedApart(m *elements.MapElement) bool {
	return slices.ContainsFunc(m.Fields, func(f elements.Field) bool {
		switch c := f.Element.(type) {
		case *elements.ListElement:
			return orderedApart(c)
		case *elements.MapElement:
			return !c.Ruled && c.Dirs == nil && holdsOrderedApart(c)
		}
		return false
	})
}
