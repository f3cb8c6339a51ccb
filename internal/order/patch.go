package order

import (
	"github.com/plyproject/ply/internal/elements"
	"github.com/plyproject/ply/pkg/value"
)

// The order of a merged list in a patch's result (pkg/patch; design
// document 000 under OrderSeed, strategicpatch's under OrderKubectl).
// Phase 1 leaves out the live items a "$patch: delete" item deletes, so
// the list's members are: the patch's data items (Items with LocalIndex
// >= 0, first, in patch order), live's other items, live's duplicates
// (LiveExtra). Live positions no member holds are deleted ones.

// PatchedList returns the order of the members of a merged list of maps a
// patch sets (or only reorders with "$setElementOrder").
func PatchedList(e *elements.ListElement, o Ordering) []int {
	v := newListView(e)
	var layout []int
	switch {
	case e.Dirs != nil && e.Dirs.ReplaceList:
		// The patch's items replace live's list; live's deletions still
		// shift the server's view of it.
		layout = make([]int, v.np)
		for j := range layout {
			layout[j] = j
		}
		if v.hasOrder() && o == OrderKubectl {
			return reorder(layout, v.canon, v.orderPos, v.firstAt(v.survivors))
		}
	case !e.HasLocal:
		layout = v.merged
	case o != OrderKubectl:
		layout = v.seedLayout()
	default:
		layout = v.kubectlLayout()
	}
	switch {
	case !v.hasOrder():
	case o != OrderKubectl:
		layout, _ = seedArrange(layout, v.orderPos, e.Dirs.SetOrder.Len())
	case !e.Dirs.ReplaceList:
		// The server's view of live's backing array: survivors compacted
		// to the front, then the first new items written into the slots
		// the deletions freed.
		view := v.merged[:len(v.survivors)+min(v.fresh, v.live-len(v.survivors))]
		layout = reorder(layout, v.canon, v.orderPos, v.firstAt(view))
	}
	return layout
}

// listView is what ordering a patched list of maps reads off the tree.
type listView struct {
	e *elements.ListElement
	// n is how many Items there are, np how many of them (the first) are
	// the patch's data items, live the length of live's list.
	n, np, live int
	// survivors: the members at live's positions after the deletions, in
	// live order (the server's list once it deleted in place); merged:
	// the survivors, then the new items in patch order (fresh of them).
	survivors, merged []int
	fresh             int
}

func newListView(e *elements.ListElement) *listView {
	v := &listView{e: e, n: len(e.Items), live: liveLen(&e.Node)}
	byLive := fillInt(v.live, -1)
	for i := range e.Items {
		if li := e.Items[i].LiveIndex; li >= 0 {
			byLive[li] = i
		}
	}
	for j := range e.LiveExtra {
		byLive[e.LiveExtra[j].LiveIndex] = v.n + j
	}
	v.merged = make([]int, 0, v.live+v.n)
	for _, id := range byLive {
		if id >= 0 {
			v.merged = append(v.merged, id)
		}
	}
	v.survivors = v.merged
	for v.np < v.n && e.Items[v.np].LocalIndex >= 0 {
		if e.Items[v.np].LiveIndex < 0 {
			v.merged = append(v.merged, v.np)
			v.fresh++
		}
		v.np++
	}
	v.survivors = v.merged[:len(v.survivors)]
	return v
}

// canon maps a member to the Item of its key.
func (v *listView) canon(id int) int {
	if id < v.n {
		return id
	}
	return v.e.LiveExtra[id-v.n].Of
}

func (v *listView) hasOrder() bool { return v.e.Dirs != nil && v.e.Dirs.HasSetOrder }

// orderPos is a member's position in "$setElementOrder" (-1: not named).
func (v *listView) orderPos(id int) int { return int(v.e.Items[v.canon(id)].OrderIndex) }

// firstAt gives each Item its first position in seq, -1 when absent.
func (v *listView) firstAt(seq []int) []int {
	r := fillInt(v.n, -1)
	for p, id := range seq {
		if c := v.canon(id); r[c] < 0 {
			r[c] = p
		}
	}
	return r
}

