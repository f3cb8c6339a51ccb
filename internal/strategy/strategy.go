package strategy

import (
	"github.com/plyproject/ply/internal/elements"
	"github.com/plyproject/ply/internal/visitors"
	"github.com/plyproject/ply/openapi"
)

// Options configure a Walker.
type Options struct {
	// Ordering selects the order of merged lists.
	Ordering visitors.Ordering
	// Patch, when non-nil, puts the Walker in patch mode for a tree
	// collated from a strategic merge patch (pkg/patch): there the patch's
	// directives (elements.PatchMeta), not the schema strategy alone,
	// decide every node, so Patch decides every element. Ordering is then
	// unused.
	Patch elements.Visitor
}

// Walker walks an Element tree, computing each node's Outcome with the
// visitor its strategy selects and storing it in the node. It implements
// elements.Walker. A Walker is cheap and not safe for concurrent use; make
// one per merge.
type Walker struct {
	replace visitors.Replace
	merge   visitors.Merge
	retain  visitors.RetainKeys
	ordered visitors.Ordered
	patch   elements.Visitor
}

// New returns a Walker for opts.
func New(opts Options) *Walker {
	w := &Walker{patch: opts.Patch}
	w.merge = visitors.Merge{Walker: w}
	w.retain = visitors.RetainKeys{Merge: w.merge}
	w.ordered = visitors.Ordered{Walker: w, Ordering: opts.Ordering}
	return w
}

// For returns the visitor that decides e.
func (w *Walker) For(e elements.Element) elements.Visitor {
	if w.patch != nil {
		return w.patch
	}
	switch e.(type) {
	case *elements.ListElement, *elements.SetElement:
		return w.ordered
	case *elements.MapElement, *elements.TypeElement:
		if e.Base().Meta.Strategy.Has(openapi.StrategyRetainKeys) {
			return w.retain
		}
		return w.merge
	}
	return w.replace
}

// Walk computes e's Outcome, stores it in e's node and returns it.
func (w *Walker) Walk(e elements.Element) (elements.Outcome, error) {
	out, err := e.Accept(w.For(e))
	if err != nil {
		return elements.Absent, err
	}
	e.Base().Outcome = out
	return out, nil
}
