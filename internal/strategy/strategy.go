package strategy

import (
	"fmt"
	"sync"

	"github.com/plyproject/ply/internal/elements"
	"github.com/plyproject/ply/internal/order"
	"github.com/plyproject/ply/internal/visitors"
	"github.com/plyproject/ply/openapi"
)

// Options configure a Walker.
type Options struct {
	// Ordering selects the order of merged lists.
	Ordering order.Ordering
	// Patch says the tree is collated from a strategic merge patch
	// (pkg/patch): its directives (elements.Directives), not the schema's
	// retainKeys strategy, decide which fields a map clears, and its lists
	// are ordered as the patch orders them.
	Patch bool
	// Record keeps every walked node's Outcome for Outcome (the change
	// list reads them); off, the walk keeps nothing. Nodes, when known, is
	// the number of nodes of the tree (collate.Count): the table is sized
	// once.
	Record bool
	Nodes  int
}

// Walker walks an Element tree, computing each node's Outcome with the
// visitor its strategy selects. It implements elements.Walker. The tree is
// not modified: with Options.Record the outcomes are kept in a table
// indexed by node ID. A Walker is cheap and not safe for concurrent use;
// make one per merge.
type Walker struct {
	// The visitors, boxed once: handing a struct out as an interface on
	// every For would allocate per node.
	replace, merge, retain, ordered elements.Visitor
	patch                           bool
	record                          bool
	// outcomes holds, by node ID, the Outcome of every node walked so far
	// (Record only); nodes not walked are absent.
	outcomes []elements.Outcome
}

// New returns a Walker for opts.
func New(opts Options) *Walker {
	w := &Walker{patch: opts.Patch, record: opts.Record}
	if opts.Record && opts.Nodes > 0 {
		if t, ok := outcomeTables.Get().(*[]elements.Outcome); ok && cap(*t) >= opts.Nodes && cap(*t) <= 4*opts.Nodes+64 {
			w.outcomes = (*t)[:opts.Nodes]
		} else {
			w.outcomes = make([]elements.Outcome, opts.Nodes)
		}
	}
	merge := visitors.Merge{Walker: w}
	w.replace = visitors.Replace{}
	w.merge = merge
	w.retain = visitors.RetainKeys{Merge: merge}
	w.ordered = visitors.Ordered{Walker: w, Ordering: opts.Ordering, Patch: opts.Patch}
	return w
}

// outcomeTables keeps the outcome tables of released Walkers, cleared.
var outcomeTables sync.Pool

// Release clears the Walker's outcome table and keeps it for the next
// Walker (one needing at most the table, and at least about a quarter of
// it: a small merge does not take, nor clear, a huge table); Outcome
// answers Absent afterwards. Entries past the table's length are never
// written, so they are zero already.
func (w *Walker) Release() {
	if w.outcomes == nil {
		return
	}
	clear(w.outcomes)
	t := w.outcomes[:0]
	w.outcomes = nil
	outcomeTables.Put(&t)
}

// For returns the visitor that decides e. An Element type it does not know
// is an error: no element is decided by a default.
func (w *Walker) For(e elements.Element) (elements.Visitor, error) {
	switch e.(type) {
	case *elements.ListElement, *elements.SetElement:
		return w.ordered, nil
	case *elements.MapElement, *elements.TypeElement:
		n := e.Base()
		if (n.Dirs != nil && n.Dirs.HasRetainKeys) || (!w.patch && n.Meta.Strategy.Has(openapi.StrategyRetainKeys)) {
			return w.retain, nil
		}
		return w.merge, nil
	case *elements.PrimitiveElement, *elements.AtomicElement, *elements.EmptyElement:
		return w.replace, nil
	}
	return nil, e.Base().Errorf(elements.NoSource, fmt.Sprintf("no merge rule decides a %T", e))
}

// Walk computes e's Outcome and returns it (keeping it with Record).
func (w *Walker) Walk(e elements.Element) (elements.Outcome, error) {
	v, err := w.For(e)
	if err != nil {
		return elements.Absent, err
	}
	out, err := e.Accept(v)
	if err != nil {
		return elements.Absent, err
	}
	if w.record {
		id := int(e.Base().ID)
		if id >= len(w.outcomes) {
			grown := make([]elements.Outcome, max(2*len(w.outcomes), id+1, 64))
			copy(grown, w.outcomes)
			w.outcomes = grown
		}
		w.outcomes[id] = out
	}
	return out, nil
}

// Outcome returns the Outcome the walk gave node n: absent for a node it
// did not walk (fields cleared by retainKeys, live duplicates deleted
// with their key) and for every node unless Options.Record.
func (w *Walker) Outcome(n *elements.Node) elements.Outcome {
	if int(n.ID) < len(w.outcomes) {
		return w.outcomes[n.ID]
	}
	return elements.Absent
}
