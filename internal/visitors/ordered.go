package visitors

import (
	"github.com/plyproject/ply/internal/elements"
	"github.com/plyproject/ply/internal/order"
	"github.com/plyproject/ply/pkg/value"
)

// Ordered merges lists whose strategy is merge: lists of maps item by item,
// matched by merge key (ListElement), and lists of primitives as sets
// (SetElement). Items local names are merged (through Walker), items
// recorded named and local no longer does are removed, live-only items are
// kept; then the items are ordered by Ordering.
type Ordered struct {
	Replace
	// Walker decides the items.
	Walker elements.Walker
	// Ordering selects the order of the result.
	Ordering order.Ordering
	// Patch says the tree is a patch's: its lists are ordered as the
	// patch orders them (the members it deletes dropped).
	Patch bool
}

// VisitList implements elements.Visitor.
func (o Ordered) VisitList(e *elements.ListElement) (elements.Outcome, error) {
	n := &e.Node
	if !o.Patch && (!n.LocalSet() || !n.Local.IsList()) {
		return Decide(n), nil
	}
	outs := make([]elements.Outcome, len(e.Items)+len(e.LiveExtra))
	if err := o.walk(e.Items, outs); err != nil {
		return elements.Absent, err
	}
	for j := range e.LiveExtra {
		// Deleting a key deletes every live item that carries it: such an
		// item is absent, not walked.
		x := &e.LiveExtra[j]
		if x.Deleted || (x.Of >= 0 && e.Items[x.Of].RemovedSinceRecorded()) {
			continue
		}
		out, err := o.Walker.Walk(x.Element)
		if err != nil {
			return elements.Absent, err
		}
		outs[len(e.Items)+j] = out
	}
	var ord []int
	if o.Patch {
		ord = order.PatchedList(e, o.Ordering)
	} else {
		ord = order.MergedList(e, o.Ordering)
	}
	return elements.Keep(assemble(n, ord, outs)), nil
}

// VisitSet implements elements.Visitor.
func (o Ordered) VisitSet(e *elements.SetElement) (elements.Outcome, error) {
	n := &e.Node
	if !o.Patch && (!n.LocalSet() || !n.Local.IsList()) {
		return Decide(n), nil
	}
	outs := make([]elements.Outcome, len(e.Items))
	if err := o.walk(e.Items, outs); err != nil {
		return elements.Absent, err
	}
	var ord []int
	if o.Patch {
		ord = order.PatchedSet(e, o.Ordering)
	} else {
		ord = order.MergedSet(e, o.Ordering)
	}
	return elements.Keep(assemble(n, ord, outs)), nil
}

// walk decides the members items, but those a patch deletes (absent).
func (o Ordered) walk(items []elements.Item, outs []elements.Outcome) error {
	for i := range items {
		if items[i].Deleted {
			continue
		}
		out, err := o.Walker.Walk(items[i].Element)
		if err != nil {
			return err
		}
		outs[i] = out
	}
	return nil
}

// assemble builds the list of the present outcomes in order: n's live
// list itself when they are its items as they stand (see asLive).
func assemble(n *elements.Node, order []int, outs []elements.Outcome) value.Value {
	if n.HasLive && n.Live.IsList() && asLiveItems(order, outs, n.Live.Items()) {
		return n.Live
	}
	items := make([]value.Value, 0, len(order))
	for _, id := range order {
		if outs[id].Present {
			items = append(items, outs[id].Value)
		}
	}
	return value.List(items)
}

// asLiveItems reports whether the present outcomes, in order, are live's
// items one for one (asLive).
func asLiveItems(order []int, outs []elements.Outcome, live []value.Value) bool {
	k := 0
	for _, id := range order {
		if !outs[id].Present {
			continue
		}
		if k == len(live) || !asLive(outs[id].Value, live[k]) {
			return false
		}
		k++
	}
	return k == len(live)
}
