// Package strategy is Phase 2's one dispatch point: the Walker hands each Element to the visitor of the merge rule that
// decides it. A registered rule (pkg/elements.Rule, named by the node's Meta.Rule) decides with its own Visitor;
// otherwise the built-in rules decide by the element's kind (For): Replace atomic values, Merge maps (RetainKeys for
// a patch's $retainKeys or, outside a patch, strategy retainKeys), Ordered merged lists and sets. An element no
// rule decides is an error, never a default.
//
// A merge's node that kubectl's pipeline decides (gate UniqueMergeKeys off: a list repeating a merge key) is decided by
// its outcome tree, a patch tree Phase 1 built beside it (Options.Patched, elements.Patched), walked as a patch.
//
// Invariants: the Walker never modifies the tree; each node's Outcome is kept by node ID (Record), so one tree can be
// merged, listed for changes and diffed in turn; each registered rule's visitor is made once per Walker. The data runs
// one way: a walk reads the tree and the answers it is given (Options.Answers) and calls no front-end; a repeat of a
// patch's merge key it cannot decide asks its question (visitors.InTurn), which the front-end answers: the walk ends
// with it, or, driven by the front-end (visitors.Answers.Pull), stops at it until it is answered.
package strategy

import (
	"fmt"
	"sync"

	"github.com/plyproject/ply/internal/order"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/pkg/visitors"
)

// BuiltIn names a built-in merge rule.
type BuiltIn uint8

const (
	// Replace decides AtomicElement: the value whole.
	Replace BuiltIn = iota
	// Merge decides MapElement, unless RetainKeys does.
	Merge
	// RetainKeys decides a MapElement with a patch's $retainKeys or, outside a patch, of strategy retainKeys.
	RetainKeys
	// Ordered decides ListElement and SetElement.
	Ordered
	builtIns
)

// For returns the built-in rule that decides e by its kind; patch says the tree is collated from a strategic merge
// patch. ok is false for a kind no built-in rule decides (a program's, which its own rule must decide).
func For(e elements.Element, patch bool) (r BuiltIn, ok bool) {
	switch e.(type) {
	case *elements.ListElement, *elements.SetElement:
		return Ordered, true
	case *elements.MapElement:
		n := e.Base()
		if (n.Dirs != nil && n.Dirs.HasRetainKeys) || (!patch && n.Meta.Strategy.Has(openapi.StrategyRetainKeys)) {
			return RetainKeys, true
		}
		return Merge, true
	case *elements.AtomicElement:
		return Replace, true
	}
	return 0, false
}

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
	// Answers holds the front-end's answers to the questions a walk of a patch's tree ends with (visitors.InTurn: a
	// Repeat of a patch's list applied to its member's outcome where Phase 2 cannot decide it from the patch's tree,
	// its pairings, elements.Chain, included). Nil: none, each such repeat ending the walk with its question.
	Answers *visitors.Answers
	// Memory, when set, is where the built-in visitors build the result's maps and lists (visitors.Memory): the result
	// is valid until its Reset. Nil: memory of their own.
	Memory *visitors.Memory
	// Patched gives the outcome tree beside a node of a merge that kubectl's pipeline decides (elements.Patched,
	// pkg/collate's Arena.Patched), nil for the others: the node's outcome is that tree's, walked as a patch (patched.go).
	// Nil: no node has one.
	Patched func(*elements.Node) *elements.Patched
}

