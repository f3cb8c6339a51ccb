package smp

import (
	"sort"

	"github.com/plyproject/ply/internal/elements"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/value"
)

// ListHasEntry reports whether kubectl's three-way patch has any entry
// for a merged list of maps (items, deletions or $setElementOrder).
func ListHasEntry(e *elements.ListElement) bool {
	return DeltaTouches(e) || DeletionsTouch(e)
}

// SetHasDeletions reports whether recorded holds values local dropped.
func SetHasDeletions(e *elements.SetElement) bool {
	if !e.HasRecorded || e.Recorded.Len() == 0 {
		return false
	}
	for i := range e.Items {
		if e.Items[i].RemovedSinceRecorded() {
			return true
		}
	}
	return false
}

// SameJSONType reports whether a and b decode to the same Go type in
// encoding/json (all numbers are one type).
func SameJSONType(a, b value.Value) bool {
	ka, kb := a.Kind(), b.Kind()
	if ka == value.KindFloat {
		ka = value.KindInt
	}
	if kb == value.KindFloat {
		kb = value.KindInt
	}
	return ka == kb
}

// DeltaTouches reports whether kubectl's delta (live -> local, additions
// and changes only) has an entry for e, a node local holds.
func DeltaTouches(e elements.Element) bool {
	n := e.Base()
	if !n.HasLive {
		return true
	}
	if n.Local.IsNull() || n.Live.IsNull() || !SameJSONType(n.Local, n.Live) {
		return !(n.Local.IsNull() && n.Live.IsNull())
	}
	switch e := e.(type) {
	case *elements.TypeElement:
		return fieldsDeltaTouch(n, e.Fields)
	case *elements.MapElement:
		return fieldsDeltaTouch(n, e.Fields)
	case *elements.ListElement:
		live, local := n.Live.Len(), n.Local.Len()
		if live == 0 {
			return local > 0
		}
		for i := range e.Items {
			it := &e.Items[i]
			if it.LocalIndex < 0 {
				break
			}
			if it.LiveIndex < 0 || DeltaTouches(it.Element) {
				return true
			}
		}
		return local > 0 && !listOrderSame(e)
	case *elements.SetElement:
		return SetDeltaReorders(e)
	case *elements.AtomicElement:
		if n.Meta.Strategy.Has(openapi.StrategyReplace) && n.Local.IsMap() {
			return true
		}
	}
	return !value.Equal(n.Local, n.Live)
}

func fieldsDeltaTouch(n *elements.Node, fields elements.Fields) bool {
	retain := n.Meta.Strategy.Has(openapi.StrategyRetainKeys)
	for _, f := range fields {
		c := f.Element.Base()
		if c.HasLocal && DeltaTouches(f.Element) {
			return true
		}
		if retain && !c.HasLocal && c.HasLive && !c.Live.IsNull() {
			return true
		}
	}
	return false
}

// listOrderSame reports whether live's items carry exactly local's keys in
// local's order.
func listOrderSame(e *elements.ListElement) bool {
	if e.Live.Len() != e.Local.Len() {
		return false
	}
	for i := range e.Items {
		it := &e.Items[i]
		if it.LocalIndex < 0 {
			break
		}
		if it.LiveIndex != it.LocalIndex {
			return false
		}
	}
	return true
}

// DeletionsTouch reports whether kubectl's deletions (recorded -> local,
// removals only) have an entry for e, a node local holds.
func DeletionsTouch(e elements.Element) bool {
	n := e.Base()
	if !n.HasRecorded || !n.HasLocal || n.Local.IsNull() || n.Recorded.IsNull() || !SameJSONType(n.Recorded, n.Local) {
		return false
	}
	switch e := e.(type) {
	case *elements.TypeElement:
		return fieldsDeletionsTouch(e.Fields)
	case *elements.MapElement:
		return fieldsDeletionsTouch(e.Fields)
	case *elements.ListElement:
		if n.Recorded.Len() == 0 {
			return false
		}
		for i := range e.Items {
			it := &e.Items[i]
			if it.RecordedIndex < 0 {
				continue
			}
			if it.LocalIndex < 0 || DeletionsTouch(it.Element) {
				return true
			}
		}
	case *elements.SetElement:
		return SetHasDeletions(e)
	}
	return false
}

func fieldsDeletionsTouch(fields elements.Fields) bool {
	for _, f := range fields {
		c := f.Element.Base()
		if !c.HasRecorded {
			continue
		}
		if !c.HasLocal || DeletionsTouch(f.Element) {
			return true
		}
	}
	return false
}

// SetDeltaReorders reports whether kubectl's delta has entries for a merged
// set local and live both hold: local is not empty and differs from live
// sorted by KeyString. (kubectl sorts live's list in place before it
// compares, so a set whose only difference from local is live's order,
// when local is sorted, gets no entry.)
func SetDeltaReorders(e *elements.SetElement) bool {
	if e.Local.Len() == 0 {
		return false
	}
	live := e.Live.Items()
	if len(live) != e.Local.Len() {
		return true
	}
	sorted := make([]value.Value, len(live))
	copy(sorted, live)
	sort.SliceStable(sorted, func(i, j int) bool { return KeyString(sorted[i]) < KeyString(sorted[j]) })
	for i, v := range e.Local.Items() {
		if !value.Equal(v, sorted[i]) {
			return true
		}
	}
	return false
}
