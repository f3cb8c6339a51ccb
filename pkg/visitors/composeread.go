package visitors

import (
	"slices"

	"github.com/plyproject/ply/internal/smp"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/value"
)

// unkeyedItem reports whether items, a patch's list merged by merge key key (none: "") of items of type t, hold an
// item the collation refuses reading them in turn onto a list it merges into, where strategicpatch's merge of patches
// fails on the list too: each item is a map holding no "$patch" but "delete" or "replace", and one not a "$patch:
// replace" item lacks the key's field (mergepatch.ErrNoMergeKey, for a delete item as it deletes, for a data item as it
// merges or ranks it). i is the first item not a "$patch: replace" one whose key the collation refuses, lacking it or
// holding it as other than a scalar or null (elements.KeyOf), msg its error (collate's localKey: smp.DeleteWithoutKey
// for a delete item lacking it, else smp.ItemKeyMsg). Merged where the map merged into lacks the list or holds
// another kind there, both take the list less its "$patch" items.
func unkeyedItem(t *openapi.Type, items []value.Value, key string) (i int, msg string, ok bool) {
	if key == "" || !slices.ContainsFunc(items, func(it value.Value) bool { return lacksKey(it, key) }) {
		return 0, "", false
	}
	return refusedItem(t, items, key)
}

// refusedItem is unkeyedItem's reading of items, maps holding no "$patch" but "delete" or "replace" (mapsDirected),
// whatever they hold: i the first item not a "$patch: replace" one whose key the collation refuses (lacking it, or
// holding it as an object or a list), msg its error.
func refusedItem(t *openapi.Type, items []value.Value, key string) (i int, msg string, ok bool) {
	if !mapsDirected(items) {
		return 0, "", false
	}
	mk := []string{key}
	for i, it := range items {
		if isReplaceItem(it) {
			continue
		}
		if _, missing, bad := elements.KeyOf(it, mk, t); missing != "" {
			if isDeleteItem(it) && !bad {
				return i, smp.DeleteWithoutKey{What: "item", Item: i, Field: missing, MergeKey: mk}.Msg(), true
			}
			return i, smp.ItemKeyMsg("item", i, it, mk, missing, bad), true
		}
	}
	return 0, "", false
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
	_, msg, unkeyed := refusedItem(ft.Item(), pv.Items(), key)
	if !unkeyed || !held.IsList() || t.Kind != openapi.KindStruct || t.Field(name) == nil || meta.Rule != nil ||
		!elements.MergedList(ft, &meta) || !keyedHeld(held.Items(), key) ||
		!heldUndirected(held.Items(), nil, keyOfField(key)) {
		return nil
	}
	return &elements.Error{Source: elements.Patch, Msg: msg}
}

// keysUnread reports whether items, a patch's list merged by merge key key (none: "") of items of type t, hold an item
// a collation refuses reading them onto a list (unkeyedItem), or a "$patch: delete" item holding the key as other
// than a scalar (keyedDirected refuses it): where the map merged into holds no list there, both take the list less its
// "$patch" items, where each item is a map holding no "$patch" but "delete" or "replace" (mapsDirected).
func keysUnread(t *openapi.Type, items []value.Value, key string) bool {
	if key == "" {
		return false
	}
	_, _, unkeyed := unkeyedItem(t, items, key)
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
