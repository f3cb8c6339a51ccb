// Package changes lists what a merge changes in live: Collect compares each Outcome Phase 2 stored with live
// and reports the outermost paths where they differ, with the operation and the source that decided it; below a node
// an outcome tree decided (elements.Patched), it compares live's value with that node's outcome as values (Patches).
package changes

import (
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/fieldpath"
	"github.com/plyproject/ply/pkg/value"
	"github.com/plyproject/ply/pkg/visitors"
)

// Op is the kind of a Change.
type Op uint8

const (
	// Add puts a field or item live does not hold.
	Add Op = iota + 1
	// Replace changes a value live holds: a scalar, an atomic value, or a list's order (its items unchanged).
	Replace
	// Remove deletes a field or item live holds.
	Remove
	// Kept is a value local sets that the field's registered rule (pkg/elements.Rule) did not take, keeping live's (a
	// field another writer owns). It changes nothing in live.
	Kept
)

var opNames = [...]string{"", "add", "replace", "remove", "kept"}

// String names the op.
func (o Op) String() string {
	if int(o) < len(opNames) {
		return opNames[o]
	}
	return "invalid"
}

// Change is one difference between live and the merged result, its path materialised on demand (Path) to stay cheap.
type Change struct {
	Op Op
	// Source is the input that decided the change: Local (local sets the value, nulls it, or leaves out a
	// field of a retainKeys union) or Recorded (local dropped it since the last apply).
	Source elements.Source
	// rels counts the steps of the path below node that rel points to the first of (relSteps), where an outcome tree
	// decided node (Patches): held in the bytes after Op and Source and a pointer, not a slice, so that a Change of any
	// other merge is one word larger only.
	rels uint16
	node *elements.Node
	rel  *step
	// path is the path once Detach has materialised it (node nil then).
	path *segment
}

// segment is a materialised path: up's first shared elements, then elems. Invariant: up.shared < shared (up
// nil when shared is 0), so rebuilding a path visits at most as many segments as it has elements.
type segment struct {
	up     *segment
	shared int
	elems  []fieldpath.Element
}

// Path returns where the change is. Each call builds a new Path.
func (c Change) Path() fieldpath.Path {
	switch {
	case c.node != nil && c.rel != nil:
		return append(c.node.Path(), elementsOf(c.relSteps())...)
	case c.node != nil:
		return c.node.Path()
	case c.path == nil:
		return nil // the zero Change
	}
	rel := c.relSteps()
	p := make(fieldpath.Path, c.path.shared+len(c.path.elems), c.path.shared+len(c.path.elems)+len(rel))
	for s, end := c.path, len(p); end > 0; s = s.up {
		copy(p[s.shared:end], s.elems)
		end = s.shared
	}
	return append(p, elementsOf(rel)...)
}

// Detach materialises the paths of cs so they no longer refer to their tree (whose storage collate.Arena may
// then reuse). In walk order a path mostly shares its start with the previous one, and reuses its elements. The steps
// of a path below a node an outcome tree decided stay as they are (Patches: they refer to values, not to the tree), so
// that the changes there share their node's path whole.
func Detach(cs []Change) {
	segments := make([]segment, len(cs))
	var last *segment // the path made last
	var nodes [16]*elements.Node
	chain := nodes[:0] // and its nodes, by depth
	for i := range cs {
		n := cs[i].node
		if n == nil {
			continue
		}
		depth := n.Depth()
		for len(chain) < depth {
			chain = append(chain, nil)
		}
		// A node of the last path has the same path to it (and above).
		seg := &segments[i]
		seg.shared = depth
		for d, cur := depth-1, n; d >= 0; d, cur = d-1, cur.Parent.Base() {
			if last != nil && d < last.shared+len(last.elems) && chain[d] == cur {
				seg.up = last
				break
			}
			seg.shared = d
		}
		for seg.up != nil && seg.up.shared >= seg.shared {
			seg.up = seg.up.up // holds none of the shared elements
		}
		seg.elems = make([]fieldpath.Element, depth-seg.shared)
		for d, cur := depth-1, n; d >= seg.shared; d, cur = d-1, cur.Parent.Base() {
			seg.elems[d-seg.shared], chain[d] = cur.PathElement(), cur
		}
		cs[i].path, cs[i].node, last = seg, nil, seg
	}
}

