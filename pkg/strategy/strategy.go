// Package strategy is Phase 2's one dispatch point: the Walker hands each Element to the pkg/visitors visitor
// its merge rule (pkg/strategy/rule) selects. A new strategy is a visitor and a rule.
package strategy

import (
	"sync"

	"github.com/plyproject/ply/internal/order"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/pkg/strategy/rule"
	"github.com/plyproject/ply/pkg/value"
	"github.com/plyproject/ply/pkg/visitors"
)

// Options configure a Walker.
type Options struct {
	// Ordering orders merged lists; with gate SeedOrdering off in Gates (the gate's one switch) kubectl's order does.
	Ordering order.Ordering
	Gates    features.Gates
	// Patch says the tree is collated from a strategic merge patch (pkg/patch): its directives decide which fields
	// a map clears (a map's $retainKeys, not its schema strategy), and its lists are ordered as the patch orders them.
	Patch bool
	// Record keeps each walked node's Outcome for Outcome; Nodes, when known (collate.CountIn), sizes the table once.
	Record bool
	Nodes  int
	// Compose (with Patch) merges the patch into live as into another patch (pkg/patch.Compose).
	Compose bool
	// Reapply is the front-end's application of a patch (Patch only), for the Repeats of a patch's lists.
	Reapply func(v, patch value.Value, t *openapi.Type, depth int) (value.Value, error)
}

// Walker is the elements.Walker of a merge: it never modifies the tree and is not safe for concurrent use.
type Walker struct {
	// byRule holds the visitors, boxed once (boxing per For would allocate per node).
	byRule [rule.Count]elements.Visitor
	patch  bool
	// outcomes holds by node ID the Outcome of each node walked; nil unless Record (and after Release).
	outcomes []elements.Outcome
}

// New returns a Walker for opts.
func New(opts Options) *Walker {
	w := &Walker{patch: opts.Patch}
	if opts.Record {
		if t, ok := outcomeTables.Get().(*[]elements.Outcome); ok && cap(*t) >= opts.Nodes && cap(*t) <= 4*opts.Nodes+64 {
			w.outcomes = (*t)[:opts.Nodes]
		} else {
			w.outcomes = make([]elements.Outcome, opts.Nodes)
		}
	}
	if !opts.Gates.Enabled(features.SeedOrdering) {
		opts.Ordering = order.OrderKubectl
	}
	r := visitors.Replace{Compose: opts.Compose}
	w.byRule = [rule.Count]elements.Visitor{
		rule.Replace:    r,
		rule.Merge:      visitors.Merge{Replace: r, Walker: w},
		rule.RetainKeys: visitors.Merge{Replace: r, Walker: w, Retain: true},
		rule.Ordered:    visitors.Ordered{Replace: r, Walker: w, Ordering: opts.Ordering, Patch: opts.Patch, Reapply: opts.Reapply},
	}
	return w
}

var outcomeTables sync.Pool

// Release pools the cleared outcome table for a Walker needing about a quarter to all of it; then Outcome is Absent.
func (w *Walker) Release() {
	if t := w.outcomes[:0]; w.outcomes != nil {
		clear(w.outcomes)
		w.outcomes = nil
		outcomeTables.Put(&t)
	}
}

// For returns the visitor that decides e; an Element type rule.For does not know is an error.
func (w *Walker) For(e elements.Element) (elements.Visitor, error) {
	r, err := rule.For(e, w.patch)
	if err != nil {
		return nil, err
	}
	return w.byRule[r], nil
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
	if w.outcomes != nil {
		id := int(e.Base().ID)
		if n := id + 1 - len(w.outcomes); n > 0 {
			w.outcomes = append(w.outcomes, make([]elements.Outcome, max(n, len(w.outcomes), 64))...)
		}
		w.outcomes[id] = out
	}
	return out, nil
}

// Outcome returns the Outcome the walk gave node n: absent for a node it did not walk (fields cleared by
// retainKeys, live duplicates deleted with their key) and for every node unless Options.Record.
func (w *Walker) Outcome(n *elements.Node) elements.Outcome {
	if int(n.ID) < len(w.outcomes) {
		return w.outcomes[n.ID]
	}
	return elements.Absent
}
