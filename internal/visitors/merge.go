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

// RetainKeys merges like Merge and clears every field local does not set:
// live fields outside local's keys are dropped, so switching a union member
// (a Deployment strategy from RollingUpdate to Recreate, a volume's source)
// removes the old member.
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
// outcome, in key order; with retain, children local does not set are
// cleared without being walked.
func mergeFields(w elements.Walker, n *elements.Node, fields elements.Fields, retain bool) (elements.Outcome, error) {
	if !n.LocalSet() || !n.Local.IsMap() {
		return Decide(n), nil
	}
	// kubectl sends no $retainKeys for a map local gives no non-null field,
	// so such a map merges.
	retain = retain && hasSetField(fields)
	out := make([]value.Field, 0, len(fields))
	for _, f := range fields {
		if retain && !f.Element.Base().LocalSet() {
			continue
		}
		o, err := w.Walk(f.Element)
		if err != nil {
			return elements.Absent, err
		}
		if o.Present && !o.Value.IsNull() {
			out = append(out, value.Field{Key: f.Name, Value: o.Value})
		}
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
