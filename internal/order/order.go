// Package order decides the order of a merged list in Phase 2, for three-way merges and patches under both
// orderings, from where Phase 1 found each member in each source (elements.Item) and what the patch says
// about order. Members are numbered as the tree numbers them: Items 0..n-1, then LiveExtra n...; an order
// lists members present in the result or not, and the list visitor keeps those whose outcome is present.
package order

import (
	"cmp"
	"errors"
	"math"
	"slices"
	"strconv"

	"github.com/plyproject/ply/internal/delta"
	"github.com/plyproject/ply/internal/elements"
	"github.com/plyproject/ply/internal/smp"
	"github.com/plyproject/ply/pkg/value"
)

// Ordering selects how merged lists are ordered.
type Ordering uint8

const (
	// OrderSeed is the rule of design document 000: items only live holds first, in their live relative
	// order, then the items local (or the patch) names, in its order.
	OrderSeed Ordering = iota
	// OrderKubectl is kubectl's strategic merge patch order: live-only items interleaved with local's.
	OrderKubectl
)

// ParseOrdering returns the Ordering a user names: "seed" or "kubectl" (the CLI's --ordering values); any
// other name is an error that quotes it.
func ParseOrdering(name string) (Ordering, error) {
	switch name {
	case "seed":
		return OrderSeed, nil
	case "kubectl":
		return OrderKubectl, nil
	}
	return OrderSeed, errors.New("--ordering must be seed or kubectl, not " + strconv.Quote(name))
}

// List returns the order of the members of e, a *elements.ListElement or a *elements.SetElement: the order of
// a three-way merge, or with patch that of a patch's result; with compose as well, that of a patch merged into
// another (pkg/patch.Compose), whose "$patch: delete" items, data there, go last in their run.
func List(e elements.Element, o Ordering, patch, compose bool) []int {
	v := &view{e: e, node: e.Base(), compose: compose}
	switch e := e.(type) {
	case *elements.ListElement:
		v.items, v.extra = e.Items, e.LiveExtra
	case *elements.SetElement:
		v.items, v.set = e.Items, true
	}
	if v.node.HasLive && v.node.Live.IsList() {
		v.live = v.node.Live.Len()
	}
	for v.np < len(v.items) && v.items[v.np].LocalIndex >= 0 {
		v.np++
	}
	if patch {
		return v.patched(o)
	}
	return v.merged(o)
}

// merged is the order of a three-way merge. Under OrderKubectl it replays in O(n) where the server's patch
// application puts each item of kubectl's three-way patch (a live->local delta of additions and changes, plus
// recorded->local deletions). The patch carries $setElementOrder (local's order) when either part has
// anything for the list; with none the list stays as live has it, and with live's empty local's is sent
// whole. The server deletes removed items in place, appends new ones and merges the live-only run with
// local's by rank in its view of the list (viewRanks, interleave). A list of maps the patch leaves out has
// live's keys in local's order, which that merge keeps; a set it leaves out can differ from local's order
// (kubectl compares it sorted), so a set asks internal/delta whether the patch touches it.
func (v *view) merged(o Ordering) []int {
	if o == OrderKubectl && (v.live == 0 || (len(v.extra) == 0 && v.sameAsLive())) {
		return indices(v.np, v.np)
	}
	survivors := v.survivors()
	if o == OrderKubectl && v.set && !touches(v.e, delta.Delta) && !(v.np > 0 && touches(v.e, delta.Deletions)) {
		return survivors
	}
	left, right := v.runs(survivors)
	if o != OrderKubectl {
		return append(left, right...)
	}
	view := v.viewRanks(survivors)
	return interleave(left, right, func(id int) int { return view[v.canon(id)] })
}

// sameAsLive reports whether live holds exactly local's members in local's order: every order then agrees.
func (v *view) sameAsLive() bool {
	id := 0
	for id < v.np && v.items[id].LiveIndex == id {
		id++
	}
	return id == v.np && id == v.live
}

// touches reports whether part m of kubectl's patch (internal/delta, this node alone) has anything for e:
// items, directives or $setElementOrder. A list with an item no patch can hold counts as touched: kubectl
// fails on it, and ply merges the runs by live rank (live's order if nothing else changed).
func touches(e elements.Element, m delta.Mode) bool {
	t, err := delta.Touches(e, m)
	return t || err != nil
}

