package visitors

import (
	"slices"

	"github.com/plyproject/ply/internal/order"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/value"
)

// A merged list of a repeat's tree that Phase 1 paired with its base (elements.Chain: the list at its place in the tree
// of the member the repeat is applied to) is merged onto lv, the base's outcome, as collating the repeat's list with
// lv as live and walking it would: Phase 2 finds where each of the base's items is in lv from the base's own order
// (order.List, order.Apart: the order Ordered gave it), or, for a base that is an earlier repeat's chained list, from
// the layout Phase 2 recorded merging it (Ordered.laid), and nothing is collated again.

// A layout is where the items of the outcome of a list of a repeat's tree are from: list, the outcome, and owner, for
// each of its items, the member of the list it is, in elements.Chain's Of numbering of a list chained to it (the list's
// Items, then, for a list chained in turn, its base's members: members).
type layout struct {
	list  value.Value
	owner []int
}

// laying makes o record the layouts of the chained lists it merges (laid), unless it does already.
func (o *Ordered) laying() {
	if o.laid == nil {
		o.laid = map[int32]layout{}
	}
}

// chainOf returns the elements.Chain of a repeat tree's merged list e, and e's Items; nil for another kind or an
// unpaired list.
func chainOf(e elements.Element) (*elements.Chain, []elements.Item) {
	switch e := e.(type) {
	case *elements.ListElement:
		return e.Chain, e.Items
	case *elements.SetElement:
		return e.Chain, e.Items
	}
	return nil, nil
}

// chainFits reports whether merged list e of a repeat's tree, merged onto lv (ontoList), gives what e collated with lv
// as live gives: e is paired with its base (elements.Chain), lv is its base's outcome, and each item paired with a
// base's item of lv fits onto it (ontoFits); a list the patch only orders (no value) orders items of lv
// (without any, the collation fails: which items the list holds is unknown), one it only deletes from may be empty.
func (o Ordered) chainFits(e elements.Element, lv value.Value) bool {
	chain, items := chainOf(e)
	if chain == nil || (!e.Base().HasLocal && lv.Len() == 0 && !deletesOnly(e.Base().Dirs)) {
		return false
	}
	all, _, _, ok := o.chained(e, lv)
	if !ok {
		return false
	}
	for i := range items {
		if m, keyed := items[i].Element.(*elements.MapElement); keyed && all[i].LiveIndex >= 0 && !o.ontoFits(m, lv.Items()[all[i].LiveIndex]) {
			return false
		}
	}
	return true
}

// deletesOnly reports whether d is a list's "$deleteFromPrimitiveList" and nothing more: a list the patch leaves out
// and only deletes from may be empty in the outcome it merges onto.
func deletesOnly(d *elements.Directives) bool {
	return d != nil && d.HasDeleteFromList && !d.HasSetOrder && !d.HasRetainKeys && !d.ReplaceList
}

// ontoList merges the Items of patch list e of a repeat's tree (chainFits) onto lv, the outcome of its base: an item
// the base's outcome holds merges onto that outcome's item (onto); a set's value, or an item taken whole, is its own;
// the others are walked, as new items; lv's items e lacks stay as lv holds them, those it deletes are dropped. The
// list's own repeats then merge in turn, and order.Onto orders it.
func (o Ordered) ontoList(e elements.Element, lv value.Value) (elements.Outcome, error) {
	_, items := chainOf(e)
	all, extra, under, _ := o.chained(e, lv)
	outs := o.Memory.outcomesOf(len(all) + len(extra))
	for id := range outs {
		it := itemAt(all, extra, id)
		var err error
		m, keyed := it.Element.(*elements.MapElement)
		switch {
		case it.Deleted:
		case id >= len(items):
			outs[id] = elements.Keep(lv.Items()[it.LiveIndex])
		case keyed && it.LiveIndex >= 0:
			outs[id], err = o.onto(m, lv.Items()[it.LiveIndex])
		default:
			outs[id], err = o.Walker.Walk(it.Element)
		}
		if err != nil {
			return elements.Absent, err
		}
	}
	l, _ := e.(*elements.ListElement)
	if l != nil && len(l.Repeats) > 0 { // its repeats, in patch order, each onto its member's outcome
		o.laying()
		for _, r := range l.Repeats {
			var err error
			if outs[r.ID], err = o.repeat(l, r, outs[r.ID].Value); err != nil {
				return elements.Absent, err
			}
		}
	}
	ord := order.Onto(e, all, extra, lv.Items(), o.Ordering, o.Memory.intsOf())
	list := o.Memory.itemsOf(len(ord))[:0]
	for _, id := range ord {
		if outs[id].Present {
			list = append(list, outs[id].Value)
		}
	}
	if o.laid != nil { // (a later repeat's list may be chained to e)
		o.laid[e.Base().ID] = laidOut(value.List(list), len(items), all, extra, under, outs, ord)
	}
	return elements.Keep(value.List(list)), nil
}

