// Package order decides a merged list's order in Phase 2 (merges and patches, both orderings) from where Phase 1 found
// each member in each source (elements.Item) and what the patch says about order. Members are numbered as in the tree
// (Items 0..n-1, then LiveExtra n...); an order may list members absent from the result.
package order

import (
	"cmp"
	"errors"
	"math"
	"slices"
	"strconv"

	"github.com/plyproject/ply/internal/carve"
	"github.com/plyproject/ply/internal/halves"
	"github.com/plyproject/ply/internal/smp"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/value"
)

// Ordering selects how merged lists are ordered.
type Ordering uint8

const (
	// OrderSeed is design document 000's rule: live-only items first, in live's order, then local's (or the patch's).
	OrderSeed Ordering = iota
	// OrderKubectl is kubectl's strategic merge patch order: live-only items interleaved with local's.
	OrderKubectl
)

// ParseOrdering returns the Ordering "seed" or "kubectl" names (--ordering's values); another is an error quoting it.
func ParseOrdering(name string) (Ordering, error) {
	switch name {
	case "seed":
		return OrderSeed, nil
	case "kubectl":
		return OrderKubectl, nil
	}
	return OrderSeed, errors.New("--ordering must be seed or kubectl, not " + strconv.Quote(name))
}

// List orders the members of e, a *elements.ListElement (items its Items, extra its LiveExtra) or *elements.SetElement
// (items its Items), for a three-way merge, or with patch for a patch's result; with compose too, for a patch merged
// into another (pkg/patch.Compose), whose "$patch: delete" items, data there, go last in their run. The order, and the
// tables it is computed with, are carved from ints (nil: memory of their own): it is valid until ints' Reset.
func List(e elements.Element, items, extra []elements.Item, o Ordering, patch, compose bool, ints *carve.Chunks[int]) []int {
	_, set := e.(*elements.SetElement)
	v := &view{e: e, node: e.Base(), items: items, extra: extra, set: set, compose: compose, ints: ints}
	v.liveItems = v.node.Live.Items() // (nil unless live holds a list: an absent value is null)
	v.live = len(v.liveItems)
	v.countPatched()
	if patch {
		return v.patched(o)
	}
	return v.merged(o)
}

// Onto orders patch list e of a Repeat's tree merged onto live, the outcome of the list Phase 1 paired it with
// (elements.Chain), as List orders e collated with live: items are e's Items, then the members live alone holds, in
// live's order, extra live's later items of a member's key, each LiveIndex a position in live. It is List's patch
// order (not compose's) with live for e's Live.
func Onto(e elements.Element, items, extra []elements.Item, live []value.Value, o Ordering, ints *carve.Chunks[int]) []int {
	_, set := e.(*elements.SetElement)
	v := &view{e: e, node: e.Base(), items: items, extra: extra, set: set, ints: ints, liveItems: live, live: len(live)}
	v.countPatched()
	return v.patched(o)
}

// countPatched sets np: the members local (or the patch) names come first.
func (v *view) countPatched() {
	for v.np < len(v.items) && v.items[v.np].LocalIndex >= 0 {
		v.np++
	}
}

// merged is a three-way merge's order. Under OrderKubectl it replays in O(n) where the server puts each item of
// kubectl's three-way patch (live->local additions and changes, recorded->local deletions). The patch carries
// $setElementOrder (local's order) when either part touches the list; untouched, it stays as live has it; with live's
// empty, local's is sent whole. The server deletes removed items in place, appends new ones and merges the live-only
// run with local's by rank in its view of the list (viewRanks, interleave). An untouched list of maps has live's keys
// in local's order, which that merge keeps; an untouched set may not (kubectl compares sets sorted), so sets ask halves.
func (v *view) merged(o Ordering) []int {
	if o == OrderKubectl && (v.live == 0 || (len(v.extra) == 0 && v.sameAsLive())) {
		return v.indices(v.np, v.np)
	}
	survivors := v.survivors()
	if o == OrderKubectl && v.set && !v.setTouched() {
		return survivors
	}
	left, right := v.runs(survivors)
	if o != OrderKubectl {
		return append(left, right...)
	}
	view := v.viewRanks(survivors)
	return v.interleave(left, right, func(id int) int { return view[v.canon(id)] })
}

// setTouched reports whether kubectl's three-way patch touches the set alone: its delta (live -> local) says anything
// about it, or, local naming members, its deletions (recorded -> local) do; or an item no patch can hold (kubectl fails
// on it, and ply merges the runs by live rank: live's order if nothing else changed). halves decides, as for patches.
func (v *view) setTouched() bool {
	set := v.e.(*elements.SetElement)
	return halves.SetTouched(set, elements.Live, elements.NoSource) ||
		(v.np > 0 && halves.SetTouched(set, elements.NoSource, elements.Recorded))
}

