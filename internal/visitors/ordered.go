package visitors

import (
	"errors"
	"strconv"

	"github.com/plyproject/ply/internal/elements"
	"github.com/plyproject/ply/pkg/value"
)

// Ordering selects how Ordered orders the items of a merged list.
type Ordering uint8

const (
	// OrderSeed is the rule of the ordering design: items local names in
	// local's order, and before them the items only live holds, in their
	// live relative order.
	OrderSeed Ordering = iota
	// OrderKubectl reproduces the order kubectl's strategic merge patch
	// gives, which interleaves live-only items with local's (see
	// kubectlListOrder).
	OrderKubectl
)

// ParseOrdering returns the Ordering a user names: "seed" or "kubectl" (the
// values of the CLI's --ordering flags). Any other name is an error that
// quotes it.
func ParseOrdering(name string) (Ordering, error) {
	switch name {
	case "seed":
		return OrderSeed, nil
	case "kubectl":
		return OrderKubectl, nil
	}
	return OrderSeed, errors.New("--ordering must be seed or kubectl, not " + strconv.Quote(name))
}

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
	Ordering Ordering
}

// VisitList implements elements.Visitor.
func (o Ordered) VisitList(e *elements.ListElement) (elements.Outcome, error) {
	n := &e.Node
	if !n.LocalSet() || !n.Local.IsList() {
		return Decide(n), nil
	}
	ids := newListIDs(e)
	outs := make([]elements.Outcome, ids.count)
	for i := range e.Items {
		out, err := o.Walker.Walk(e.Items[i].Element)
		if err != nil {
			return elements.Absent, err
		}
		outs[i] = out
	}
	for j, x := range e.LiveExtra {
		// Deleting a key deletes every live item that carries it: such an
		// item is absent, not walked.
		if x.Of >= 0 && e.Items[x.Of].RemovedSinceRecorded() {
			continue
		}
		out, err := o.Walker.Walk(x.Element)
		if err != nil {
			return elements.Absent, err
		}
		outs[len(e.Items)+j] = out
	}
	var order []int
	if o.Ordering == OrderKubectl {
		order = kubectlListOrder(e, ids)
	} else {
		left, right := withDuplicates(e, ids)
		order = append(left, right...)
	}
	return elements.Keep(assemble(order, outs)), nil
}

// VisitSet implements elements.Visitor.
func (o Ordered) VisitSet(e *elements.SetElement) (elements.Outcome, error) {
	n := &e.Node
	if !n.LocalSet() || !n.Local.IsList() {
		return Decide(n), nil
	}
	ids := newSetIDs(e)
	outs := make([]elements.Outcome, len(e.Items))
	for i := range e.Items {
		out, err := o.Walker.Walk(e.Items[i].Element)
		if err != nil {
			return elements.Absent, err
		}
		outs[i] = out
	}
	var order []int
	if o.Ordering == OrderKubectl {
		order = kubectlSetOrder(e, ids)
	} else {
		order = seedOrder(ids)
	}
	return elements.Keep(assemble(order, outs)), nil
}

// itemIDs numbers the members of a merged list: Items are 0..len(Items)-1,
// LiveExtra entries follow. byLive maps each live position to its member.
type itemIDs struct {
	count int
	// local lists the members local names, in local order.
	local []int
	// byLive lists the member at each live position.
	byLive []int
	// removed marks members deleted because local dropped them.
	removed []bool
}

func newListIDs(e *elements.ListElement) itemIDs {
	ids := itemIDs{count: len(e.Items) + len(e.LiveExtra)}
	if e.HasLive && e.Live.IsList() {
		ids.byLive = make([]int, e.Live.Len())
	}
	ids.removed = make([]bool, ids.count)
	for i := range e.Items {
		it := &e.Items[i]
		if it.LocalIndex >= 0 {
			ids.local = append(ids.local, i)
		}
		if it.LiveIndex >= 0 {
			ids.byLive[it.LiveIndex] = i
		}
		ids.removed[i] = it.RemovedSinceRecorded()
	}
	for j, x := range e.LiveExtra {
		id := len(e.Items) + j
		ids.byLive[x.LiveIndex] = id
		ids.removed[id] = x.Of >= 0 && e.Items[x.Of].RemovedSinceRecorded()
	}
	return ids
}

func newSetIDs(e *elements.SetElement) itemIDs {
	ids := itemIDs{count: len(e.Items)}
	ids.removed = make([]bool, ids.count)
	if e.HasLive && e.Live.IsList() {
		ids.byLive = make([]int, e.Live.Len())
		for p := range ids.byLive {
			ids.byLive[p] = -1
		}
	}
	for i := range e.Items {
		it := &e.Items[i]
		if it.LocalIndex >= 0 {
			ids.local = append(ids.local, i)
		}
		if it.LiveIndex >= 0 {
			ids.byLive[it.LiveIndex] = i
		}
		ids.removed[i] = it.RemovedSinceRecorded()
	}
	return ids
}

// isLocal reports whether member id is named by local (local members are
// numbered first).
func (ids *itemIDs) isLocal(id int) bool { return id < len(ids.local) }

// liveOrder lists the members at live positions in live order, skipping
// positions that repeat a member (duplicate set values).
func (ids *itemIDs) liveOrder(onlyLiveOnly bool) []int {
	out := make([]int, 0, len(ids.byLive))
	for _, id := range ids.byLive {
		if id < 0 || (onlyLiveOnly && ids.isLocal(id)) {
			continue
		}
		out = append(out, id)
	}
	return out
}

// seedOrder is the order of the design: live-only members in live order,
// then local's members in local order. (Lists of maps also place live
// duplicates of a key right after local's item: see withDuplicates.)
func seedOrder(ids itemIDs) []int {
	order := ids.liveOrder(true)
	return append(order, ids.local...)
}

// assemble builds the list of the present outcomes in order.
func assemble(order []int, outs []elements.Outcome) value.Value {
	items := make([]value.Value, 0, len(order))
	for _, id := range order {
		if outs[id].Present {
			items = append(items, outs[id].Value)
		}
	}
	return value.List(items)
}