// layAlone records the layout of out, the outcome of list e of a repeat's tree walked alone (its member's outcome lacks
// it), or of each list below map e so walked, where o records layouts (laid): a later repeat's list chained to it finds
// its items there.
func (o Ordered) layAlone(e elements.Element, out elements.Outcome) {
	if o.laid == nil || !out.Present {
		return
	}
	switch e := e.(type) {
	case *elements.ListElement, *elements.SetElement:
	case *elements.MapElement: // (walked alone, each field's outcome is its own walked alone)
		if out.Value.IsMap() && e.Dirs == nil && !e.Ruled {
			for _, f := range e.Fields {
				if fv, found := out.Value.Get(f.Name); found {
					o.layAlone(f.Element, elements.Keep(fv))
				}
			}
		}
		return
	default:
		return
	}
	if !out.Value.IsList() {
		return
	}
	if owner, _, ok := o.baseLayout(e, out.Value); ok {
		o.laid[e.Base().ID] = layout{list: out.Value, owner: owner}
	}
}

// laidOut returns the layout of list, the outcome of a chained list with n Items merged onto its base's outcome (its
// layout under), its members all and extra, their outcomes outs, in order ord. A later item of a key (extra) whose
// member is one of the Items is one more of that item's, as a later repeat's item of the key finds it.
func laidOut(list value.Value, n int, all, extra []elements.Item, under layout, outs []elements.Outcome, ord []int) layout {
	owner := make([]int, 0, list.Len())
	for _, id := range ord {
		it := itemAt(all, extra, id)
		switch {
		case !outs[id].Present:
		case id < n:
			owner = append(owner, id)
		case id >= len(all) && it.Of >= 0 && it.Of < n:
			owner = append(owner, it.Of)
		default:
			owner = append(owner, n+under.owner[it.LiveIndex])
		}
	}
	return layout{list: list, owner: owner}
}

// chained returns the members of list e of a repeat's tree (its Items, paired by its elements.Chain) merged onto lv, its
// base's outcome, as a collation with lv as live finds them: the Items, each LiveIndex the position in lv of its base's
// item (-1: none), then lv's other items (LocalIndex -1, Deleted where the chain deletes them, OrderIndex their
// "$setElementOrder" position), and in extra lv's later items of a base item's key (Of: its member); where e is a set
// the patch holds, lv's later items of a value (live's, keyedOwners) are in neither, as a collation with lv as live
// joins them to the first (the API server's merge keeps each value once; a set the patch only orders or deletes from
// keeps live's list as it is, order.Onto listing the first's member at each of their places). Items the chain leaves
// out (Gone) are in neither. under is lv's layout
// (baseLayout). ok is false where lv is not the outcome the chain's base gives.
func (o Ordered) chained(e elements.Element, lv value.Value) (all, extra []elements.Item, under layout, ok bool) {
	chain, items := chainOf(e)
	_, set := e.(*elements.SetElement)
	// A set the patch holds joins lv's later items of a value (not maps, but in a set of maps) to the first.
	joins := set && e.Base().HasLocal
	objects := elements.SetOfMaps(e.Base().Type, &e.Base().Meta)
	if chain == nil || !lv.IsList() {
		return nil, nil, layout{}, false
	}
	layOut := o.baseLayout
	if chain.Laid {
		layOut = o.laidLayout
	}
	owner, first, ok := layOut(chain.Base, lv)
	if !ok {
		return nil, nil, layout{}, false
	}
	under = layout{list: lv, owner: owner}
	// member[j] is the index in all of the member holding base item j's key (-1: none); gone, Deleted and Named by j.
	member, gone, deleted := make([]int, len(first)), make([]bool, len(first)), make([]bool, len(first))
	for j := range member {
		member[j] = -1
	}
	for _, j := range chain.Gone {
		gone[j] = true
	}
	for _, j := range chain.Deleted {
		deleted[j] = true
	}
	all = make([]elements.Item, len(items), len(items)+lv.Len())
	for i := range items {
		all[i] = items[i]
		all[i].LiveIndex = -1
		if j := chain.Of[i]; j >= 0 && first[j] >= 0 {
			all[i].LiveIndex, member[j] = first[j], i
		}
	}
	for _, i := range chain.Joined { // (in the outcome as the first item of its value: an unranked member left out)
		all[i].Deleted = true
	}
	for p, j := range owner {
		switch {
		case gone[j], joins && member[j] >= 0 && first[j] != p && (objects || !lv.Items()[p].IsMap()):
		case member[j] >= 0 && first[j] != p:
			extra = append(extra, elements.Item{RecordedIndex: -1, LocalIndex: -1, LiveIndex: p, Of: member[j], OrderIndex: -1, Deleted: deleted[j]})
		case member[j] < 0:
			named := int32(-1)
			if chain.Named != nil {
				named = chain.Named[j]
			}
			member[j] = len(all)
			all = append(all, elements.Item{RecordedIndex: -1, LocalIndex: -1, LiveIndex: p, Of: -1, OrderIndex: named, Deleted: deleted[j]})
		}
	}
	return all, extra, under, true
}

