package visitors

import (
	"github.com/plyproject/ply/internal/smp"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/value"
)

// keysOnto returns the error collating keyed list e of an apply-mode repeat's tree with lv as live gives at the merge
// keys of its items and lv's, where lv is a list, in the collation's order: first a later item of a key of e
// (elements.Repeat, Phase 1 collating the list without live) holding that key's field null (openapi.Type.NullKey):
// merged into the first item of its key, the null deletes the field, leaving an item without its merge key
// (smp.NullKeyMerge, the first such item in the patch's order, naming the first of its key); then an item of lv that
// is not a map or lacks a key field (an earlier item's null key dropped so; smp.ItemKeyMsg, live's). The items applied
// one after another and strategicpatch fail there too. Nil elsewhere: e not a keyed list, lv not a list, no such item.
func keysOnto(e elements.Element, lv value.Value) error {
	l, _ := e.(*elements.ListElement)
	if l == nil || !lv.IsList() || len(l.Meta.MergeKey) == 0 || !l.HasLocal || !l.Local.IsList() {
		return nil
	}
	local, itemType, mk := l.Local.Items(), l.Type.Item(), l.Meta.MergeKey
	for _, r := range l.Repeats {
		for _, f := range mk {
			if k, ok := local[r.Pos].Get(f); ok && k.IsNull() && itemType.NullKey() {
				return l.Errorf(elements.Patch, smp.NullKeyMerge{Item: r.Pos, Field: f, Other: l.Items[r.ID].LocalIndex}.Msg())
			}
		}
	}
	for i, it := range lv.Items() {
		if _, missing, bad := elements.KeyOf(it, mk, itemType); !it.IsMap() || missing != "" {
			return l.Errorf(elements.Live, smp.ItemKeyMsg("item", i, it, mk, missing, bad))
		}
	}
	return nil
}
