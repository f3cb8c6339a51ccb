package collate

import (
	"github.com/plyproject/ply/internal/delta"
	"github.com/plyproject/ply/internal/smp"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/features"
)

// A merge's node that kubectl's pipeline decides where no node-by-node merge reproduces it (gate UniqueMergeKeys off:
// a Ranked list or set, or a value live holds as another kind below which a merged list repeats a key) gets, with
// Options.Patched, its outcome tree beside the tree (elements.Patched): once the node's subtree is built, its entry in
// kubectl's three-way patch is made of it (delta.ThreeWayEntry, reading the tree and its Below subtrees) and collated
// as a patch over the node's live value, in the same pass, storage and ID space, as pkg/patch collates that patch
// there. A node below one so decided gets none: its ancestor's outcome tree decides it.
//
// With gate MultiFieldMergeKeys off, where local or recorded holds a key the strategic merge patch format reads (Directed),
// the root is so decided: kubectl's diffs read such a key as data, its merge of the patch's halves drops or settles
// local's maps holding "$patch", and the server applies what directives the patch keeps, so no node-by-node merge
// reproduces it. Its outcome tree is kubectl's whole three-way patch (delta.ThreeWay) collated as a patch over live.

// Patched returns the outcome tree beside node n of the tree (Options.Patched), nil if it has none. Call it before
// Release.
func (a *Arena) Patched(n *elements.Node) *elements.Patched {
	if a.c == nil {
		return nil
	}
	return a.c.patched[n.ID]
}

// Entered implements delta.Entered: the three-way entry made of node e for its outcome tree, if any. Call it before
// Release.
func (a *Arena) Entered(e elements.Element) (delta.Made, bool) {
	if a.c == nil || a.c.entries == nil {
		return delta.Made{}, false
	}
	m, ok := a.c.entries[e.Base().ID]
	return m, ok
}

// Directed reports whether a merge of vals with gates is decided whole by kubectl's three-way patch: with gate
// MultiFieldMergeKeys off, local or recorded holds, at any depth, a map with a key the strategic merge patch format
// reads ("$patch", "$retainKeys", "$setElementOrder/<f>", "$deleteFromPrimitiveList/<f>"; smp.HoldsDirectiveKeys).
// Such a merge needs Options.Patched where live exists.
func Directed(vals elements.Values, gates features.Gates) bool {
	return !gates.Enabled(features.MultiFieldMergeKeys) &&
		(smp.HoldsDirectiveKeys(vals.Local) || smp.HoldsDirectiveKeys(vals.Recorded))
}

// Directed reports whether the tree's root is decided by kubectl's whole three-way patch (Directed, with
// Options.Patched). Call it before Release.
func (a *Arena) Directed() bool { return a.c != nil && a.c.directed }

// patch builds the outcome tree of merge node e, decided by kubectl's pipeline, unless an ancestor's decides it (the
// root's, where the merge is Directed: decideWhole).
func (c *collator) patch(e elements.Element) {
	n := e.Base()
	if !c.opts.Patched || c.opts.Patch || c.directed || underRanked(n) {
		return
	}
	made, err := delta.ThreeWayEntry(e, &Arena{c: c}, c.opts.Gates)
	if err == nil {
		if c.entries == nil {
			c.entries = map[int32]delta.Made{}
		}
		c.entries[n.ID] = made
	}
	c.decide(n, made.Entry, err)
}

// decideWhole builds the outcome tree of root e of a Directed merge: kubectl's whole three-way patch, its halves merged
// as kubectl merges them (delta.ThreeWay), collated over live.
func (c *collator) decideWhole(e elements.Element) {
	p, present, err := delta.ThreeWay(e, &Arena{c: c}, c.opts.Gates, true)
	var en delta.Entry
	en.Value, en.Present = p, present
	c.decide(e.Base(), en, err)
}

// decide keeps the outcome tree of merge node n: its patch entry en collated over n's live value, or err, the error
// making en.
func (c *collator) decide(n *elements.Node, en delta.Entry, err error) {
	p := &elements.Patched{}
	if err == nil {
		p.Element, err = c.patchOver(n, en)
	}
	if err != nil {
		p.Element, p.Err = nil, err
	}
	if c.patched == nil {
		c.patched = map[int32]*elements.Patched{}
	}
	c.patched[n.ID] = p
}

// patchOver collates patch entry en of merge node n over n's live value, at n's place, as a patch tree.
func (c *collator) patchOver(n *elements.Node, en delta.Entry) (elements.Element, error) {
	s := elements.Node{Parent: n.Parent, Name: n.Name, Type: n.Type, Meta: n.Meta,
		Values: elements.Values{Local: en.Value, HasLocal: en.Present, Live: n.Live, HasLive: n.HasLive}}
	if en.HasOrder || en.HasDeletes {
		s.Dirs = &elements.Directives{SetOrder: en.Order, HasSetOrder: en.HasOrder, DeleteFromList: en.Deletes, HasDeleteFromList: en.HasDeletes}
	}
	opts, src := c.opts, c.src
	defer func() { c.opts, c.src = opts, src }()
	// (The three values are within the merge's depth limit, checked before Phase 1, and the entry is made of them.)
	c.opts, c.src = Options{Patch: true, Gates: opts.Gates}, elements.Patch
	return c.patchNode(s, n.Depth())
}

// underRanked reports whether an ancestor of n is a Ranked list, whose outcome tree decides n.
func underRanked(n *elements.Node) bool {
	for p := n.Parent; p != nil; p = p.Base().Parent {
		if l, ok := p.(*elements.ListElement); ok && l.Ranked {
			return true
		}
	}
	return false
}