// sameAsLive reports whether live holds exactly local's members in local's order: every order then agrees.
func (v *view) sameAsLive() bool {
	id := 0
	for id < v.np && v.items[id].LiveIndex == id {
		id++
	}
	return id == v.np && id == v.live
}

// patched is a patch's result's order (document 000's under OrderSeed, strategicpatch's under OrderKubectl), then
// "$setElementOrder" applied. Live items a "$patch: delete" item deletes are not members; those a "$patch: replace"
// list or "$deleteFromPrimitiveList" deletes are (Item.Deleted), ordered like the others for the list visitor to drop.
func (v *view) patched(o Ordering) []int {
	if v.np == 1 && len(v.items)+len(v.extra) == 1 {
		return v.indices(1, 1) // (the patch's item alone: every layout below, and any "$setElementOrder", gives it)
	}
	survivors := v.survivors()
	dirs := v.node.Dirs
	replace := dirs != nil && dirs.ReplaceList
	var layout []int
	switch {
	case replace:
		// The patch's items replace live's list; live's deletions still shift the server's view of it.
		layout = v.indices(v.np, v.np)
	case v.set && !v.node.HasLocal:
		// Only reordered: live's list as it is, duplicates included.
		layout = v.liveMembers()
	case o == OrderSeed || !v.node.HasLocal:
		layout = v.seedInterleave(v.runs(survivors))
	default:
		// strategicpatch ranks by live's list after deletions: new items go to a copy of its slice header, unranked.
		left, right := v.runs(survivors)
		if emptied := v.emptiedRanks(); emptied != nil {
			layout = v.rankedRuns(left, right, emptied)
		} else {
			layout = v.rankedRuns(left, right, v.liveRank)
		}
	}
	if dirs == nil || !dirs.HasSetOrder || len(layout) < 2 {
		return layout // (a layout of one item or none is ordered by any "$setElementOrder")
	}
	inLayout := v.positions(layout) // (nil outside compose mode)
	named := slices.DeleteFunc(v.clone(layout), func(id int) bool { return v.orderPos(id) < 0 })
	others := slices.DeleteFunc(layout, func(id int) bool { return v.orderPos(id) >= 0 })
	sortBy(named, v.orderPos)
	if o == OrderSeed {
		return append(others, named...)
	}
	// As strategicpatch does: the others sorted by rank in the server's view of live (unranked last), interleaved.
	rank := v.liveRank
	if !replace {
		view := v.viewRanks(survivors)
		rank = func(id int) int { return view[v.canon(id)] }
		if emptied := v.emptiedRanks(); emptied != nil {
			rank = emptied
		}
	}
	v.sortUnnamed(others, rank)
	v.deletesLast(func(id int) int { return inLayout[id] }, named, others)
	return v.interleave(others, named, rank)
}

// rankedRuns sorts run left by rank, puts the first patch's delete items last in each run (compose mode), and
// interleaves the runs by rank: the layout strategicpatch gives a merged list before its "$setElementOrder".
func (v *view) rankedRuns(left, right []int, rank func(id int) int) []int {
	sortBy(left, rank)
	v.deletesLast(func(id int) int { return v.item(id).LiveIndex }, left, right)
	return v.interleave(left, right, rank)
}

// sortUnnamed sorts the members "$setElementOrder" does not name by rank as strategicpatch sorts them
// (normalizeSliceOrder): where each has a rank, stably by it (sortBy); where some have none (an empty order, which names
// none of the patch's items: those the server's view of live lacks), by strategicpatch's own sort and comparison
// (smp.SortByPlace), given the input strategicpatch gives it (ids in the order of the layout, compose's delete items
// taken out first and put back last).
func (v *view) sortUnnamed(ids []int, rank func(int) int) {
	unranked := false
	for _, id := range ids {
		unranked = unranked || rank(id) < 0
	}
	if !unranked {
		sortBy(ids, rank)
		return
	}
	data := ids
	if v.compose && !v.set {
		isDelete := func(id int) int { return v.deleteRank(id, func(int) int { return 0 }) }
		sortBy(ids, isDelete) // (stable: the data items first, then the delete items, each run in layout order)
		n := 0
		for n < len(ids) && isDelete(ids[n]) == 0 {
			n++
		}
		data = ids[:n]
	}
	smp.SortByPlace(data, rank)
}

