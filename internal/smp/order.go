package smp

import "sort"

// SortByPlace sorts items as strategicpatch sorts the items of a list by the list a "$setElementOrder" (or live's list)
// gives (normalizeSliceOrder): sort.SliceStable with a comparison of each item's place there (place < 0: not there)
// in which an item without a place compares as less than any other both ways. That comparison is no order where some
// item has no place; Go's stable sort is deterministic, so the same algorithm given the same comparison and the same
// input gives strategicpatch's permutation. Where every item has a place it is the stable sort by place.
func SortByPlace[T any](items []T, place func(T) int) {
	sort.SliceStable(items, func(i, j int) bool {
		pi, pj := place(items[i]), place(items[j])
		return pi < 0 || pj < 0 || pi < pj
	})
}
