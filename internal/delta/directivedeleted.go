package delta

import (
	"github.com/plyproject/ply/internal/smp"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/value"
)

// orderedOverDeleted is items, the merged list of kubectl's merge of the three-way patch's halves at a list merged by
// mergeKey that both halves hold (dels, the deletions half's, and delta, the delta half's) where the delta's map orders
// the list (order) and the delta's "$patch: delete" items remove items of dels, in the order strategicpatch's merge
// gives it. The merge orders such a list against dels as its last step (normalizeElementOrder: the items the order
// names by it, the others placed among them by their places in dels), but it has removed the deleted items from dels's
// very array before, shifting the items after them forward, and appended the delta's items new to dels into the room
// left at its end: the places it reads are those of that array (deletedView). items as they are where that cannot be
// so ordered (an item without its key: the merge fails before, elsewhere).
func orderedOverDeleted(items, dels, delta, order []value.Value, itemType *openapi.Type, mergeKey []string) []value.Value {
	view := deletedView(dels, delta, itemType, mergeKey)
	in, others, err := partitionByPresence(items, order, mergeKey, true)
	if err != nil {
		return items
	}
	out, err := normalizeElementOrder(in, others, order, view, mergeKey, true)
	if err != nil || len(out) != len(items) {
		return items
	}
	return out
}

// deletedView is the array of the deletions half's list dels (its length) as strategicpatch's merge of the halves leaves
// it once it has read the delta half's items (delta) into it, in the array's own memory: each "$patch: delete" item's
// key removed from it (every item of that key, those after it shifted forward), then each item without "$patch" of a
// key the list so left lacks appended to it, while the array has room.
func deletedView(dels, delta []value.Value, itemType *openapi.Type, mergeKey []string) []value.Value {
	arr := make([]value.Value, len(dels))
	copy(arr, dels)
	cur := arr
	for _, it := range delta {
		d, has := it.Get(smp.DirectiveKey)
		if s, _ := d.AsString(); !has || s != smp.DeleteValue || d.Kind() != value.KindString {
			continue
		}
		k, ok := keyOfItem(it, mergeKey, itemType)
		if !ok {
			continue
		}
		for i := firstOfKey(cur, k, itemType, mergeKey); i >= 0; i = firstOfKey(cur, k, itemType, mergeKey) {
			cur = append(cur[:i], cur[i+1:]...)
		}
	}
	for _, it := range delta {
		if _, has := it.Get(smp.DirectiveKey); has {
			continue
		}
		if k, ok := keyOfItem(it, mergeKey, itemType); ok && firstOfKey(cur, k, itemType, mergeKey) < 0 {
			cur = append(cur, it)
		}
	}
	return arr
}

// firstOfKey is the index of the first item of l of key k, -1 if none.
func firstOfKey(l []value.Value, k elements.Key, itemType *openapi.Type, mergeKey []string) int {
	for i, it := range l {
		if ik, ok := keyOfItem(it, mergeKey, itemType); ok && ik == k {
			return i
		}
	}
	return -1
}