// deletesLast moves the first patch's "$patch: delete" items (compose mode) last in each run, ordered among
// themselves by at, as strategicpatch orders a list when it merges a second patch into a first (mergeMap; the first
// stands for live here). Its rule for a keyed list the second holds:
//
//  1. mergeSlice: the second's delete items delete their key's items; its other items merge in place into the first
//     item of their key (a delete item of the first included, which keeps "$patch: delete") or are appended (a
//     "$patch: replace" list of the second's is its own items, in its order: no delete item of the first's is left). The
//     outcome is split into named (items of a key the second's list holds) and others, each in the outcome's order;
//     each part's delete items are taken out in that order (the first's list order: merging moves no item), the rest
//     sorted (named by position in the second's list, others by index in the first's list) and the delete items
//     appended; then mergeSortedSlice puts an other before the next named item only if both have an index in the
//     first's list after the deletions and the other's is lower.
//  2. mergePatchIntoOriginal, where the second holds "$setElementOrder" for the list: the same once more on step 1's
//     outcome, named now meaning named by the order, sorted by position in it, and the index read in the first's
//     list as its backing array stands after step 1 (viewRanks). Each part's delete items keep step 1's outcome
//     order, not the first's: a delete item an item of the second merged into is a named item of step 1, ahead of
//     the others' delete items there unless mergeSortedSlice let an other go first (an other of lower index than
//     it, then each such other in turn), so it can precede a delete item earlier in the first's list.
//
// at is a delete item's rank for that order: its live index in step 1, its position in step 1's layout in step 2.
func (v *view) deletesLast(at func(id int) int, runs ...[]int) {
	if !v.compose || v.set {
		return
	}
	for _, ids := range runs {
		sortBy(ids, func(id int) int { return v.deleteRank(id, at) })
	}
}

// deleteRank is at(id)+1 for a first patch's "$patch: delete" item (compose mode), else 0. A "$patch: replace" list
// of the second's leaves none: its items replace the first's list, a delete item of a key they name included.
func (v *view) deleteRank(id int, at func(id int) int) int {
	if dirs := v.node.Dirs; dirs != nil && dirs.ReplaceList {
		return 0
	}
	if li := v.item(id).LiveIndex; li >= 0 {
		d, _ := v.liveItems[li].Get(smp.DirectiveKey)
		if s, ok := d.AsString(); ok && s == smp.DeleteValue {
			return at(id) + 1
		}
	}
	return 0
}

// emptiedRanks is nil but for a set the patch gives an empty list that live's list (of scalars, or a set's maps: not
// liveMergedByKey) names a value twice in, where it is the rank of each member in live's list as strategicpatch leaves
// it: appending the patch's list to live's gives live's own slice, which it deduplicates in place (smp.DedupScalars: a
// repeat takes the last value's place), whatever room that slice has, and it then ranks by the list so rewritten.
// (Where the patch's list has values, the append rewrites live's list only when its array has room, which JSON
// decoding gives and a typed object's conversion does not: ply ranks by live's list as given, classes
// oracle-aliases-live and oracle-aliases-first.)
func (v *view) emptiedRanks() func(id int) int {
	if !v.set || !v.node.HasLocal || v.node.Local.Len() > 0 || v.live < 2 || v.liveMergedByKey() {
		return nil
	}
	deduped := smp.DedupScalars(slices.Clone(v.liveItems))
	if len(deduped) == v.live {
		return nil
	}
	at := make(map[value.ScalarKey]int, len(deduped))
	for i, x := range deduped {
		if k, ok := elements.SetKey(x, true); ok {
			at[k] = i
		}
	}
	ranks := make([]int, len(v.items)+len(v.extra)) // (by member: a closure holding v would move every view to the heap)
	for id := range ranks {
		ranks[id] = -1
		if li := v.liveRank(id); li >= 0 {
			if k, ok := elements.SetKey(v.liveItems[li], true); ok {
				ranks[id] = at[k]
			}
		}
	}
	return func(id int) int { return ranks[id] }
}

// liveMergedByKey reports whether live's list holds maps of a list the schema merges by key, not a set of maps: a
// Repeat's empty list, collated alone as an empty set, merged onto its base's outcome holding such maps (Onto).
// strategicpatch merges a list by its items' class, live's first: that list by key, keeping every item as it stands,
// identical maps too, where it deduplicates a list of scalars.
func (v *view) liveMergedByKey() bool {
	return !elements.SetOfMaps(v.node.Type, &v.node.Meta) && slices.ContainsFunc(v.liveItems, value.Value.IsMap)
}

