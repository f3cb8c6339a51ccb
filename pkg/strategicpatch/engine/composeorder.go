package engine

import (
	"strings"

	"k8s.io/apimachinery/pkg/util/mergepatch"

	"github.com/plyproject/ply/pkg/value"
)

// markMergedOrders marks orderMerged, composing, the fields of fields that a "$setElementOrder" directive names in a
// map of all (the objects of one node, objs') that strategicpatch merges into another: the second patch's map where
// the first patch holds a map in its pair (the roots always), or a later repeat of an item merged into its earlier
// repeats' outcome (pairTable.merged). A map it merges nothing into it copies, directives and all, without a look-up.
// Where it merges one, it checks the directive against the outcome it merges into before it looks the key up
// (orderError).
func markMergedOrders(fields *fieldSet, all []placed, objs objects) {
	if !holdsOrder(all) {
		return
	}
	into := map[int32][]value.Value{} // the maps merged so far into each pair's outcome, in turn
	pairOf := func(m placed) int32 {
		if m.item {
			return objs.itemPair(m.pair, m.v)
		}
		return m.pair
	}
	for i := len(all) - 1; i >= 0 && all[i].witness; i-- {
		pair := pairOf(all[i])
		into[pair] = append(into[pair], all[i].v)
	}
	for _, m := range all {
		if m.witness {
			break
		}
		if _, directed := m.v.Get("$patch"); directed {
			continue
		}
		pair := pairOf(m)
		outcome, ok := into[pair]
		if !ok && (objs.pairs == nil || !objs.pairs.merged[pair]) {
			continue
		}
		into[pair] = append(outcome, m.v)
		if !ok {
			continue
		}
		for _, f := range m.v.Fields() {
			name, ok := strings.CutPrefix(f.Key, setOrderPrefix)
			if !ok {
				continue
			}
			j := fields.find(name)
			if j < 0 {
				continue
			}
			fv := &fields.fields[j]
			fv.orderMerged = true
			if fv.orderErr == nil {
				fv.orderErr = orderError(m.v, f.Key, f.Value, outcome)
			}
		}
	}
}

// holdsOrder reports whether a map of all that is no witness holds a "$setElementOrder" directive.
func holdsOrder(all []placed) bool {
	for _, m := range all {
		if m.witness {
			return false
		}
		for _, f := range m.v.Fields() {
			if strings.HasPrefix(f.Key, setOrderPrefix) {
				return true
			}
		}
	}
	return false
}

// orderError is the error strategicpatch gives merging patch map m, holding directive key with order, into the outcome
// of maps outcome, before it looks the list up: an order other than the outcome's, an order that is not a list, or
// a value of the list's field, in the outcome (its last map holding the field) and then in m, that is not a list.
func orderError(m value.Value, key string, order value.Value, outcome []value.Value) error {
	name := strings.TrimPrefix(key, setOrderPrefix)
	var last value.Value
	held := false
	for _, o := range outcome {
		if other, ok := o.Get(key); ok && !value.Equal(other, order) {
			return mergepatch.ErrBadPatchFormatForSetElementOrderList
		}
		if v, ok := o.Get(name); ok {
			last, held = v, true
		}
	}
	if !order.IsList() {
		return mergepatch.ErrBadArgType([]interface{}{}, toGo(order))
	}
	if held && !last.IsList() {
		return mergepatch.ErrBadArgType([]interface{}{}, toGo(last))
	}
	if v, ok := m.Get(name); ok && !v.IsList() {
		return mergepatch.ErrBadArgType([]interface{}{}, toGo(v))
	}
	return nil
}
