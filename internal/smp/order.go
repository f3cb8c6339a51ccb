package smp

import (
	"sort"

	"github.com/plyproject/ply/pkg/value"
)

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

// SortedBy returns scalar items sorted as strategicpatch sorts a list's items by the list by (normalizeSliceOrder): by
// the first place of each one's value there (SortByPlace), an item by lacks comparing as less than any other both ways.
func SortedBy(items, by []value.Value) value.Value {
	first := make(map[value.ScalarKey]int, len(by))
	for i := len(by) - 1; i >= 0; i-- {
		if k, ok := by[i].Key(); ok {
			first[k] = i
		}
	}
	place := func(v value.Value) int {
		if k, ok := v.Key(); ok {
			if i, found := first[k]; found {
				return i
			}
		}
		return -1
	}
	sorted := append([]value.Value(nil), items...)
	SortByPlace(sorted, place)
	return value.List(sorted)
}
