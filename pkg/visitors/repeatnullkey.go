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
// is not a map or lacks a key field (an earlier item's null key dropped so; smp.ItemKeyMsg, live's), e's list with
// items, or empty (a node without items, which Phase 1 builds as a *elements.SetElement) where the repeat's key's
// first item merged into live's item of that key (merged: strategicpatch drops the nulls it copies into that item's
// fields live lacks). The items applied one after another and strategicpatch fail there too. Nil elsewhere: e not a
// keyed list, lv not a list, no such item; e empty where that first item was appended as it stands (strategicpatch
// keeps its null key, and merges an empty list onto its list without error).
func keysOnto(e elements.Element, lv value.Value, merged bool) error {
	var n *elements.Node
	switch e := e.(type) {
	case *elements.ListElement:
		n = &e.Node
	case *elements.SetElement: // (a keyed list without items: Phase 1 builds it so)
		if merged {
			n = &e.Node
		}
	}
	if n == nil || !lv.IsList() || len(n.Meta.MergeKey) == 0 || !n.HasLocal || !n.Local.IsList() {
		return nil
	}
	local, itemType, mk := n.Local.Items(), n.Type.Item(), n.Meta.MergeKey
	if l, _ := e.(*elements.ListElement); l != nil {
		for _, r := range l.Repeats {
			for _, f := range mk {
				if k, ok := local[r.Pos].Get(f); ok && k.IsNull() && itemType.NullKey() {
					return n.Errorf(elements.Patch, smp.NullKeyMerge{Item: r.Pos, Field: f, Other: l.Items[r.ID].LocalIndex}.Msg())
				}
			}
		}
	}
	for i, it := range lv.Items() {
		if _, missing, bad := elements.KeyOf(it, mk, itemType); !it.IsMap() || missing != "" {
			return n.Errorf(elements.Live, smp.ItemKeyMsg("item", i, it, mk, missing, bad))
		}
	}
	return nil
}