// baseLayout returns, for each item of lv, the item of chain base b it is (owner: elements.Chain's Of numbering; for a
// list taken from live, its positions; live's later items of a key, LiveExtra, its member's), and each base item's
// first position in lv (first; -1: none); ok is false
// where lv is not b's outcome: a patch's list whose members, ordered as Ordered orders them (its repeats apart by
// order.Apart), less those deleted, are not lv's items one for one, or live's list that is not lv.
func (o Ordered) baseLayout(b elements.Element, lv value.Value) (owner, first []int, ok bool) {
	var items, extra []elements.Item
	switch b := b.(type) {
	case *elements.AtomicElement:
		return liveLayout(b, lv)
	case *elements.ListElement:
		items, extra = b.Items, b.LiveExtra
	case *elements.SetElement:
		if b.Ranked && b.Chain == nil {
			return rankedLayout(b, lv)
		}
		items = b.Items
	default:
		return nil, nil, false
	}
	ord := order.List(b, items, extra, o.Ordering, true, false, o.Memory.intsOf())
	entries := make([]elements.Repeat, len(ord))
	for i, id := range ord {
		entries[i] = elements.Repeat{ID: id, Pos: -1}
	}
	if l, _ := b.(*elements.ListElement); l != nil && len(l.Repeats) > 0 && order.RepeatsApart(l) {
		entries = order.Apart(l, ord)
	}
	first = make([]int, len(items))
	for j := range first {
		first[j] = -1
	}
	owner = make([]int, 0, lv.Len())
	for _, r := range entries {
		if r.ID >= len(items) { // live's later item of a key: one more of its member's
			if x := extra[r.ID-len(items)]; !x.Deleted {
				if first[x.Of] < 0 {
					first[x.Of] = len(owner)
				}
				owner = append(owner, x.Of)
			}
			continue
		}
		switch {
		case r.Pos < 0 && first[r.ID] >= 0:
			return nil, nil, false
		case items[r.ID].Deleted:
		case r.Pos < 0 || first[r.ID] >= 0: // (a repeat apart follows its member)
			if r.Pos < 0 {
				first[r.ID] = len(owner)
			}
			owner = append(owner, r.ID)
		default:
			return nil, nil, false
		}
	}
	return owner, first, len(owner) == lv.Len()
}

// rankedLayout is baseLayout for b, a Ranked set of a patch's the outcome took whole (no live there), its repeated
// values kept (collate's chainSet pairs a value with its first item): each item of lv is the first of b's items not
// Deleted holding its value, a later item of a value one more of it (as keyedOwners lays live's); ok is false where lv
// is not those items' values, each as often as b holds it.
func rankedLayout(b *elements.SetElement, lv value.Value) (owner, first []int, ok bool) {
	objects := elements.SetOfMaps(b.Type, &b.Meta)
	earliest, left := map[value.ScalarKey]int{}, map[value.ScalarKey]int{}
	held := 0 // (b's items not Deleted: lv holds as many)
	first = make([]int, len(b.Items))
	for j := range b.Items {
		first[j] = -1
		it := &b.Items[j]
		if it.Deleted {
			continue
		}
		if it.LocalIndex < 0 { // (no live there: each item the patch's)
			return nil, nil, false
		}
		k, isKey := elements.SetKey(b.Local.Items()[it.LocalIndex], objects)
		if !isKey {
			return nil, nil, false
		}
		if _, seen := earliest[k]; !seen {
			earliest[k] = j
		}
		left[k]++
		held++
	}
	if held != lv.Len() {
		return nil, nil, false
	}
	owner = make([]int, lv.Len())
	for p, v := range lv.Items() {
		k, isKey := elements.SetKey(v, objects)
		if !isKey || left[k] == 0 {
			return nil, nil, false
		}
		left[k]--
		j := earliest[k]
		owner[p] = j
		if first[j] < 0 {
			first[j] = p
		}
	}
	return owner, first, true
}

