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
	return o.visit(e, e.Items, e.LiveExtra)
}

// VisitSet implements elements.Visitor.
func (o Ordered) VisitSet(e *elements.SetElement) (elements.Outcome, error) {
	return o.visit(e, e.Items, nil)
}

// visit decides the members of a merged list (its Items, then live's
// repeats of a key) and lists the present outcomes in order. Members a
// patch deletes, and live's repeats of a key local deleted (deleting a
// key deletes every live item that carries it), are absent, not walked.
func (o Ordered) visit(e elements.Element, items, extra []elements.Item) (elements.Outcome, error) {
	n := e.Base()
	if !o.Patch && (!n.LocalSet() || !n.Local.IsList()) {
		return Decide(n), nil
	}
	outs := make([]elements.Outcome, len(items)+len(extra))
	for id := range outs {
		var it *elements.Item
		if id < len(items) {
			it = &items[id]
		} else {
			it = &extra[id-len(items)]
		}
		if it.Deleted || (it.Of >= 0 && items[it.Of].RemovedSinceRecorded()) {
			continue
		}
		out, err := o.Walker.Walk(it.Element)
		if err != nil {
			return elements.Absent, err
		}
		outs[id] = out
	}
	ord := order.List(e, o.Ordering, o.Patch)
	if n.HasLive && n.Live.IsList() && asLiveItems(ord, outs, n.Live.Items()) {
		return elements.Keep(n.Live), nil
	}
	list := make([]value.Value, 0, len(ord))
	for _, id := range ord {
		if outs[id].Present {
			list = append(list, outs[id].Value)
		}
	}
	return elements.Keep(value.List(list)), nil
}

// asLiveItems reports whether the present outcomes, in order, are live's
// items one for one (asLive): the list is then live's, shared.
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
