package patchdiff

import (
	"github.com/plyproject/ply/pkg/patch"
	"github.com/plyproject/ply/pkg/value"
	"github.com/plyproject/ply/test/internal/difftest"
)

// PlyApply is ply's side of the apply modes: by default pkg/patch with t's schema and gates and strategicpatch's list
// order (difftest.Target.PatchOptions). A spec may set another front-end of ply's engine (pkg/strategicpatch, reading
// the oracle's LookupPatchMeta) for a batch, and restore it; RunMany reads it as it starts.
var PlyApply = func(t *difftest.Target, live, p value.Value) (value.Value, error) {
	return patch.Apply(live, p, t.PatchOptions())
}
