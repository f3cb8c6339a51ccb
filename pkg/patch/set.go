package patch

import (
	"cmp"
	"slices"
	"strconv"

	"github.com/plyproject/ply/internal/elements"
	"github.com/plyproject/ply/internal/smp"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/value"
)

// set collates a merged list of scalars and computes its Layout: the
// union of live's values and the patch's (each once), ordered as
// strategicpatch orders it, then "$setElementOrder" applied, then the
// values of "$deleteFromPrimitiveList" removed.
func (c *collator) set(e *elements.SetElement, hasPatch bool, pItems, live []value.Value, itemType *openapi.Type, fail func(elements.Source, string) error) error {
	n := &e.Node
	pm := n.Patch
	idOf := make(map[value.ScalarKey]int, len(live)+len(pItems))
	var items []elements.Item
	var keys []value.ScalarKey
	var vals []elements.Values
	// liveIDs is live's list by member, duplicates repeated.
	liveIDs := make([]int, len(live))
	for i, v := range live {
		k, _ := v.Key()
		if id, seen := idOf[k]; seen {
			liveIDs[i] = id
			continue
		}
		liveIDs[i] = len(items)
		idOf[k] = len(items)
		items = append(items, elements.Item{RecordedIndex: -1, LocalIndex: -1, LiveIndex: i, Of: -1})
		keys = append(keys, k)
		vals = append(vals, elements.Values{Live: v, HasLive: true})
	}
	for i, v := range pItems {
		k, _ := v.Key()
		id, seen := idOf[k]
		if !seen {
			id = len(items)
			idOf[k] = id
			items = append(items, elements.Item{RecordedIndex: -1, LocalIndex: -1, LiveIndex: -1, Of: -1})
			keys = append(keys, k)
			vals = append(vals, elements.Values{})
		}
		if items[id].LocalIndex < 0 {
			items[id].LocalIndex = i
			vals[id].Local, vals[id].HasLocal = v, true
		}
	}
	liveRank := func(id int) int { return items[id].LiveIndex }
	// merged: live's values, then the new ones (each once).
	layout := make([]int, len(items))
	for id := range layout {
		layout[id] = id
	}
	if !hasPatch {
		// Only reordered: live's list as it is, duplicates included.
		layout = liveIDs
	}
	switch {
	case hasPatch && !c.kubectl:
		// Live's values the patch leaves out, in live order, merged with
		// the patch's in patch order by live position (seedInterleave).
		byRun, nServer := seedArrange(layout, func(id int) int { return items[id].LocalIndex }, len(pItems))
		layout = seedInterleave(byRun[:nServer], byRun[nServer:], liveRank)
	case hasPatch && len(items) > 0:
		var inPatch, serverOnly []int
		for id := range items {
			if items[id].LocalIndex >= 0 {
				inPatch = append(inPatch, id)
			} else {
				serverOnly = append(serverOnly, id)
			}
		}
		sortBy(inPatch, func(id int) int { return items[id].LocalIndex })
		layout = interleave(serverOnly, inPatch, liveRank)
	}
	if pm != nil && pm.HasSetOrder {
		order := pm.SetOrder.Items()
		orderPos := make(map[value.ScalarKey]int, len(order))
		for i, v := range order {
			k, ok := v.Key()
			if !ok || v.IsNull() {
				return fail(elements.Patch, smp.SetOrderPrefix+n.Name+" item "+strconv.Itoa(i)+": expected a scalar (the list holds scalars), got "+v.Kind().String())
			}
			if _, seen := orderPos[k]; !seen {
				orderPos[k] = i
			}
		}
		if err := checkSetOrder(pItems, order, orderPos, n.Name, fail); err != nil {
			return err
		}
		if c.kubectl {
			var named, others []int
			for _, id := range layout {
				if _, ok := orderPos[keys[id]]; ok {
					named = append(named, id)
				} else {
					others = append(others, id)
				}
			}
			sortBy(named, func(id int) int { return orderPos[keys[id]] })
			sortBy(others, func(id int) int {
				if r := liveRank(id); r >= 0 {
					return r
				}
				return int(^uint(0) >> 1)
			})
			layout = interleave(others, named, liveRank)
		} else {
			layout, _ = seedArrange(layout, func(id int) int {
				if p, ok := orderPos[keys[id]]; ok {
					return p
				}
				return -1
			}, len(order))
		}
	}
	if pm != nil && pm.HasDeleteFromList {
		drop := make(map[value.ScalarKey]bool, pm.DeleteFromList.Len())
		for _, v := range pm.DeleteFromList.Items() {
			if k, ok := v.Key(); ok {
				drop[k] = true
			}
		}
		layout = slices.DeleteFunc(layout, func(id int) bool { return drop[keys[id]] })
	}
	for id := range items {
		pe := &elements.PrimitiveElement{}
		pe.Node = elements.Node{Parent: e, Type: itemType, Values: vals[id]}
		items[id].Element = pe
	}
	e.Items = items
	cp := elements.PatchMeta{}
	if pm != nil {
		cp = *pm
	}
	cp.Layout = layout
	n.Patch = &cp
	return nil
}

// checkSetOrder is checkOrder for a list of scalars: the patch's values,
// compared by value.
func checkSetOrder(pItems, order []value.Value, orderPos map[value.ScalarKey]int, name string, fail func(elements.Source, string) error) error {
	if len(pItems) == 0 {
		return nil
	}
	if len(order) == 0 {
		return fail(elements.Patch, smp.SetOrderPrefix+name+" is empty but the patch list has items; every item of the patch list must be in it")
	}
	j := 0
	for i, v := range pItems {
		k, _ := v.Key()
		for j < len(order) {
			ok, _ := order[j].Key()
			if ok == k {
				break
			}
			j++
		}
		if j == len(order) {
			if _, ok := orderPos[k]; !ok {
				return fail(elements.Patch, "patch list item "+strconv.Itoa(i)+" ("+v.Short()+") is missing from "+smp.SetOrderPrefix+name+"; every item of the patch list must be in it")
			}
			return fail(elements.Patch, "the order of the patch list contradicts "+smp.SetOrderPrefix+name+": "+v.Short()+" comes after a value it precedes there")
		}
		j++
	}
	return nil
}

// sortBy sorts ids stably by rank.
func sortBy(ids []int, rank func(int) int) {
	slices.SortStableFunc(ids, func(a, b int) int { return cmp.Compare(rank(a), rank(b)) })
}

// interleave merges two sorted runs the way strategicpatch does: the head
// of left (live-only members) goes first only when both heads have a rank
// in live and left's is lower; otherwise right's (the patch's) does.
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
