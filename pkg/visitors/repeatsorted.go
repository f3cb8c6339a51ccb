package visitors

import (
	"strings"

	"github.com/plyproject/ply/internal/smp"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/value"
)

// sortedOntoLacking returns the outcome of Repeat r, outside compose mode, of patch item p (a map of type t) merged
// into v, its key's outcome, where Phase 1 refused, without an outcome, a "$setElementOrder" of a list p sets that the
// schema merges by no strategy for what that outcome's list decides (r.Err the refusal, smp.OrderOfUnmerged, no
// Element: an empty order beside items, or a "$deleteFromPrimitiveList" beside the list; collate's byOutcome), and v,
// a map, lacks every list p orders. p's fields are then each either a scalar (no null) at a field the schema types as
// a scalar without merge rules, over v's scalar or nothing, or such a list of scalars of one class p orders by a
// "$setElementOrder" of scalars it follows (smp.FollowsOrder; any list follows an empty one), deleting from it or not
// by a "$deleteFromPrimitiveList" of scalars of the items' class; p holds no other "$" key. strategicpatch adds the list
// sorted by the directive (normalizeSliceOrder: smp.SortedBy; where the directive is empty, every comparison true,
// as onto no list) and then deletes the values from it (deleteFromSlice: smp.WithoutValues), and sets the scalars,
// as a collation of p with v as live builds it (collate's kubectlOrdered). ok is false elsewhere.
func sortedOntoLacking(r elements.Repeat, p value.Value, t *openapi.Type, v value.Value) (out value.Value, ok bool) {
	e, refused := r.Err.(*elements.Error)
	if r.Element != nil || !refused || len(e.Path) != 1 || !p.IsMap() || !v.IsMap() ||
		e.Msg != smp.OrderOfUnmerged(e.Path[0].Field) {
		return value.Value{}, false
	}
	out = v
	for _, f := range p.Fields() {
		name := strings.TrimPrefix(strings.TrimPrefix(f.Key, smp.SetOrderPrefix), smp.DeletePrefix)
		pv, _ := p.Get(name)
		lv, held := v.Get(name)
		ft, meta := t.Child(name)
		switch {
		case name != f.Key && ft.Kind == openapi.KindList && ft.Item().Kind == openapi.KindPrimitive && orderedUnmerged(t, name, pv, lv) && !held:
			continue // (a directive of a list p sets, read with it)
		case strings.HasPrefix(f.Key, "$"):
			return value.Value{}, false
		case ft.Kind == openapi.KindPrimitive && meta.Rule == nil && f.Value.IsScalar() && (!held || lv.IsScalar()):
			out = out.With(f.Key, f.Value)
		default:
			list, sorted := sortedLacking(p, ft, f.Key, f.Value)
			if !sorted || held {
				return value.Value{}, false
			}
			out = out.With(f.Key, list)
		}
	}
	return out, true
}

// sortedLacking returns list field name of patch map p, pv, a non-empty list of type t the schema merges by no
// strategy, ordered by p's "$setElementOrder/<name>" and deleted from by its "$deleteFromPrimitiveList/<name>" as
// strategicpatch adds it where the outcome lacks the list (sortedOntoLacking); ok is false where it is not such a list.
func sortedLacking(p value.Value, t *openapi.Type, name string, pv value.Value) (list value.Value, ok bool) {
	order, ordered := p.Get(smp.SetOrderPrefix + name)
	deleted, deletes := p.Get(smp.DeletePrefix + name)
	if t.Kind != openapi.KindList || !ordered || !order.IsList() || !allScalars(order.Items()) || !pv.IsList() ||
		pv.Len() == 0 || !smp.ScalarsOfOneClass(pv.Items(), nil) || !smp.FollowsOrder(pv.Items(), order.Items()) {
		return value.Value{}, false
	}
	if deletes && (!deleted.IsList() || (deleted.Len() > 0 && !smp.ScalarsOfOneClass(pv.Items(), deleted.Items()))) {
		return value.Value{}, false
	}
	return smp.WithoutValues(smp.SortedBy(pv.Items(), order.Items()), deleted.Items()), true
}

// sortedCheck holds sortedOntoLacking's answer for a repeat onto an outcome (repeat.go's switch).
type sortedCheck struct{ out value.Value }

// of reports whether sortedOntoLacking decides Repeat r of item p (type t) merged into v, keeping its outcome.
func (s *sortedCheck) of(r elements.Repeat, p value.Value, t *openapi.Type, v value.Value) bool {
	out, ok := sortedOntoLacking(r, p, t, v)
	s.out = out
	return ok
}
