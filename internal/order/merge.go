package order

import (
	"github.com/plyproject/ply/internal/delta"
	"github.com/plyproject/ply/internal/elements"
)

// merged is the order of a three-way merge. Under OrderKubectl it is where
// the server's patch application puts each item of kubectl's three-way
// patch (a live->local delta, additions and changes only, and
// recorded->local deletions). The list carries $setElementOrder (local's
// order) when either part has anything for it; with no entry it stays as
// live has it, and with live's list empty local's is sent whole. Applying
// it, the server deletes the removed items in place, appends the new ones
// and merges the live-only run with local's by rank in its view of the
// list (viewRanks, interleave): the arithmetic is replayed in O(n).
func (v *view) merged(o Ordering) []int {
	if o == OrderKubectl {
		switch {
		case v.live == 0 || (len(v.extra) == 0 && v.sameAsLive()):
			return indices(v.np, v.np)
		case !touches(v.e, delta.Delta) && !(v.np > 0 && touches(v.e, delta.Deletions)):
			return v.survivors()
		}
	}
	survivors := v.survivors()
	left, right := v.runs(survivors)
	if o != OrderKubectl {
		return append(left, right...)
	}
	rank := v.viewRanks(survivors)
	return interleave(left, right, func(id int) int { return rank[v.canon(id)] })
}

// sameAsLive reports whether live holds exactly local's members, in local's
// order. Every order then agrees, so neither kubectl's patch nor the
// interleaving need be computed.
func (v *view) sameAsLive() bool {
	if v.live != v.np {
		return false
	}
	for id := range v.np {
		if v.items[id].LiveIndex != id {
			return false
		}
	}
	return true
}

// touches reports whether the part m of kubectl's patch (internal/delta,
// asked for this list node alone and only up to its first entry) has
// anything for e: items, directives or $setElementOrder. A list the
// producer cannot diff (an item that cannot be put in a patch) counts as
// touched: kubectl fails on it, and ply merges the runs by live rank,
// which is live's order when nothing else in the list changed.
func touches(e elements.Element, m delta.Mode) bool {
	t, err := delta.Touches(e, m)
	return t || err != nil
}
