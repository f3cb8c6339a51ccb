package order

import (
	"math"

	"github.com/plyproject/ply/internal/elements"
	"github.com/plyproject/ply/pkg/value"
)

// patched is the order of a patch's result (pkg/patch; design document 000
// under OrderSeed, strategicpatch's under OrderKubectl), then
// "$setElementOrder" applied. Phase 1 leaves out the live items a "$patch:
// delete" item deletes; those a "$patch: replace" list or
// "$deleteFromPrimitiveList" deletes stay members (Item.Deleted), ordered
// like the others, and the list visitor drops them.
func (v *view) patched(o Ordering) []int {
	survivors := v.survivors()
	dirs := v.node.Dirs
	replace := dirs != nil && dirs.ReplaceList
	var layout []int
	switch {
	case replace:
		// The patch's items replace live's list; live's deletions still
		// shift the server's view of it.
		layout = indices(v.np, v.np)
	case v.set && !v.node.HasLocal:
		// Only reordered: live's list as it is, duplicates included.
		layout = v.liveMembers()
	case o == OrderSeed || !v.node.HasLocal:
		left, right := v.runs(survivors)
		layout = v.seedInterleave(left, right)
	default:
		// strategicpatch ranks by live's list after the deletions: it
		// appends the new items to a copy of the slice header, so they
		// have no rank.
		left, right := v.runs(survivors)
		sortBy(left, v.liveRank)
		layout = interleave(left, right, v.liveRank)
	}
	if dirs == nil || !dirs.HasSetOrder {
		return layout
	}
	var named, others []int
	for _, id := range layout {
		if v.orderPos(id) >= 0 {
			named = append(named, id)
		} else {
			others = append(others, id)
		}
	}
	sortBy(named, v.orderPos)
	if o == OrderSeed {
		return append(others, named...)
	}
	// As strategicpatch applies it: the others sorted by their rank in the
	// server's view of live's list (unranked last), then interleaved.
	rank := v.liveRank
	if !replace {
		view := v.viewRanks(survivors)
		rank = func(id int) int { return view[v.canon(id)] }
	}
	sortBy(others, func(id int) int {
		if r := rank(id); r >= 0 {
			return r
		}
		return math.MaxInt
	})
	return interleave(others, named, rank)
}

// orderPos is a member's position in "$setElementOrder" (-1: not named).
func (v *view) orderPos(id int) int { return int(v.item(v.canon(id)).OrderIndex) }

// liveMembers lists the member of each of a set's live values in live
// order, repeated values included (a set the patch only reorders keeps
// them).
func (v *view) liveMembers() []int {
	byValue := make(map[value.ScalarKey]int, len(v.items))
	for id := range v.items {
		if li := v.items[id].LiveIndex; li >= 0 {
			k, _ := elements.SetKey(v.node.Live.Items()[li], true)
			byValue[k] = id
		}
	}
	out := make([]int, 0, v.live)
	for _, x := range v.node.Live.Items() {
		if k, ok := elements.SetKey(x, true); ok {
			if id, found := byValue[k]; found {
				out = append(out, id)
			}
		}
	}
	return out
}

// seedInterleave is OrderSeed's merge of a list without
// "$setElementOrder", by document 000's rules: the patch's items (right)
// keep the patch's order, live-only ones (left) live's, and a live-only
// item goes before the patch's next item when its live position is lower.
// A new item is ranked with the next patch item live has, or after every
// live-only one when none, so the patch's order (the stronger rule) holds.
// (Members hold distinct live positions: no ties.)
func (v *view) seedInterleave(left, right []int) []int {
	rank := make([]int, len(v.items)+len(v.extra))
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
	return interleave(left, right, func(id int) int { return rank[id] })
}
