package visitors

import (
	"strings"

	"github.com/plyproject/ply/internal/smp"
	"github.com/plyproject/ply/pkg/value"
)

// deletesNonListBeside reports whether patch map pm holds a "$deleteFromPrimitiveList/<f>" whose value is not a list
// beside f: a collation with live holding pm's map refuses the two (strategicpatch reads both as f, in Go's map
// order), whatever live's f holds, so a repeat holding it onto an outcome holding the map is left to the front-end,
// which collates it with the outcome as live and gives that error.
func deletesNonListBeside(pm value.Value) bool {
	for _, f := range pm.Fields() {
		name, deleting := strings.CutPrefix(f.Key, smp.DeletePrefix)
		if _, set := pm.Get(name); deleting && set && !f.Value.IsList() {
			return true
		}
	}
	return false
}