// positions is each member's position in layout (-1: not there), computed in compose mode only: deletesLast reads it.
func (v *view) positions(layout []int) []int {
	if !v.compose || v.set {
		return nil
	}
	pos := v.filled(len(v.items)+len(v.extra), -1)
	for i, id := range layout {
		pos[id] = i
	}
	return pos
}

// RepeatsApart reports whether patch list e's Repeats stay items of their own instead of merging in turn into their
// key's member, as they do where the API server takes the patch's list whole (live has none) or replacing live's.
func RepeatsApart(e *elements.ListElement) bool {
	return !e.HasLive || !e.Live.IsList() || (e.Dirs != nil && e.Dirs.ReplaceList)
}

// Apart orders patch list e's items when its Repeats stay apart, given its members' order ord: each a Repeat or member
// ID (Pos -1). Where the API server takes the patch's list whole, the patch's order; where it orders it ("$patch:
// replace" of live's, "$setElementOrder" in a map live has), each repeat after its key's member and earlier repeats.
func Apart(e *elements.ListElement, ord []int) []elements.Repeat {
	return ApartIn(e, ord, e.Parent != nil && e.Parent.Base().HasLive && e.Parent.Base().Live.IsMap())
}

// ApartIn is Apart with inLive saying whether e's parent holds a map in live: a Repeat's list whose parent in its
// own tree has no live, merged onto a member's outcome holding that map, is ordered as with it.
func ApartIn(e *elements.ListElement, ord []int, inLive bool) []elements.Repeat {
	return apart(e, ord, (e.HasLive && e.Live.IsList()) || (inLive && e.Dirs != nil && e.Dirs.HasSetOrder))
}

// ApartOnto is Apart for a Repeat's "$patch: replace" list whose own tree has no live, merged onto a member's outcome
// holding a list there: ordered as with that list for live, each repeat after its key's member.
func ApartOnto(e *elements.ListElement, ord []int) []elements.Repeat {
	return apart(e, ord, true)
}

// apart orders the members ord of patch list e and its Repeats: ordered, each repeat after its key's member and
// earlier repeats; else each at its patch position.
func apart(e *elements.ListElement, ord []int, ordered bool) []elements.Repeat {
	rank := make([]int, len(e.Items)+len(e.LiveExtra)) // a member's position in ord
	out := make([]elements.Repeat, len(ord), len(ord)+len(e.Repeats))
	for i, id := range ord {
		out[i], rank[id] = elements.Repeat{ID: id, Pos: -1}, i
	}
	// Sorted stably by place: ordered, a repeat takes its member's (ord's) and follows it; else each its patch position.
	place := func(r elements.Repeat) int {
		switch {
		case ordered:
			return rank[r.ID]
		case r.Pos < 0:
			return e.Items[r.ID].LocalIndex
		}
		return r.Pos
	}
	out = append(out, e.Repeats...)
	slices.SortStableFunc(out, func(a, b elements.Repeat) int { return cmp.Compare(place(a), place(b)) })
	return out
}

// orderPos is a member's position in "$setElementOrder" (-1: not named).
func (v *view) orderPos(id int) int { return int(v.item(v.canon(id)).OrderIndex) }

// liveMembers lists the member of each of a set's live values in live order, repeats included (kept if only reordered).
func (v *view) liveMembers() []int {
	byValue := make(map[value.ScalarKey]int, len(v.items))
	for id := range v.items {
		if li := v.items[id].LiveIndex; li >= 0 {
			k, _ := elements.SetKey(v.liveItems[li], true)
			byValue[k] = id
		}
	}
	out := make([]int, 0, v.live)
	for _, x := range v.liveItems {
		if k, ok := elements.SetKey(x, true); ok {
			if id, found := byValue[k]; found {
				out = append(out, id)
			}
		}
	}
	return out
}

// seedInterleave is OrderSeed's merge without "$setElementOrder": the patch's items (right) keep its order, live-only
// ones (left) live's, each before the patch's next item if its live position is lower. A new item ranks with the next
// patch item live has, else after all live-only ones: the patch's order, the stronger rule, holds. Positions never tie.
func (v *view) seedInterleave(left, right []int) []int {
	rank := v.ints.Carve(len(v.items) + len(v.extra))
	for _, id := range left {
		rank[id] = v.item(id).LiveIndex
	}
	next := math.MaxInt
	for j := len(right) - 1; j >= 0; j-- {
		if r := v.item(right[j]).LiveIndex; r >= 0 {
			next = r
		}
		rank[right[j]] = next
	}
	return v.interleave(left, right, func(id int) int { return rank[id] })
}

