package delta

import (
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/features"
)

// Made is the entry ThreeWayEntry made of a node: what ThreeWay's walk gives the node's parent, the deletions counted.
type Made struct {
	Entry Entry
	dels  int
	// wroteDirective: the entry writes a value of local whole that holds a map holding "$patch" (Visitor.wrote).
	wroteDirective bool
}

// Entered is implemented by a Beside holding entries ThreeWayEntry made of nodes of its tree (collate.Arena, for the
// nodes it collated an outcome tree of): ThreeWay's walk takes those in place of making them again.
type Entered interface {
	Entered(e elements.Element) (Made, bool)
}

// ThreeWayEntry returns what kubectl apply's three-way patch (ThreeWay) holds for node e of a tree collated for
// patches under gates: its entry and, for a merged list, its parent's parallel lists for it. It is the entry
// ThreeWay's walk gives e, made alone: a node's entry is made of its own subtree (and what beside holds for it), never
// of its ancestors'. pkg/collate asks it, in Phase 1, of the nodes whose outcome is that entry applied to live
// (elements.Patched).
func ThreeWayEntry(e elements.Element, beside Beside, gates features.Gates) (Made, error) {
	d := New(threeWay, gates)
	d.Beside = beside
	en, err := d.Entry(e)
	return Made{Entry: en, dels: d.dels, wroteDirective: d.wroteDirective}, err
}

// entered returns the entry of e that d's Beside holds (Entered), if any: ThreeWay's walk only.
func (d *Visitor) entered(e elements.Element) (Made, bool) {
	if d.made == nil {
		return Made{}, false
	}
	return d.made.Entered(e)
}