// patched is the order of a patch's result (pkg/patch; document 000's under OrderSeed, strategicpatch's under
// OrderKubectl), then "$setElementOrder" applied. Phase 1 leaves out the live items a "$patch: delete" item
// deletes; those a "$patch: replace" list or "$deleteFromPrimitiveList" deletes stay members (Item.Deleted),
// ordered like the others, for the list visitor to drop.
func (v *view) patched(o Ordering) []int {
	survivors := v.survivors()
	dirs := v.node.Dirs
	replace := dirs != nil && dirs.ReplaceList
	var layout []int
	switch {
	case replace:
		// The patch's items replace live's list; live's deletions still shift the server's view of it.
		layout = indices(v.np, v.np)
	case v.set && !v.node.HasLocal:
		// Only reordered: live's list as it is, duplicates included.
		layout = v.liveMembers()
	case o == OrderSeed || !v.node.HasLocal:
		layout = v.seedInterleave(v.runs(survivors))
	default:
		// strategicpatch ranks by live's list after the deletions: it appends the new items to a copy of the
		// slice header, so they have no rank.
		left, right := v.runs(survivors)
		sortBy(left, v.liveRank)
		v.deletesLast(left, right)
		layout = interleave(left, right, v.liveRank)
	}
	if dirs == nil || !dirs.HasSetOrder {
		return layout
	}
	named := slices.DeleteFunc(slices.Clone(layout), func(id int) bool { return v.orderPos(id) < 0 })
	others := slices.DeleteFunc(layout, func(id int) bool { return v.orderPos(id) >= 0 })
	sortBy(named, v.orderPos)
	if o == OrderSeed {
		return append(others, named...)
	}
	// As strategicpatch applies it: the others sorted by their rank in the server's view of live's list
	// (unranked last), then interleaved.
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
	v.deletesLast(named, others)
	return interleave(others, named, rank)
}

// deletesLast moves, in compose mode, live's "$patch: delete" items (the first patch's) to the end of each run,
// in live order, as strategicpatch orders a merged patch's list.
func (v *view) deletesLast(runs ...[]int) {
	if !v.compose || v.set {
		return
	}
	for _, ids := range runs {
		sortBy(ids, func(id int) int {
			if li := v.item(id).LiveIndex; li >= 0 {
				d, _ := v.node.Live.Items()[li].Get(smp.DirectiveKey)
				if s, ok := d.AsString(); ok && s == smp.DeleteValue {
					return li + 1
				}
			}
			return 0
		})
	}
}

// RepeatsApart reports whether the Repeats of patch list e stay apart, each an item of its own, instead of
// merging in turn into their key's member: the API server merges them where live has the list, and keeps them
// apart where it takes the patch's list whole (live has none) or lets it replace live's.
func RepeatsApart(e *elements.ListElement) bool {
	return !e.HasLive || !e.Live.IsList() || (e.Dirs != nil && e.Dirs.ReplaceList)
}

// Apart orders the items of patch list e whose Repeats stay apart, given its members' order ord: each a
// Repeat, or member ID itself (Pos -1). It orders them as the patch does where the API server takes the
// patch's list whole; where it orders the list ("$patch: replace" replacing live's, or "$setElementOrder" in
// a map live has), each repeat after its key's member and its earlier repeats.
func Apart(e *elements.ListElement, ord []int) []elements.Repeat {
	inLive := e.Parent != nil && e.Parent.Base().HasLive && e.Parent.Base().Live.IsMap()
	if (e.HasLive && e.Live.IsList()) || (inLive && e.Dirs != nil && e.Dirs.HasSetOrder) {
		byID := make(map[int][]int, len(e.Repeats)) // positions, in patch order
		for _, r := range e.Repeats {
			byID[r.ID] = append(byID[r.ID], r.Pos)
		}
		out := make([]elements.Repeat, 0, len(ord)+len(e.Repeats))
		for _, id := range ord {
			out = append(out, elements.Repeat{ID: id, Pos: -1})
			for _, p := range byID[id] {
				out = append(out, elements.Repeat{ID: id, Pos: p})
			}
		}
		return out
	}
	byPos := slices.Repeat([]elements.Repeat{{ID: -1}}, e.Local.Len())
	for id, it := range e.Items {
		if it.LocalIndex >= 0 {
			byPos[it.LocalIndex] = elements.Repeat{ID: id, Pos: -1}
		}
	}
	for _, r := range e.Repeats {
		byPos[r.Pos] = r
	}
	return slices.DeleteFunc(byPos, func(r elements.Repeat) bool { return r.ID < 0 })
}