// Walker is the elements.Walker of a merge: it never modifies the tree and is not safe for concurrent use.
type Walker struct {
	// builtIn holds the built-in rules' visitors, boxed once (boxing per node would allocate per node).
	builtIn [builtIns]elements.Visitor
	// registered holds the visitors of the registered rules met so far, by rule.
	registered map[*elements.Rule]elements.Visitor
	patch      bool
	// patched is Options.Patched; inPatched says an outcome tree is being walked, by patchedBuiltIn's visitors.
	patched        func(*elements.Node) *elements.Patched
	inPatched      bool
	patchedBuiltIn [builtIns]elements.Visitor
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
	unmergedOrderRefused := opts.Gates.Enabled(features.MultiFieldMergeKeys) // (format.CheckDirs refuses such an order)
	deleteRemoves := opts.Gates.Enabled(features.PatchDeleteRemovesMap)
	w.builtIn = [builtIns]elements.Visitor{
		Replace:    r,
		Merge:      visitors.Merge{Replace: r, Walker: w, Memory: opts.Memory},
		RetainKeys: visitors.Merge{Replace: r, Walker: w, Retain: true, Memory: opts.Memory},
		Ordered: visitors.Ordered{Replace: r, Walker: w, Ordering: opts.Ordering, Patch: opts.Patch, Answers: opts.Answers,
			Memory: opts.Memory, UnmergedOrderRefused: unmergedOrderRefused,
			DeleteRemovesMap: deleteRemoves},
	}
	if opts.Patched != nil {
		w.patched, w.patchedBuiltIn = opts.Patched, w.builtIn
		w.patchedBuiltIn[Ordered] = visitors.Ordered{Replace: r, Walker: w, Ordering: opts.Ordering, Patch: true, Answers: opts.Answers,
			Memory: opts.Memory, UnmergedOrderRefused: unmergedOrderRefused,
			DeleteRemovesMap: deleteRemoves}
	}
	return w
}

var outcomeTables sync.Pool

// Renew readies w for another walk under the options New was given (with Record, of the same tree only, whose walk
// writes each node's Outcome again): the registered rules' visitors, each made for one walk, are made anew as the walk
// meets their rules; the built-in ones are kept, so that a caller walking many trees under the same options allocates
// no Walker per tree.
func (w *Walker) Renew() {
	clear(w.registered)
}

// Release pools the cleared outcome table for a Walker needing about a quarter to all of it; then Outcome is Absent.
func (w *Walker) Release() {
	if t := w.outcomes[:0]; w.outcomes != nil {
		clear(w.outcomes)
		w.outcomes = nil
		outcomeTables.Put(&t)
	}
}

// For returns the visitor that decides e: its registered rule's, else the built-in rule's for its kind; an element
// neither decides is an error naming its kind.
func (w *Walker) For(e elements.Element) (elements.Visitor, error) {
	if r := elements.RuleOf(e.Base()); r != nil && r.Visitor != nil {
		v, ok := w.registered[r]
		if !ok {
			if w.registered == nil {
				w.registered = map[*elements.Rule]elements.Visitor{}
			}
			v = r.Visitor(w)
			w.registered[r] = v
		}
		return v, nil
	}
	b, ok := For(e, w.patch || w.inPatched)
	if !ok {
		return nil, e.Base().Errorf(elements.NoSource, fmt.Sprintf("no merge rule decides a %T", e))
	}
	if w.inPatched {
		return w.patchedBuiltIn[b], nil
	}
	return w.builtIn[b], nil
}

// Walk computes e's Outcome and returns it (keeping it with Record).
func (w *Walker) Walk(e elements.Element) (elements.Outcome, error) {
	if w.patched != nil && !w.inPatched {
		if p := w.patched(e.Base()); p != nil {
			return w.walkPatched(e, p)
		}
	}
	v, err := w.For(e)
	if err != nil {
		return elements.Absent, err
	}
	out, err := v.Visit(e)
	if err != nil {
		return elements.Absent, err
	}
	w.record(e, out)
	return out, nil
}

// record keeps e's outcome out (Options.Record).
func (w *Walker) record(e elements.Element, out elements.Outcome) {
	if w.outcomes != nil {
		id := int(e.Base().ID)
		if n := id + 1 - len(w.outcomes); n > 0 {
			w.outcomes = append(w.outcomes, make([]elements.Outcome, max(n, len(w.outcomes), 64))...)
		}
		w.outcomes[id] = out
	}
}

// Outcome returns the Outcome the walk gave node n: absent for a node it did not walk (fields cleared by
// retainKeys, live duplicates deleted with their key) and for every node unless Options.Record.
func (w *Walker) Outcome(n *elements.Node) elements.Outcome {
	if int(n.ID) < len(w.outcomes) {
		return w.outcomes[n.ID]
	}
	return elements.Absent
}