// liveLayout is baseLayout for b, a list the patch leaves to live (owner: live's positions; lv is live's list, or one
// equal to it, as a list in a map a layer takes whole gives: collate's heldIn), or deletes from by
// "$deleteFromPrimitiveList" alone: lv is then live's list less every item equal to a value deleted, in live's order,
// a later item of a value one more of the first; ok is false where lv is not that.
func liveLayout(b *elements.AtomicElement, lv value.Value) (owner, first []int, ok bool) {
	live := b.Live.Items()
	if lv == b.Live || (!b.HasLocal && b.Dirs == nil && value.Equal(lv, b.Live)) {
		return keyedOwners(b, live)
	}
	d := b.Dirs
	if b.HasLocal || d == nil || !d.HasDeleteFromList || d.HasSetOrder || d.HasRetainKeys || d.ReplaceList || !lv.IsList() {
		return nil, nil, false
	}
	deleted := make([]bool, len(live))
	for j, v := range live {
		deleted[j] = slices.ContainsFunc(d.DeleteFromList.Items(), func(del value.Value) bool { return value.Equal(v, del) })
	}
	earliest := elements.EarliestOfKeys(b, live, deleted) // (a later item of a value: one more of the first kept, as keyedOwners lays it)
	first = make([]int, len(live))
	owner = make([]int, 0, lv.Len())
	for j, v := range live {
		first[j] = -1
		if deleted[j] {
			continue
		}
		if len(owner) == lv.Len() || !value.Equal(lv.Items()[len(owner)], v) {
			return nil, nil, false
		}
		if earliest[j] == j {
			first[j] = len(owner)
		}
		owner = append(owner, earliest[j])
	}
	return owner, first, len(owner) == lv.Len()
}

// keyedOwners is liveLayout for b's list live as it stands: each item its own member, but a later item of a key, in a
// list merged by key whose items all hold the key, or of a value, in a set (scalars, or objects for a set of maps), one
// more of the first item of it (collate's chainKeyed and chainSet pair the key or value with that one): the API
// server's merge keeps it with that item, or, in a set, keeps the value once (chained leaves it out).
func keyedOwners(b *elements.AtomicElement, live []value.Value) (owner, first []int, ok bool) {
	owner, first = elements.EarliestOfKeys(b, live, nil), make([]int, len(live))
	for p, at := range owner {
		first[p] = p
		if at != p {
			first[p] = -1
		}
	}
	return owner, first, true
}

// laidLayout is baseLayout for b, a list of an earlier repeat's tree (elements.Chain.Laid), from the layout recorded
// merging that repeat (laid); ok is false where none was recorded with lv its outcome.
func (o Ordered) laidLayout(b elements.Element, lv value.Value) (owner, first []int, ok bool) {
	at, found := o.laid[b.Base().ID]
	if !found || at.list != lv {
		return nil, nil, false
	}
	first = make([]int, members(b))
	for j := range first {
		first[j] = -1
	}
	for p, j := range at.owner {
		if first[j] < 0 {
			first[j] = p
		}
	}
	return at.owner, first, true
}

// members returns the count of members of chain base b in elements.Chain's Of numbering: its Items, then, chained in
// turn, its base's members; for a list taken from live, its items.
func members(b elements.Element) int {
	chain, items := chainOf(b)
	if a, _ := b.(*elements.AtomicElement); a != nil {
		return a.Live.Len()
	}
	if chain != nil {
		return len(items) + members(chain.Base)
	}
	return len(items)
}

// itemAt returns member id of a list whose Items are items and LiveExtra extra.
func itemAt(items, extra []elements.Item, id int) *elements.Item {
	if id < len(items) {
		return &items[id]
	}
	return &extra[id-len(items)]
}
