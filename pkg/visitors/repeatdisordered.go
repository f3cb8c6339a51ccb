package visitors

import (
	"github.com/plyproject/ply/internal/smp"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/fieldpath"
	"github.com/plyproject/ply/pkg/value"
)

// repeatedDisordered reports whether apply mode's Repeat r of patch item p (type t) fails onto v, its key's outcome,
// with its own collation's error r.Err: the order check of a set of scalars p sets at field FailsAt (merged, no merge
// key, no merge rule, no "$deleteFromPrimitiveList" beside it) that its "$setElementOrder" contradicts, the set naming
// a value twice or not (setOrderMismatch gives the same message), not one limitFailure walks (Disordered). v holds
// the field as a list whose items and p's are scalars of one kind (setOfKind) and, before it (by name), no field a
// merge rule names: a collation with v as live reaches that list (p's fields before it scalars or nulls: FailsAt),
// reads v's items there, and checks the order as without v; strategicpatch's validatePatchWithSetOrderList fails too.
func repeatedDisordered(r elements.Repeat, p value.Value, t *openapi.Type, v value.Value) bool {
	e, ok := r.Err.(*elements.Error)
	if !ok || r.Element != nil || r.Disordered || r.MapsBefore || r.FailsAt == "" || len(e.Path) != 1 ||
		e.Path[0].Kind != fieldpath.FieldElement || e.Path[0].Field != r.FailsAt || !v.IsMap() || !p.IsMap() {
		return false
	}
	f := orderedFieldOf(p, t, r.FailsAt)
	lv, held := v.Get(r.FailsAt)
	if !held || !lv.IsList() || !elements.MergedList(f.t, &f.meta) || len(f.meta.MergeKey) > 0 || f.meta.Rule != nil ||
		f.deletes || !f.set || !f.list.IsList() || !f.order.IsList() || !plainEntries(f.order.Items(), nil) ||
		!setOfKind(lv.Items(), f.list.Items()) {
		return false
	}
	for _, g := range v.Fields() {
		if _, meta := t.Child(g.Key); g.Key < r.FailsAt && meta.Rule != nil {
			return false
		}
	}
	return e.Msg != "" && setOrderMismatch(r.FailsAt, f.list.Items(), f.order.Items()) == e.Msg
}

// setOrderMismatch is smp.OrderMismatch for set list field name of a patch, its items, ordered by entries: each item's
// identity the first place of its value in the list, each entry's that of its value, or a place no item holds.
func setOrderMismatch(name string, items, entries []value.Value) string {
	first := firstPlaces(items, scalarKey)
	seq, ids := make([]int, len(items)), make([]int, len(entries))
	for i, it := range items {
		seq[i] = first[scalarKey(it)]
	}
	for i, en := range entries {
		if at, named := first[scalarKey(en)]; named {
			ids[i] = at
		} else {
			ids[i] = len(items)
		}
	}
	return smp.OrderMismatch(name, seq, ids)
}
