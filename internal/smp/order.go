package smp

import (
	"slices"
	"sort"
	"strconv"

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

// FollowsOrder reports whether scalar items follow "$setElementOrder" order as strategicpatch requires
// (validatePatchWithSetOrderList): walking order, each entry equal to the next item passes it; every item must be
// passed. An empty order passes any list.
func FollowsOrder(items, order []value.Value) bool {
	if len(order) == 0 {
		return true
	}
	at := 0
	for _, e := range order {
		if at < len(items) && sameScalar(items[at], e) {
			at++
		}
	}
	return at == len(items)
}

// WithoutValues is list less its items equal to any of values (strategicpatch's deleteFromSlice).
func WithoutValues(list value.Value, values []value.Value) value.Value {
	return value.List(slices.DeleteFunc(slices.Clone(list.Items()), func(it value.Value) bool {
		return slices.ContainsFunc(values, func(v value.Value) bool { return sameScalar(it, v) })
	}))
}

// sameScalar reports whether scalars a and b are one value, as Go's == compares strategicpatch's decoded JSON.
func sameScalar(a, b value.Value) bool {
	ka, okA := a.Key()
	kb, okB := b.Key()
	return okA && okB && ka == kb
}

// OrderMismatch returns the error's message of "$setElementOrder/<field>" where it does not list every patch item
// (deletions aside) in the patch's order, "" where it does: seq holds the items' identities (-1: a "$patch: replace"
// item), order those the directive lists. Like strategicpatch it walks both once: a replace item is skipped while
// order entries remain, then counts as unmatched. A check that passes builds no string.
func OrderMismatch(field string, seq, order []int) string {
	switch {
	case !slices.ContainsFunc(seq, func(id int) bool { return id >= 0 }):
		return "" // (no data items: the walk below would skip every one)
	case len(order) == 0:
		return SetOrderPrefix + field + " is empty but the patch list has items; every item of the patch list must be in it"
	}
	p, o, ordinal := 0, 0, 0
	for p < len(seq) && o < len(order) {
		switch {
		case seq[p] < 0:
			p++
		case seq[p] == order[o]:
			p, o, ordinal = p+1, o+1, ordinal+1
		default:
			o++
		}
	}
	if p == len(seq) {
		return ""
	}
	dir := SetOrderPrefix + field
	switch {
	case seq[p] < 0:
		return "the patch list has a \"" + DirectiveKey + ": " + ReplaceValue + "\" item after the last item " + dir + " names"
	case !slices.Contains(order, seq[p]):
		return "patch list item " + strconv.Itoa(ordinal) + " is missing from " + dir + "; every item of the patch list must be in it"
	}
	return "the order of the patch list contradicts " + dir + ": patch list item " + strconv.Itoa(ordinal) + " comes after an item it precedes there"
}
