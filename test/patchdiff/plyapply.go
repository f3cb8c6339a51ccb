package patchdiff

import (
	"github.com/plyproject/ply/pkg/patch"
	"github.com/plyproject/ply/pkg/value"
	"github.com/plyproject/ply/test/internal/difftest"
)

// plyApply applies p to live with ply's pkg/patch, with t's schema and
// strategicpatch's list order (patch.OrderKubectl), the one compared.
func plyApply(t *difftest.Target, live, p value.Value) (value.Value, error) {
	return patch.Apply(live, p, patch.Options{Schema: t.Schema, TypeName: t.TypeName, Ordering: patch.OrderKubectl})
}
