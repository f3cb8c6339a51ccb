package order

import (
	"github.com/plyproject/ply/internal/elements"
)

// The order of a merged list in a three-way merge. Under OrderKubectl it
// is where the server's patch application puts each item of kubectl's
// three-way patch (the union of a live->local delta, additions and changes
// only, and recorded->local deletions):
//
//   - A merged list carries $setElementOrder (local's order) when the delta
//     has items for it or live's key sequence differs from local's, or when
//     the deletions have items for it; with no entry the list stays as live
//     has it. With live's list empty or absent, local's list is sent whole.
//   - Applying it, the server deletes the removed items from live in place
//     (shifting the rest left), appends the items new to live, and then
//     merges two sorted runs: live-only items (live order) and local's items
//     (local order), taking the live-only item first only when both items
//     are found in the server's list view and the live-only one is earlier
//     there. The server's view is live's backing array after the in-place
//     deletions and appends: survivors compacted to the front, new items
//     written into the slots the deletions freed, later new items not seen.
//
// The functions replay that arithmetic in O(n) instead of simulating it.

// MergedList returns the order of the members of a merged list of maps of
// a three-way merge. Members deleted because local dropped them are left
// out.
func MergedList(e *elements.ListElement, o Ordering) []int {
	ids := newListIDs(e)
	if o == OrderKubectl {
		return kubectlListOrder(e, ids)
	}
	left, right := withDuplicates(e, ids)
	return append(left, right...)
}

// MergedSet returns the order of the members of a merged set of a
// three-way merge.
func MergedSet(e *elements.SetElement, o Ordering) []int {
	ids := newSetIDs(e)
	if o == OrderKubectl {
		return kubectlSetOrder(e, ids)
	}
	return append(ids.liveOrder(true), ids.local...)
}

// itemIDs numbers the members of a merged list: Items are 0..len(Items)-1,
// LiveExtra entries follow. byLive maps each live position to its member.
type itemIDs struct {
	count int
	// local lists the members local names, in local order.
	local []int
	// byLive lists the member at each live position (-1: a repeated set
	// value).
	byLive []int
	// removed marks members deleted because local dropped them.
	removed []bool
}

func newIDs(items []elements.Item, count, live int) itemIDs {
	ids := itemIDs{count: count, byLive: fillInt(live, -1), removed: make([]bool, count)}
	for i := range items {
		it := &items[i]
		if it.LocalIndex >= 0 {
			ids.local = append(ids.local, i)
		}
		if it.LiveIndex >= 0 {
			ids.byLive[it.LiveIndex] = i
		}
		ids.removed[i] = it.RemovedSinceRecorded()
	}
	return ids
}

func newListIDs(e *elements.ListElement) itemIDs {
	ids := newIDs(e.Items, len(e.Items)+len(e.LiveExtra), liveLen(&e.Node))
	for j, x := range e.LiveExtra {
		id := len(e.Items) + j
		ids.byLive[x.LiveIndex] = id
		ids.removed[id] = x.Of >= 0 && e.Items[x.Of].RemovedSinceRecorded()
	}
	return ids
}

func newSetIDs(e *elements.SetElement) itemIDs {
	return newIDs(e.Items, len(e.Items), liveLen(&e.Node))
}

// liveLen is the length of live's list (0 when live has none).
func liveLen(n *elements.Node) int {
	if n.HasLive && n.Live.IsList() {
		return n.Live.Len()
	}
	return 0
}

// isLocal reports whether member id is named by local (local members are
// numbered first).
func (ids *itemIDs) isLocal(id int) bool { return id < len(ids.local) }

// liveOrder lists the members at live positions in live order, skipping
// positions that repeat a member (duplicate set values).
func (ids *itemIDs) liveOrder(onlyLiveOnly bool) []int {
	out := make([]int, 0, len(ids.byLive))
	for _, id := range ids.byLive {
		if id < 0 || (onlyLiveOnly && ids.isLocal(id)) {
			continue
		}
		out = append(out, id)
	}
	return out
}

// kubectlListOrder orders a merged list of maps as kubectl does.
func kubectlListOrder(e *elements.ListElement, ids itemIDs) []int {
	if len(ids.byLive) == 0 || (len(e.LiveExtra) == 0 && ids.sameAsLive(e.Items)) {
		return ids.local
	}
	if !deltaTouches(e) && !deletionsTouch(e) {
		return ids.liveOrder(false)
	}
	// Ranks in the server's view of the list. A live duplicate takes a
	// slot of its own but is found where its key is first found.
	n := len(e.Items)
	rank := fillInt(ids.count, -1)
	r := 0
	for _, id := range ids.byLive {
		if ids.removed[id] {
			continue
		}
		rank[id] = r
		if id >= n && e.LiveExtra[id-n].Of >= 0 {
			rank[id] = rank[e.LiveExtra[id-n].Of]
		}
		r++
	}
	slot := r
	for _, id := range ids.local {
		if e.Items[id].LiveIndex < 0 {
			if slot < len(ids.byLive) {
				rank[id] = slot
			}
			slot++
		}
	}
	left, right := withDuplicates(e, ids)
	return interleave(left, right, func(id int) int { return rank[id] })
}

// kubectlSetOrder orders a merged list of primitives as kubectl does: the
// server merges live-only values (removed ones included, deleted only
// afterwards) with local's values, ranking by live position.
func kubectlSetOrder(e *elements.SetElement, ids itemIDs) []int {
	if len(ids.byLive) == 0 || ids.sameAsLive(e.Items) {
		return ids.local
	}
	if !deltaTouches(e) && !(len(ids.local) > 0 && deletionsTouch(e)) {
		return ids.liveOrder(false)
	}
	return interleave(ids.liveOrder(true), ids.local, func(id int) int { return e.Items[id].LiveIndex })
}

// sameAsLive reports whether live holds exactly local's members, in local's
// order. Every order then agrees: the patch, whatever it holds, names no
// other item and moves none, so neither kubectl's patch (delta.Touches)
// nor the interleaving need be computed.
func (ids *itemIDs) sameAsLive(items []elements.Item) bool {
	if len(ids.byLive) != len(ids.local) {
		return false
	}
	for pos, id := range ids.local {
		if items[id].LiveIndex != pos {
			return false
		}
	}
	return true
}

// withDuplicates splits the members of a merged list for ordering: left
// holds the live-only members in live order, right local's members in
// local order, each followed by the live items that repeat its key (in
// live order). Duplicates of a key local names go with local's item —
// the server finds their key in $setElementOrder, and keeping the merged
// item first among its duplicates makes a re-apply match the same item.
// Members deleted because local dropped them are left out.
func withDuplicates(e *elements.ListElement, ids itemIDs) (left, right []int) {
	n := len(e.Items)
	var dupsOf map[int][]int
	left = make([]int, 0, len(ids.byLive))
	for _, id := range ids.liveOrder(true) {
		if ids.removed[id] {
			continue
		}
		if id >= n {
			if of := e.LiveExtra[id-n].Of; of >= 0 && ids.isLocal(of) {
				if dupsOf == nil {
					dupsOf = make(map[int][]int)
				}
				dupsOf[of] = append(dupsOf[of], id)
				continue
			}
		}
		left = append(left, id)
	}
	right = ids.local
	if dupsOf != nil {
		right = make([]int, 0, len(ids.local)+len(dupsOf))
		for _, id := range ids.local {
			right = append(right, id)
			right = append(right, dupsOf[id]...)
		}
	}
	return left, right
}
