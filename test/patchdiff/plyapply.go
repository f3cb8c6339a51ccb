package patchdiff

import (
	"github.com/plyproject/ply/pkg/patch"
	"github.com/plyproject/ply/pkg/value"
	"github.com/plyproject/ply/test/internal/difftest"
)

// plyApply applies p to live with ply's pkg/patch, with t's schema and
// gates and strategicpatch's list order, the one compared
// (difftest.Target.PatchOptions).
func plyApply(t *difftest.Target, live, p value.Value) (value.Value, error) {
	return patch.Apply(live, p, t.PatchOptions())
}
