package delta

import (
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/features"
)

// ThreeWayEntry returns what kubectl apply's three-way patch (ThreeWay) holds for node e of a tree collated for
// patches under gates: its entry and, for a merged list, its parent's parallel lists for it. It is the entry
// ThreeWay's walk gives e, made alone: a node's entry is made of its own subtree (and what beside holds for it), never
// of its ancestors'. pkg/collate asks it, in Phase 1, of the nodes whose outcome is that entry applied to live
// (elements.Patched).
func ThreeWayEntry(e elements.Element, beside Beside, gates features.Gates) (Entry, error) {
	d := New(threeWay, gates)
	d.Beside = beside
	return d.Entry(e)
}