// orderPos is a member's position in "$setElementOrder" (-1: not named).
func (v *view) orderPos(id int) int { return int(v.item(v.canon(id)).OrderIndex) }

// liveMembers lists the member of each of a set's live values in live order, repeated values included (a set
// the patch only reorders keeps them).
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

// seedInterleave is OrderSeed's merge of a list without "$setElementOrder" (document 000): the patch's items
// (right) keep its order, live-only ones (left) live's, and a live-only item precedes the patch's next item
// when its live position is lower. A new item ranks with the next patch item live has, else after every
// live-only one, so the patch's order, the stronger rule, holds. Live positions are distinct: no ties.
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

// view is what ordering reads off a merged list.
type view struct {
	e    elements.Element
	node *elements.Node
	// items and extra are the list's Items and LiveExtra (none in a set).
	items, extra []elements.Item
	set, compose bool
	// np counts the Items local (or the patch) names, the first ones, in its order; live is live's length.
	np, live int
}

// item is member id's Item.
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

// survivors lists the members at live's positions in live order, the server's list once it deleted in place:
// without those removed because local dropped them, except in a set (whose server deletes values only after
// merging). Its capacity, live's length, leaves viewRanks room for local's new items.
func (v *view) survivors() []int {
	byLive := slices.Repeat([]int{-1}, v.live)
	for id := range len(v.items) + len(v.extra) {
		if li := v.item(id).LiveIndex; li >= 0 && (v.set || !v.item(v.canon(id)).RemovedSinceRecorded()) {
			byLive[li] = id
		}
	}
	return slices.DeleteFunc(byLive, func(id int) bool { return id < 0 })
}

// runs splits the members: left holds the live-only survivors in live order, right local's (or the patch's)
// items in its order, each followed by the live items repeating its key (in live order). The server finds
// such a duplicate's key in $setElementOrder; keeping the merged item first makes a re-apply match it.
func (v *view) runs(survivors []int) (left, right []int) {
	left = make([]int, 0, len(survivors))
	right = indices(v.np, v.np+len(v.extra))
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

// viewRanks ranks each member's key (by canon ID) by its first position in the server's view of live's
// backing array: the survivors compacted to the front, then local's new items written into the slots the
// deletions freed (a set's server builds a new list: its new values have no rank); -1 when absent. (A table,
// not a func: a returned closure would cost an allocation per list.)
func (v *view) viewRanks(survivors []int) []int {
	seq := survivors
	if !v.set {
		for id := 0; id < v.np && len(seq) < v.live; id++ {
			if v.items[id].LiveIndex < 0 {
				seq = append(seq, id)
			}
		}
	}
	r := slices.Repeat([]int{-1}, len(v.items)+len(v.extra))
	for p, id := range seq {
		if c := v.canon(id); r[c] < 0 {
			r[c] = p
		}
	}
	return r
}

// sortBy sorts ids stably by rank.
func sortBy(ids []int, rank func(int) int) {
	slices.SortStableFunc(ids, func(a, b int) int { return cmp.Compare(rank(a), rank(b)) })
}

// interleave merges two sorted runs as the server's strategic merge patch does: left's head (live-only
// members) goes first only when both heads have a rank in live and left's is lower, else right's.
func interleave(left, right []int, rank func(int) int) []int {
	out := make([]int, 0, len(left)+len(right))
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

// indices returns 0, 1, ..., n-1, with room for size items.
func indices(n, size int) []int {
	out := make([]int, n, size)
	for i := range out {
		out[i] = i
	}
	return out
}
