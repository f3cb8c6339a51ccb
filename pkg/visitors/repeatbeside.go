package visitors

import (
	"github.com/plyproject/ply/internal/smp"
	"github.com/plyproject/ply/pkg/elements"
)

// deletesNonListBeside reports whether m's patch map holds a "$deleteFromPrimitiveList/<f>" directive key whose value
// is not a list beside f (smp.DeletionBesideSet): a collation with live holding the map refuses the two (strategicpatch
// reads both as f, in Go's map order), whatever live's f holds, so a repeat holding it onto an outcome holding the map
// is left to the front-end, which collates it with the outcome as live and gives that error.
func deletesNonListBeside(m *elements.MapElement) bool {
	return smp.DeletionBesideSet(m.Local, m.Type) != ""
}
