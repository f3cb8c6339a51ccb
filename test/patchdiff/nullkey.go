package patchdiff

import (
	"errors"

	"github.com/plyproject/ply/internal/smp"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/test/internal/difftest"
)

// missingKey reads ply's error for an item of a patch's list lacking a merge key field (pkg/collate: a data item's, or
// a "$patch: delete" item's): the item's index and the field; ok is false for another error.
func missingKey(msg string) (item int, field string, ok bool) {
	if e, ok := smp.ReadMissingMergeKey(msg); ok {
		return e.Item, e.Field, true
	}
	if e, ok := smp.ReadDeleteWithoutKey(msg); ok {
		return e.Item, e.Field, true
	}
	return 0, "", false
}

// nullKeyRefused reports whether plyErr, ply's error on ApplyDirectives case c of target t, whose gates hold
// MultiFieldMergeKeys on, refuses a patch item whose merge key field is present and null, and the case agrees with
// strategicpatch once the gate is off (class NullMergeKey).
func nullKeyRefused(t *difftest.Target, c Case, plyErr error) bool {
	var ee *elements.Error
	if c.Mode != ApplyDirectives || !t.Gates.Enabled(features.MultiFieldMergeKeys) || !errors.As(plyErr, &ee) ||
		ee.Source != elements.Patch {
		return false
	}
	i, field, ok := missingKey(ee.Msg)
	if !ok {
		return false
	}
	list, ok := difftest.Lookup(c.Patch, ee.Path)
	if !ok || !list.IsList() || i >= list.Len() {
		return false
	}
	if v, ok := list.Items()[i].Get(field); !ok || !v.IsNull() {
		return false
	}
	off := *t
	off.Gates, off.Root = t.Gates.With(features.MultiFieldMergeKeys, false), t.Root.Kubectl()
	return !Run(&off, c).Class.Failed()
}
