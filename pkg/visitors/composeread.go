package visitors

import (
	"slices"

	"github.com/plyproject/ply/internal/smp"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/value"
)

// unkeyedItem reports whether the collation refuses items, a patch's list merged by merge key key (none: "") of items
// of type t, when it reads them in turn onto a list it merges them into, where strategicpatch's merge of patches fails
// on the list too (mergepatch.ErrNoMergeKey): every item is a map holding no "$patch" but "delete" or "replace", and an
// item other than a "$patch: replace" one lacks the key's field or holds it as other than a scalar or null
// (elements.KeyOf). msg is the collation's error at the first such item (collate's localKey: smp.DeleteWithoutKey for
// a delete item lacking the field, else smp.ItemKeyMsg). Where the map merged into lacks the list or holds another
// kind there, both take the list less its "$patch" items instead.
func unkeyedItem(t *openapi.Type, items []value.Value, key string) (msg string, ok bool) {
	if key == "" || !slices.ContainsFunc(items, func(it value.Value) bool { return lacksKey(it, key) }) {
		return "", false
	}
	return refusedItem(t, items, key)
}

// refusedItem is unkeyedItem's reading of items, maps holding no "$patch" but "delete" or "replace" (mapsDirected),
// whatever they hold: whether an item not a "$patch: replace" one holds a key the collation refuses (lacking it, or
// holding it as an object or a list), and msg, its error at the first.
func refusedItem(t *openapi.Type, items []value.Value, key string) (msg string, ok bool) {
	if !mapsDirected(items) {
		return "", false
	}
	mk := []string{key}
	for i, it := range items {
		if isReplaceItem(it) {
			continue
		}
		if _, missing, bad := elements.KeyOf(it, mk, t); missing != "" {
			if isDeleteItem(it) && !bad {
				return smp.DeleteWithoutKey{What: "item", Item: i, Field: missing, MergeKey: mk}.Msg(), true
			}
			return smp.ItemKeyMsg("item", i, it, mk, missing, bad), true
		}
	}
	return "", false
}

// lacksKey reports whether list item it is a map other than a "$patch: replace" item lacking field key.
func lacksKey(it value.Value, key string) bool {
	_, keyed := it.Get(key)
	return it.IsMap() && !keyed && !isReplaceItem(it)
}

// unkeyedFailure is the error a collation gives reading list pv, a patch's list at field name of a map of type t (a
// list merged by one merge key holding an item without it, or holding it as an object or a list: refusedItem; of
// the latter, strategicpatch's merge of patches deletes by a "$patch: delete" item, finding no item of its key:
// docs/errors.md, merge-missing-key), onto held, that field of the map it merges
// into, a list of maps each holding the key as a scalar or null with no "$patch" but "delete": at the first item it
// refuses, its path below the field. It reads the list's items before it checks an order beside them. Nil elsewhere.
func unkeyedFailure(t *openapi.Type, name string, held, pv value.Value) *elements.Error {
	ft, meta := t.Child(name)
	key := soleMergeKey(&meta)
	if key == "" {
		return nil
	}
	msg, unkeyed := refusedItem(ft.Item(), pv.Items(), key)
	if !unkeyed || !held.IsList() || t.Kind != openapi.KindStruct || t.Field(name) == nil || meta.Rule != nil ||
		!elements.MergedList(ft, &meta) || !keyedHeld(held.Items(), key) ||
		!heldUndirected(held.Items(), nil, keyOfField(key)) {
		return nil
	}
	return &elements.Error{Source: elements.Patch, Msg: msg}
}

// keysUnread reports whether the collation refuses the keys of items, a patch's list merged by merge key key (none:
// "") of items of type t, when it reads them onto a list: an item lacks the key (unkeyedItem), or keyedDirected cannot
// read the list (an item not a map, a "$patch: delete" item holding the key as other than a scalar, or another
// "$patch"). (Where the map merged into holds no list there, the collation reads no keys: it takes the list less its
// "$patch" items, if every item is a map holding no "$patch" but "delete" or "replace": mapsDirected.)
func keysUnread(t *openapi.Type, items []value.Value, key string) bool {
	if key == "" {
		return false
	}
	_, unkeyed := unkeyedItem(t, items, key)
	_, _, _, read := keyedDirected(items, key)
	return unkeyed || !read
}

// mapsDirected reports whether each of items is a map holding no "$patch" but "delete" or "replace".
func mapsDirected(items []value.Value) bool {
	return !slices.ContainsFunc(items, func(it value.Value) bool {
		d, directed := it.Get(smp.DirectiveKey)
		return !it.IsMap() || (directed && !isDelete(d) && !isReplaceItem(it))
	})
}

// readFailure is the error a collation gives reading list pv, a patch's list at field name of a map of type t, onto
// held, that field of the map it merges into, before it checks an order beside pv: an item it refuses
// (unkeyedFailure), or a set's items and held's that cannot merge (setFailure). Nil elsewhere.
func readFailure(t *openapi.Type, name string, held, pv value.Value) *elements.Error {
	if err := unkeyedFailure(t, name, held, pv); err != nil {
		return err
	}
	return setFailure(t, name, held, pv)
}

// setFailure is setClassFailure for list pv, a patch's set (a list the schema merges by no merge key) at field name of
// a map of type t, onto held, that field of the map it merges into, a list, one of them holding items: the collation
// checks the classes of their items before it checks an order beside pv, which strategicpatch's merge fails on too.
// Nil elsewhere.
func setFailure(t *openapi.Type, name string, held, pv value.Value) *elements.Error {
	ft, meta := t.Child(name)
	if !held.IsList() || t.Kind != openapi.KindStruct || t.Field(name) == nil || meta.Rule != nil ||
		!elements.MergedList(ft, &meta) || len(meta.MergeKey) != 0 || (held.Len() == 0 && pv.Len() == 0) {
		return nil
	}
	return setClassFailure(ft, &meta, held, pv)
}

// orderedUnread reports whether list pv, field name of patch map p of type t, is one the collation refuses beside p's
// "$setElementOrder/<name>" where the map p merges into lacks the field: a declared list merged by one merge key,
// which under an order it builds item by item, reading each item's key (not whole, as without the order), before it
// checks the order; its items maps holding no "$patch" but "delete" or "replace", one other than a "$patch: replace"
// item lacking the key or holding it as an object or a list (refusedItem). msg is the collation's error at the first
// such item (strategicpatch's merge of patches, finding no list to delete from, takes the list less its "$patch"
// items: docs/errors.md, merge-missing-key).
func orderedUnread(t *openapi.Type, p value.Value, name string, pv value.Value) (msg string, ok bool) {
	if _, orders := p.Get(smp.SetOrderPrefix + name); !orders || !pv.IsList() || t.Kind != openapi.KindStruct ||
		t.Field(name) == nil {
		return "", false
	}
	ft, meta := t.Child(name)
	if meta.Rule != nil || !elements.MergedList(ft, &meta) || len(meta.MergeKey) != 1 {
		return "", false
	}
	return refusedItem(ft.Item(), pv.Items(), meta.MergeKey[0])
}