// seedLayout is OrderSeed's order without "$setElementOrder": live's items
// the patch leaves out, in live order, merged with the patch's in patch
// order (a live duplicate right after its item) by their live positions
// (seedInterleave).
func (v *listView) seedLayout() []int {
	byRun, nServer := seedArrange(v.merged, func(id int) int {
		if k := v.canon(id); k < v.np {
			return k
		}
		return -1
	}, v.np)
	pos := fillInt(v.n+len(v.e.LiveExtra), -1)
	for p, id := range v.survivors {
		pos[id] = p
	}
	return seedInterleave(byRun[:nServer], byRun[nServer:], func(id int) int { return pos[id] })
}

// kubectlLayout is strategicpatch's order without "$setElementOrder":
// ranks come from live's list after the deletions (strategicpatch appends
// the new items to a copy of the slice header, so they have no rank).
func (v *listView) kubectlLayout() []int {
	rank := v.firstAt(v.survivors)
	var inPatch, serverOnly []int
	for _, id := range v.merged {
		if v.canon(id) < v.np {
			inPatch = append(inPatch, id)
		} else {
			serverOnly = append(serverOnly, id)
		}
	}
	sortBy(inPatch, v.canon)
	rankOf := func(id int) int { return rank[v.canon(id)] }
	sortBy(serverOnly, rankOf)
	return interleave(serverOnly, inPatch, rankOf)
}

// PatchedSet returns the order of the members of a merged set a patch
// sets (or only reorders or deletes from): the union of live's values and
// the patch's, ordered as strategicpatch orders it, then
// "$setElementOrder" applied. Members the patch deletes
// ("$deleteFromPrimitiveList", Item.Deleted) are ordered like the others;
// the list visitor drops them.
func PatchedSet(e *elements.SetElement, o Ordering) []int {
	items := e.Items
	liveRank := func(id int) int { return items[id].LiveIndex }
	// merged: live's values in live order, then the new ones in patch
	// order (each once).
	layout := make([]int, 0, len(items))
	for id := range items {
		if items[id].LiveIndex >= 0 {
			layout = append(layout, id)
		}
	}
	sortBy(layout, liveRank)
	for id := range items {
		if items[id].LiveIndex < 0 {
			layout = append(layout, id)
		}
	}
	sortBy(layout[len(layout)-countNew(items):], func(id int) int { return items[id].LocalIndex })
	hasPatch := e.HasLocal
	switch {
	case !hasPatch:
		// Only reordered: live's list as it is, duplicates included.
		layout = liveMembers(e)
	case o != OrderKubectl:
		// Live's values the patch leaves out, in live order, merged with
		// the patch's in patch order by live position (seedInterleave).
		byRun, nServer := seedArrange(layout, func(id int) int { return items[id].LocalIndex }, e.Local.Len())
		layout = seedInterleave(byRun[:nServer], byRun[nServer:], liveRank)
	case len(items) > 0:
		var inPatch, serverOnly []int
		for _, id := range layout {
			if items[id].LocalIndex >= 0 {
				inPatch = append(inPatch, id)
			} else {
				serverOnly = append(serverOnly, id)
			}
		}
		sortBy(inPatch, func(id int) int { return items[id].LocalIndex })
		layout = interleave(serverOnly, inPatch, liveRank)
	}
	if e.Dirs == nil || !e.Dirs.HasSetOrder {
		return layout
	}
	orderPos := func(id int) int { return int(items[id].OrderIndex) }
	if o != OrderKubectl {
		layout, _ = seedArrange(layout, orderPos, e.Dirs.SetOrder.Len())
		return layout
	}
	rank := make([]int, len(items))
	for id := range items {
		rank[id] = items[id].LiveIndex
	}
	return reorder(layout, func(id int) int { return id }, orderPos, rank)
}