// view is what ordering reads off a merged list.
type view struct {
	e    elements.Element
	node *elements.Node
	// items and extra are the list's Items and LiveExtra (none in a set).
	items, extra []elements.Item
	set, compose bool
	// ints holds the tables and orders computed (nil: memory of their own).
	ints *carve.Chunks[int]
	// np counts the Items local (or the patch) names, the first ones, in its order; live is live's length.
	np, live int
	// liveItems is live's list (a Repeat's base's outcome for Onto).
	liveItems []value.Value
}

func (v *view) item(id int) *elements.Item {
	if id < len(v.items) {
		return &v.items[id]
	}
	return &v.extra[id-len(v.items)]
}

// canon maps a member to the Item of its key (a live item without a key to itself).
func (v *view) canon(id int) int {
	if id >= len(v.items) && v.extra[id-len(v.items)].Of >= 0 {
		return v.extra[id-len(v.items)].Of
	}
	return id
}

// liveRank is the position in live of the Item of a member's key (-1: live lacks it).
func (v *view) liveRank(id int) int { return v.item(v.canon(id)).LiveIndex }

// survivors is the server's list after it deletes in place: the members at live's positions, less those local dropped
// unless in a set (its server deletes after merging). Its capacity, live's length, leaves viewRanks room for new items.
func (v *view) survivors() []int {
	byLive := v.filled(v.live, -1)
	for id := range len(v.items) + len(v.extra) {
		if li := v.item(id).LiveIndex; li >= 0 && (v.set || !v.item(v.canon(id)).RemovedSinceRecorded()) {
			byLive[li] = id
		}
	}
	return slices.DeleteFunc(byLive, func(id int) bool { return id < 0 })
}

// runs splits the members: left holds the live-only survivors in live order, right local's (or the patch's) items in
// its order, each followed by the live items repeating its key (in live order). The server finds such a duplicate's key
// in $setElementOrder; keeping the merged item first makes a re-apply match it.
func (v *view) runs(survivors []int) (left, right []int) {
	left = v.ints.Carve(len(survivors))[:0]
	right = v.indices(v.np, v.np+len(v.extra))
	for _, id := range survivors {
		if c := v.canon(id); c >= v.np {
			left = append(left, id)
		} else if id >= len(v.items) {
			right = append(right, id)
		}
	}
	if len(right) > v.np {
		sortBy(right, v.canon)
	}
	return left, right
}

// viewRanks ranks each member's key (by canon ID) by its first position in the server's view of live's backing array:
// the survivors compacted to the front, then local's new items in the slots deletions freed (a set's server builds a
// new list: its new values have no rank); -1 when absent. A table, not a closure: that would allocate per list.
func (v *view) viewRanks(survivors []int) []int {
	seq := survivors
	if !v.set {
		for id := 0; id < v.np && len(seq) < v.live; id++ {
			if v.items[id].LiveIndex < 0 {
				seq = append(seq, id)
			}
		}
	}
	r := v.filled(len(v.items)+len(v.extra), -1)
	for p, id := range seq {
		if c := v.canon(id); r[c] < 0 {
			r[c] = p
		}
	}
	return r
}

// sortBy sorts ids stably by rank, -1 (unranked) last: ranks compare as unsigned.
func sortBy(ids []int, rank func(int) int) {
	slices.SortStableFunc(ids, func(a, b int) int { return cmp.Compare(uint(rank(a)), uint(rank(b))) })
}

// interleave merges two sorted runs as the server's strategic merge patch does: left's head (live-only members) goes
// first only when both heads have a rank in live and left's is lower, else right's.
func (v *view) interleave(left, right []int, rank func(int) int) []int {
	out := v.ints.Carve(len(left) + len(right))[:0]
	i, j := 0, 0
	for i < len(left) && j < len(right) {
		l, r := rank(left[i]), rank(right[j])
		if l >= 0 && r >= 0 && l < r {
			out = append(out, left[i])
			i++
		} else {
			out = append(out, right[j])
			j++
		}
	}
	out = append(out, left[i:]...)
	return append(out, right[j:]...)
}

// indices returns 0, 1, ..., n-1, with capacity size.
func (v *view) indices(n, size int) []int {
	out := v.ints.Carve(size)[:n]
	for i := range out {
		out[i] = i
	}
	return out
}

// filled returns n ints, each x.
func (v *view) filled(n, x int) []int {
	out := v.ints.Carve(n)
	for i := range out {
		out[i] = x
	}
	return out
}

// clone returns a copy of ids.
func (v *view) clone(ids []int) []int {
	out := v.ints.Carve(len(ids))
	copy(out, ids)
	return out
}
