package patchdiff

import (
	"errors"
	"regexp"
	"strconv"

	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/test/internal/difftest"
)

// missingKey matches ply's error for a patch list item lacking a merge key field (pkg/collate).
var missingKey = regexp.MustCompile(`^item (\d+)(?: has no merge key field "([^"]*)"|: a "\$patch: delete" item must give the merge key \([^)]*\); it lacks "([^"]*)")`)

// nullKeyRefused reports whether plyErr, ply's error on ApplyDirectives case c of target t, whose gates hold
// MultiFieldMergeKeys on, refuses a patch item whose merge key field is present and null, and the case agrees with
// strategicpatch once the gate is off (class NullMergeKey).
func nullKeyRefused(t *difftest.Target, c Case, plyErr error) bool {
	var ee *elements.Error
	if c.Mode != ApplyDirectives || !t.Gates.Enabled(features.MultiFieldMergeKeys) || !errors.As(plyErr, &ee) ||
		ee.Source != elements.Patch {
		return false
	}
	m := missingKey.FindStringSubmatch(ee.Msg)
	if m == nil {
		return false
	}
	i, _ := strconv.Atoi(m[1])
	field := m[2] + m[3]
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
