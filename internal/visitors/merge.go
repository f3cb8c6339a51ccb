package visitors

import (
	"slices"

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
	// Retain makes it the visitor of rule RetainKeys: it clears every field
	// the node does not keep, live fields outside local's keys (or outside a
	// patch's "$retainKeys"), so switching a union member (a Deployment
	// strategy from RollingUpdate to Recreate, a volume's source) removes
	// the old member.
	Retain bool
}

// VisitMap implements elements.Visitor.
func (m Merge) VisitMap(e *elements.MapElement) (elements.Outcome, error) {
	return m.fields(&e.Node, e.Fields)
}

// VisitType implements elements.Visitor.
func (m Merge) VisitType(e *elements.TypeElement) (elements.Outcome, error) {
	return m.fields(&e.Node, e.Fields)
}

// fields builds the map of a node local sets to a map: each child's
// outcome, in key order; with Retain, children the node does not keep are
// cleared without being walked. A node keeps the fields a patch's
// "$retainKeys" lists; without one, the fields local sets (none cleared
// when local sets none: kubectl sends no $retainKeys then).
func (m Merge) fields(n *elements.Node, fields elements.Fields) (elements.Outcome, error) {
	if !n.LocalSet() || !n.Local.IsMap() {
		return Decide(n), nil
	}
	listed := n.Dirs != nil && n.Dirs.HasRetainKeys
	localSet := func(f elements.Field) bool { return f.Element.Base().LocalSet() }
	retain := m.Retain && (listed || slices.ContainsFunc(fields, localSet))
	// Until a field's outcome is not live's own field (see asLive), out
	// stays nil and same counts live's fields matched: a map whose fields
	// all come out as live has them is live's map, shared, not copied.
	var out []value.Field
	live, same := n.Live.Fields(), 0
	for _, f := range fields {
		if retain && listed {
			if _, kept := slices.BinarySearch(n.Dirs.RetainKeys, f.Name); !kept {
				continue
			}
		} else if retain && !localSet(f) {
			continue
		}
		o, err := m.Walker.Walk(f.Element)
		if err != nil {
			return elements.Absent, err
		}
		// An outcome that is null is live's null, untouched: kept.
		switch {
		case !o.Present:
		case out == nil && same < len(live) && live[same].Key == f.Name && asLive(o.Value, live[same].Value):
			same++
		default:
			if out == nil {
				out = append(make([]value.Field, 0, len(fields)), live[:same]...)
			}
			out = append(out, value.Field{Key: f.Name, Value: o.Value})
		}
	}
	if out == nil {
		if same == len(live) && n.HasLive && n.Live.IsMap() {
			return elements.Keep(n.Live), nil
		}
		// A prefix of live's fields: shared as well (values are immutable).
		out = live[:same:same]
	}
	return elements.Keep(value.MapFromSorted(out)), nil
}

// asLive reports whether outcome o can be given as live's value v: it is
// v itself (a shared subtree, or a bool or number with v's kind and bits:
// -0 is not 0), or a string equal to it.
func asLive(o, v value.Value) bool {
	return o == v || (o.Kind() == value.KindString && v.Kind() == value.KindString && value.Equal(o, v))
}
