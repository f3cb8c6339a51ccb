// Package order decides the order of a merged list in Phase 2: the one
// ordering component, for three-way merges and for patches, under both
// orderings. Phase 1 (internal/collate) only matches items; it records
// where each member stands in each source (elements.Item) and what the
// patch says about order (elements.Directives, Item.OrderIndex); the
// functions here turn that into the result order of the members.
//
// Members are numbered as the tree numbers them: a list's Items 0..n-1,
// then its LiveExtra n... An order lists members, present or not in the
// result; the list visitor keeps those whose outcome is present.
package order

import (
	"cmp"
	"errors"
	"slices"
	"strconv"
)

// Ordering selects how merged lists are ordered.
type Ordering uint8

const (
	// OrderSeed is the rule of design document 000: items only live holds
	// first, in their live relative order, then the items local (or the
	// patch) names, in its order.
	OrderSeed Ordering = iota
	// OrderKubectl reproduces the order kubectl's strategic merge patch
	// gives, which interleaves live-only items with local's.
	OrderKubectl
)

// ParseOrdering returns the Ordering a user names: "seed" or "kubectl" (the
// values of the CLI's --ordering flags). Any other name is an error that
// quotes it.
func ParseOrdering(name string) (Ordering, error) {
	switch name {
	case "seed":
		return OrderSeed, nil
	case "kubectl":
		return OrderKubectl, nil
	}
	return OrderSeed, errors.New("--ordering must be seed or kubectl, not " + strconv.Quote(name))
}

// sortBy sorts ids stably by rank.
func sortBy(ids []int, rank func(int) int) {
	slices.SortStableFunc(ids, func(a, b int) int { return cmp.Compare(rank(a), rank(b)) })
}

// interleave merges two sorted runs the way the server's strategic merge
// patch does: the head of left (live-only members) goes first only when
// both heads have a rank in live and left's is lower; otherwise right's
// (local's or the patch's) does.
func interleave(left, right []int, rank func(int) int) []int {
	out := make([]int, 0, len(left)+len(right))
	i, j := 0, 0
	for i < len(left) && j < len(right) {
		l, r := rank(left[i]), rank(right[j])
		if l >= 0 && r >= 0 && l < r {
			out = append(out, left[i])
			i++
		} else {
			out = append(out, right[j])
			j++
		}
	}
	out = append(out, left[i:]...)
	return append(out, right[j:]...)
}

// fillInt returns n copies of v.
func fillInt(n, v int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = v
	}
	return out
}

// last is the rank after every other.
const last = int(^uint(0) >> 1)
