package collate

import (
	"github.com/plyproject/ply/internal/smp"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/fieldpath"
	"github.com/plyproject/ply/pkg/value"
)

// nullKeysDropped is the error strategicpatch meets applying patch list e (gate UniqueMergeKeys off) where an item
// whose key live holds holds, at a field live's item lacks, a keyed list with an item whose merge key field is null
// (openapi.Type.NullKey), and a later item of that key (a Repeat) holds the list too: merging the first item into
// live's, strategicpatch copies what live lacks with its nulls dropped, so the copied item lacks its key, and merging
// the later item's list onto the copy fails on it. The error names the first item's list and the item; nil elsewhere
// (and merging two patches, which keeps nulls).
func (c *collator) nullKeysDropped(e *elements.ListElement) error {
	if !c.opts.Patch || c.opts.Compose || len(e.Repeats) == 0 {
		return nil
	}
	_, local, live := e.Lists()
	itemType := e.Type.Item()
	for _, r := range e.Repeats {
		it := e.Items[r.ID]
		if it.LiveIndex < 0 || it.LocalIndex < 0 {
			continue
		}
		first := local[it.LocalIndex]
		at := e.Path().Child(fieldpath.Key(elements.KeyFields(first, e.Meta.MergeKey, itemType)))
		if p, i, f, ok := droppedKey(first, local[r.Pos], live[it.LiveIndex], itemType, true, at); ok {
			return &elements.Error{Source: elements.Patch, Path: p, Msg: smp.NullKeyDropped{Item: i, Field: f}.Msg()}
		}
	}
	return nil
}

// droppedKey walks first, a patch's map of type t, beside later, a later patch map merged onto first's outcome, and
// live, live's value there (held: live holds it), for a keyed list first and later both hold that strategicpatch
// copies into live with nulls dropped (live lacks it), holding an item whose key field f is null: its path, the item's
// index and f.
func droppedKey(first, later, live value.Value, t *openapi.Type, held bool, at fieldpath.Path) (fieldpath.Path, int, string, bool) {
	if !first.IsMap() || !later.IsMap() {
		return nil, 0, "", false
	}
	for _, f := range later.Fields() {
		fv, ok := first.Get(f.Key)
		if !ok {
			continue
		}
		ct, meta := t.Child(f.Key)
		lv, inLive := live.Get(f.Key)
		inLive = held && inLive && lv.Kind() == fv.Kind()
		p := at.Child(fieldpath.Field(f.Key))
		switch {
		case fv.IsMap() && f.Value.IsMap():
			if q, i, k, ok := droppedKey(fv, f.Value, lv, ct, inLive, p); ok {
				return q, i, k, true
			}
		case !inLive && fv.IsList() && f.Value.IsList() && len(meta.MergeKey) == 1 && elements.MergedList(ct, &meta):
			if q, i, k, ok := droppedInList(fv, f.Value, ct.Item(), meta.MergeKey[0], p); ok {
				return q, i, k, true
			}
		}
	}
	return nil, 0, "", false
}

// droppedInList is droppedKey for keyed list first (items of type t, merge key mk, at path at) that strategicpatch
// copies into live with nulls dropped, and later's list merged onto the copy: an item of first whose key field is null
// (where t's key may be null), else what droppedKey finds in the item of first that each item of later merges into
// (the first of its key), copied as well.
func droppedInList(first, later value.Value, t *openapi.Type, mk string, at fieldpath.Path) (fieldpath.Path, int, string, bool) {
	if t.NullKey() {
		for i, item := range first.Items() {
			if k, ok := item.Get(mk); ok && k.IsNull() {
				return at, i, mk, true
			}
		}
	}
	for _, l := range later.Items() {
		k, ok := l.Get(mk)
		if !ok || k.IsNull() {
			continue
		}
		for _, item := range first.Items() {
			if fk, ok := item.Get(mk); ok && value.Equal(fk, k) {
				p := at.Child(fieldpath.Key(elements.KeyFields(item, []string{mk}, t)))
				if q, i, f, ok := droppedKey(item, l, value.Value{}, t, false, p); ok {
					return q, i, f, true
				}
				break
			}
		}
	}
	return nil, 0, "", false
}

// nullKeyMerges reports whether a patch's item of key k (fields fields), applied, merges into an item of its key that
// it cannot merge into: k has a null field (openapi.Type.NullKey, kubectl's reading), whose null in the patch's item
// deletes the field of the item it merges into, leaving an item without its merge key, which strategicpatch refuses.
// Merging two patches keeps the null, so there the items merge. (An earlier item of the patch merges so only where
// live holds the list: strategicpatch copies a list live lacks as it stands.)
func (c *collator) nullKeyMerges(src elements.Source, k elements.Key, fields int) bool {
	if src != elements.Patch || !c.opts.Patch || c.opts.Compose {
		return false
	}
	for _, f := range k[:fields] {
		if f.Kind == value.KindNull {
			return true
		}
	}
	return false
}

// nullKeyMerge is the error of the patch's item i of keyed list n whose null merge-key field (of key k, merge key mk)
// names item j too, live's where inLive, else the patch's.
func nullKeyMerge(n *elements.Node, i int, mk []string, k elements.Key, inLive bool, j int) error {
	f := mk[0]
	for x := range mk {
		if k[x].Kind == value.KindNull {
			f = mk[x]
			break
		}
	}
	return n.Errorf(elements.Patch, smp.NullKeyMerge{Item: i, Field: f, InLive: inLive, Other: j}.Msg())
}
