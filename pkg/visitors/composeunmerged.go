package visitors

import (
	"github.com/plyproject/ply/internal/smp"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/elements"
)

// unmergedOrdered reports whether field f of compose mode's repeat map m, gate MultiFieldMergeKeys on, is a list
// merged by no strategy (or of no schema) that m orders by "$setElementOrder/<f>" (Phase 1's node holding the
// order: its list empty or left out), and if so err, the error a collation with the outcome as live gives there:
// that collation refuses the order at the field (format.CheckDirs: smp.OrderOfUnmerged), each field before it built
// without error (composeChecked walks them first); nil beside a "$deleteFromPrimitiveList/<f>", whose checks come
// first (not known: the repeat is then not decided).
func unmergedOrdered(m *elements.MapElement, f elements.Field) (ordered bool, err error) {
	n := f.Element.Base()
	if n.Dirs == nil || !n.Dirs.HasSetOrder || n.Meta.Rule != nil || elements.MergedList(n.Type, &n.Meta) ||
		(n.Type.Kind != openapi.KindList && n.Type.Kind != openapi.KindUnknown) {
		return false, nil
	}
	if _, deletes := m.Local.Get(smp.DeletePrefix + f.Name); deletes || n.Dirs.HasDeleteFromList {
		return true, nil
	}
	return true, n.Errorf(elements.Patch, smp.OrderOfUnmerged(f.Name))
}