// AtNodes counts the changes of cs whose paths lead to a node of the tree: those not below a node an outcome tree
// decided (Patches), whose paths Detach materialises.
func AtNodes(cs []Change) int {
	n := 0
	for i := range cs {
		if cs[i].rel == nil {
			n++
		}
	}
	return n
}

// Collect lists the changes of a decided tree in walk order: children in the tree's order (Fields, Items, LiveExtra).
// A node an outcome tree decided (Patches) has its changes compared as values (between).
func Collect(root elements.Element, outcomes Outcomes) []Change {
	c := collector{outcomes: outcomes}
	c.patches, _ = outcomes.(Patches)
	return c.collect(nil, root)
}

// collector is one Collect: the walk's outcomes and, if it tells them, the nodes outcome trees decided.
type collector struct {
	outcomes Outcomes
	patches  Patches
}

// Outcomes gives the Outcome Phase 2 decided for a node (strategy.Walker with Record).
type Outcomes interface {
	Outcome(*elements.Node) elements.Outcome
}

// collect appends to out the changes at and below e: Kept where a registered rule did not take local's value, then an
// Add or Remove when only one of live and e's outcome is set (not null), else its children's, else (not a map) a
// Replace when the outcome differs from live.
func (c *collector) collect(out []Change, e elements.Element) []Change {
	n := e.Base()
	liveOK := n.HasLive && !n.Live.IsNull()
	res := c.outcomes.Outcome(n)
	present := res.Present && !res.Value.IsNull()
	if c.patches != nil && c.patches.Patched(n) != nil {
		d := differ{at: n, in: inputs{local: n.Local, recorded: n.Recorded, hasLocal: n.HasLocal, hasRecorded: n.HasRecorded}}
		return d.between(out, n.Live, res.Value, liveOK, present, n.Type, n.Meta)
	}
	if kept(n, res) {
		out = append(out, Change{node: n, Op: Kept, Source: elements.Local})
	}
	switch {
	case !liveOK && !present:
		return out
	case !liveOK:
		return append(out, Change{node: n, Op: Add, Source: elements.Local})
	case !present:
		src := elements.Local
		if !n.HasLocal && n.HasRecorded {
			src = elements.Recorded
		}
		return append(out, Change{node: n, Op: Remove, Source: src})
	case res.Value == n.Live && !n.Ruled:
		return out // live's own value, shared by the merge: nothing below changed (but Kept, which Ruled marks)
	}
	before := len(out)
	switch e := e.(type) {
	case *elements.MapElement:
		for _, f := range e.Fields {
			out = c.collect(out, f.Element)
		}
		return out
	case *elements.ListElement:
		out = c.collectItems(out, e.Items, nil)
		out = c.collectItems(out, e.LiveExtra, e.Items)
	case *elements.SetElement:
		out = c.collectItems(out, e.Items, nil)
	case elements.Parent: // a program's element kind
		for _, ch := range e.Children() {
			out = c.collect(out, ch)
		}
	}
	if len(out) == before && !value.Equal(n.Live, res.Value) {
		out = append(out, Change{node: n, Op: Replace, Source: elements.Local})
	}
	return out
}

// kept reports whether node n, decided by a registered rule's own visitor (not by the built-in rules under a rule's
// metadata), kept live as it is (outcome res) where local sets another value.
func kept(n *elements.Node, res elements.Outcome) bool {
	if n.Meta.Rule == nil || !n.LocalSet() {
		return false
	}
	liveOK := n.HasLive && !n.Live.IsNull()
	asLive := res.Present == liveOK && (!liveOK || value.Equal(res.Value, n.Live))
	r := elements.RuleOf(n)
	return r != nil && r.Visitor != nil && asLive && !(res.Present && value.Equal(res.Value, visitors.StripNulls(n.Local)))
}

// collectItems appends to out the changes of items; with keys (items a list's LiveExtra, keys its Items) a live
// duplicate goes with its key's item: Recorded when local dropped that key since the last apply.
func (c *collector) collectItems(out []Change, items, keys []elements.Item) []Change {
	for i := range items {
		mark := len(out)
		out = c.collect(out, items[i].Element)
		if of := items[i].Of; keys != nil && of >= 0 && keys[of].RemovedSinceRecorded() {
			for k := mark; k < len(out); k++ {
				out[k].Source = elements.Recorded
			}
		}
	}
	return out
}
