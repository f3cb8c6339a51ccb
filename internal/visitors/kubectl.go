package visitors

import (
	"github.com/plyproject/ply/internal/elements"
)

// This file models, from the collated tree, where kubectl's three-way
// strategic merge patch puts an entry and so in what order the server's
// patch application leaves a merged list. The facts it encodes (kubectl
// 1.x, k8s.io/apimachinery strategicpatch):
//
//   - The patch is the union of a "delta" (live -> local, additions and
//     changes only) and "deletions" (recorded -> local, removals only).
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
// OrderKubectl replays that arithmetic in O(n) instead of simulating it.

// kubectlListOrder orders a merged list of maps as kubectl does.
func kubectlListOrder(e *elements.ListElement, ids itemIDs) []int {
	if len(ids.byLive) == 0 {
		return ids.local
	}
	if !deltaTouches(e) && !deletionsTouch(e) {
		return ids.liveOrder(false)
	}
	// Ranks in the server's view of the list. A live duplicate takes a
	// slot of its own but is found where its key is first found.
	n := len(e.Items)
	rank := make([]int, ids.count)
	for i := range rank {
		rank[i] = -1
	}
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
	return mergeRuns(left, right, rank)
}

// kubectlSetOrder orders a merged list of primitives as kubectl does: the
// server merges live-only values (removed ones included, deleted only
// afterwards) with local's values, ranking by live position.
func kubectlSetOrder(e *elements.SetElement, ids itemIDs) []int {
	if len(ids.byLive) == 0 {
		return ids.local
	}
	if !deltaTouches(e) && !(len(ids.local) > 0 && deletionsTouch(e)) {
		return ids.liveOrder(false)
	}
	rank := make([]int, ids.count)
	for i := range e.Items {
		rank[i] = e.Items[i].LiveIndex
	}
	return mergeRuns(ids.liveOrder(true), ids.local, rank)
}

// mergeRuns merges the live-only run left with local's run right the way
// the server does: left's head goes first only when both heads have a rank
// and left's is lower.
func mergeRuns(left, right []int, rank []int) []int {
	out := make([]int, 0, len(left)+len(right))
	i, j := 0, 0
	for i < len(left) && j < len(right) {
		l, r := rank[left[i]], rank[right[j]]
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
