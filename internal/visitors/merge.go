package visitors

import (
	"github.com/plyproject/ply/internal/elements"
	"github.com/plyproject/ply/pkg/value"
)

// Merge merges maps and structs field by field: each field is decided by
// the visitor its own strategy selects (through Walker). Leaves are decided
// as Replace does.
type Merge struct {
	Replace
	// Walker decides the children.
	Walker elements.Walker
}

// VisitMap implements elements.Visitor.
func (m Merge) VisitMap(e *elements.MapElement) (elements.Outcome, error) {
	return mergeFields(m.Walker, &e.Node, e.Fields, false)
}

// VisitType implements elements.Visitor.
func (m Merge) VisitType(e *elements.TypeElement) (elements.Outcome, error) {
	return mergeFields(m.Walker, &e.Node, e.Fields, false)
}

// RetainKeys merges like Merge and clears every field the node does not
// keep: live fields outside local's keys (or outside a patch's
// "$retainKeys") are dropped, so switching a union member (a Deployment
// strategy from RollingUpdate to Recreate, a volume's source) removes the
// old member.
type RetainKeys struct {
	Merge
}

// VisitMap implements elements.Visitor.
func (r RetainKeys) VisitMap(e *elements.MapElement) (elements.Outcome, error) {
	return mergeFields(r.Walker, &e.Node, e.Fields, true)
}

// VisitType implements elements.Visitor.
func (r RetainKeys) VisitType(e *elements.TypeElement) (elements.Outcome, error) {
	return mergeFields(r.Walker, &e.Node, e.Fields, true)
}

// mergeFields builds the map of a node local sets to a map: each child's
// outcome, in key order; with retain, children the node does not keep are
// cleared without being walked. A node keeps the fields a patch's
// "$retainKeys" lists; without one, the fields local sets (none cleared
// when local sets none: kubectl sends no $retainKeys then).
func mergeFields(w elements.Walker, n *elements.Node, fields elements.Fields, retain bool) (elements.Outcome, error) {
	if !n.LocalSet() || !n.Local.IsMap() {
		return Decide(n), nil
	}
	var keep []string
	listed := n.Dirs != nil && n.Dirs.HasRetainKeys
	if listed {
		keep = n.Dirs.RetainKeys
	}
	retain = retain && (listed || hasSetField(fields))
	var out []value.Field
	// Until a field's outcome is not live's own field (the same key, and
	// live's Value or, for a scalar, one of its kind equal to it), out
	// stays nil and same counts live's fields matched: a map whose fields
	// all come out as live has them is live's map, shared instead of
	// copied.
	live := n.Live.Fields()
	same := 0
	r := 0
	for _, f := range fields {
		if retain {
			if !listed && !f.Element.Base().LocalSet() {
				continue
			}
			for r < len(keep) && keep[r] < f.Name {
				r++
			}
			if listed && (r == len(keep) || keep[r] != f.Name) {
				continue
			}
		}
		o, err := w.Walk(f.Element)
		if err != nil {
			return elements.Absent, err
		}
		// An outcome that is null is live's null, untouched: kept.
		if !o.Present {
			continue
		}
		if out == nil && same < len(live) && live[same].Key == f.Name && asLive(o.Value, live[same].Value) {
			same++
			continue
		}
		if out == nil {
			out = append(make([]value.Field, 0, len(fields)), live[:same]...)
		}
		out = append(out, value.Field{Key: f.Name, Value: o.Value})
	}
	if out == nil && same == len(live) && n.HasLive {
		return elements.Keep(n.Live), nil
	}
	if out == nil {
		out = append(make([]value.Field, 0, same), live[:same]...)
	}
	return elements.Keep(value.MapFromSorted(out)), nil
}

// hasSetField reports whether local sets any of the fields.
func hasSetField(fields elements.Fields) bool {
	for _, f := range fields {
		if f.Element.Base().LocalSet() {
			return true
		}
	}
	return false
}

// asLive reports whether outcome o can be given as live's value v: it is
// v itself (a shared subtree), or a scalar of v's kind equal to it.
func asLive(o, v value.Value) bool {
	if o == v {
		return true
	}
	return o.IsScalar() && o.Kind() == v.Kind() && value.Equal(o, v)
}