func countNew(items []elements.Item) int {
	n := 0
	for i := range items {
		if items[i].LiveIndex < 0 {
			n++
		}
	}
	return n
}

// liveMembers lists the member of each of live's values in live order,
// repeated values included (a set the patch only reorders keeps them).
func liveMembers(e *elements.SetElement) []int {
	byValue := make(map[value.ScalarKey]int, len(e.Items))
	for id := range e.Items {
		if li := e.Items[id].LiveIndex; li >= 0 {
			k, _ := elements.SetKey(e.Live.Items()[li], true)
			byValue[k] = id
		}
	}
	out := make([]int, 0, liveLen(&e.Node))
	for _, v := range e.Live.Items() {
		if k, ok := elements.SetKey(v, true); ok {
			if id, found := byValue[k]; found {
				out = append(out, id)
			}
		}
	}
	return out
}

// reorder applies "$setElementOrder" as strategicpatch does: the members
// the order list names, sorted by it, merged with the others, sorted by
// their rank in the server's view of live's list (viewRank, by Item; -1:
// not in the view).
func reorder(layout []int, canon, orderPos func(int) int, viewRank []int) []int {
	var named, others []int
	for _, id := range layout {
		if orderPos(id) >= 0 {
			named = append(named, id)
		} else {
			others = append(others, id)
		}
	}
	rankOf := func(id int) int { return viewRank[canon(id)] }
	sortBy(named, orderPos)
	sortBy(others, func(id int) int {
		if r := rankOf(id); r >= 0 {
			return r
		}
		return last
	})
	return interleave(others, named, rankOf)
}

// seedArrange partitions ids for OrderSeed (design document 000): the
// members rank leaves unranked (-1) first, in their order in ids, then the
// ranked ones by rank, ties in their order in ids; unranked is how many
// come first. rank values are below bound: a counting sort,
// O(len(ids)+bound).
func seedArrange(ids []int, rank func(int) int, bound int) (out []int, unranked int) {
	out = make([]int, 0, len(ids))
	count := make([]int, bound+1)
	for _, id := range ids {
		if r := rank(id); r < 0 {
			out = append(out, id)
		} else {
			count[r+1]++
		}
	}
	unranked = len(out)
	// count[r] becomes the first slot of rank r.
	count[0] = unranked
	for r := 1; r <= bound; r++ {
		count[r] += count[r-1]
	}
	out = out[:len(ids)]
	for _, id := range ids {
		if r := rank(id); r >= 0 {
			out[count[r]] = id
			count[r]++
		}
	}
	return out, unranked
}

// seedInterleave is OrderSeed's merge of a list without
// "$setElementOrder", by document 000's rules: two items the patch holds
// keep the patch's order (right is in patch order), two live-only items
// live's (left is in live order), a live-only item and a patch item live's
// when both are in live (livePos, -1 for an item live lacks), and an item
// live lacks goes after the live-only ones ("append to the end") — unless
// a later patch item that live has pulls it forward: a new item is ranked
// with the next patch item that has a live position, so that the patch's
// order (the stronger rule) holds. Where the rules contradict each other
// (the patch reorders items that live-only ones lie between), each
// live-only item goes before the patch's next item when its live position
// is lower. strategicpatch ranks new items before every live-only one
// (interleave).
func seedInterleave(left, right []int, livePos func(int) int) []int {
	// rank: each patch item's live position, or for a new item that of the
	// next patch item live has (beyond every live position when none).
	rank := make([]int, len(right))
	next := last
	for j := len(right) - 1; j >= 0; j-- {
		if r := livePos(right[j]); r >= 0 {
			next = r
		}
		rank[j] = next
	}
	out := make([]int, 0, len(left)+len(right))
	i, j := 0, 0
	for i < len(left) && j < len(right) {
		if rank[j] < livePos(left[i]) {
			out = append(out, right[j])
			j++
		} else {
			out = append(out, left[i])
			i++
		}
	}
	out = append(out, left[i:]...)
	return append(out, right[j:]...)
}
