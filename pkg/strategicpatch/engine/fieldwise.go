package engine

import (
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/plyproject/ply/pkg/features"
)

// fieldwise merges a patch map into original's map field by field where nothing but each field's own values decides
// its result, the engine not run, as ApplyMap's levels below the spine (applySpine): the result is original's copy
// with each of the patch's fields merged, original's other fields its own values. Every field of the patch is one of
//   - a string, a bool, an int64 or a finite float64 (plainScalar) onto nothing or such a scalar of original (or an
//     int, kept where the patch sets the int64 of its value, as kept.toMap keeps it): the patch's value, whatever the
//     schema says (strategicpatch looks no scalar up);
//   - a map, not empty, onto original's map at a field whose look-up gives a schema without strategy or merge key:
//     that map merged fieldwise in turn;
//   - with every feature gate off only (with ply's, SeedOrdering orders merged lists otherwise), a list of maps,
//     not empty, onto original's list of maps at a field the look-up merges by one merge key and strategy merge
//     alone: each of original's items holds a string key, no two the same; each of the patch's items holds a string
//     key naming one of original's items, no two the same, in original's order, and is merged fieldwise into it in
//     turn; every other item is original's own, in its place (strategicpatch orders the merged items by their order
//     in the patch among original's others, keeping original's order where the patch follows it);
//   - a null: the field deleted (nothing where original lacks it);
//   - "$setElementOrder/<f>" beside such a list f: an entry for each of original's items in original's order, each a
//     map holding the merge key alone (the order already holds; strategicpatch checks the patch's items follow it).
//
// Anything else (other directives, an empty map or list, a key repeated or missing, a value of another kind
// than original's, the bound on nesting near) is left to the engine, which also gives every error.
type fieldwise struct {
	// keyedLists allows lists merged by key: every gate off.
	keyedLists bool
}

// fieldwiseFor returns o's fieldwise merge.
func (o Options) fieldwiseFor() fieldwise {
	return fieldwise{keyedLists: o.Gates == nil || *o.Gates == features.Kubectl()}
}

// level returns original with p merged, p found depth map levels down the documents under l, and whether the fieldwise
// merge holds for them (else nothing is built).
func (f fieldwise) level(original, p map[string]interface{}, l Lookup, depth int) (map[string]interface{}, bool) {
	if original == nil || len(p) == 0 || depth+2 >= maxDepth {
		return nil, false
	}
	out := maps.Clone(original)
	for k, px := range p {
		if name, ok := strings.CutPrefix(k, "$"); ok {
			if !f.ordersList(name, p) {
				return nil, false
			}
			continue // (an order of a list of p: keyedList checks it)
		}
		if px == nil {
			delete(out, k) // (a null deletes the field, or sets nothing where original lacks it)
			continue
		}
		merged, ok := f.field(original, k, px, p, l, depth)
		if !ok {
			return nil, false
		}
		out[k] = merged
	}
	return out, true
}

// ordersList reports whether directive name (a key of p less its "$") is "setElementOrder/<f>" for a list f of p,
// lists merged by key allowed.
func (f fieldwise) ordersList(name string, p map[string]interface{}) bool {
	field, ok := strings.CutPrefix(name, setOrderPrefix[1:])
	if !ok || !f.keyedLists {
		return false
	}
	_, listed := p[field].([]interface{})
	return listed
}

// field returns original's field k with the patch's value px (p's) merged (see fieldwise), and whether that holds.
func (f fieldwise) field(original map[string]interface{}, k string, px interface{}, p map[string]interface{}, l Lookup, depth int) (interface{}, bool) {
	switch t := px.(type) {
	case map[string]interface{}:
		return f.mapField(original, k, t, l, depth)
	case []interface{}:
		order, ordered := p[setOrderPrefix+k]
		return f.keyedList(original, k, t, l, depth, order, ordered)
	}
	if !plainScalar(px) {
		return nil, false
	}
	ox, held := original[k]
	if !held || plainScalar(ox) {
		return px, true
	}
	oi, isInt := ox.(int)
	if !isInt {
		return nil, false
	}
	if px == interface{}(int64(oi)) {
		return ox, true // (original's value stands for the patch's: kept, as kept.toMap keeps it)
	}
	return px, true
}

// mapField returns original's map at k with patch p merged fieldwise, and whether that holds.
func (f fieldwise) mapField(original map[string]interface{}, k string, p map[string]interface{}, l Lookup, depth int) (interface{}, bool) {
	orig, ok := original[k].(map[string]interface{})
	if !ok || orig == nil || p == nil || l == nil {
		return nil, false
	}
	sub, m, err := l.Struct(k)
	if err != nil || sub == nil || slices.ContainsFunc(m.Strategies, isStrategy) || m.MergeKey != "" {
		return nil, false
	}
	return f.level(orig, p, sub, depth+1)
}

// keyedList returns original's list at k with the patch's items merged into those of their keys, and whether that
// holds (see fieldwise): the list is a copy, the items the patch names merged fieldwise, the others original's own.
// order is the patch's "$setElementOrder/<k>", where ordered.
func (f fieldwise) keyedList(original map[string]interface{}, k string, patch []interface{}, l Lookup, depth int, order interface{}, ordered bool) (interface{}, bool) {
	if !f.keyedLists || len(patch) == 0 || l == nil {
		return nil, false
	}
	orig, ok := original[k].([]interface{})
	if !ok || len(orig) == 0 {
		return nil, false
	}
	sub, m, err := l.Slice(k)
	if err != nil || sub == nil || m.MergeKey == "" || !mergedAlone(m.Strategies) {
		return nil, false
	}
	var room [keysOnStack]string
	keys, ok := uniqueKeys(orig, m.MergeKey, room[:0])
	if !ok || (ordered && !ordersAsItStands(order, keys, m.MergeKey)) {
		return nil, false
	}
	out := slices.Clone(orig)
	at := 0 // (the place after the last item merged: the patch's items follow original's order)
	for _, x := range patch {
		item, ok := x.(map[string]interface{})
		if !ok {
			return nil, false
		}
		key, ok := item[m.MergeKey].(string)
		for ok && at < len(keys) && keys[at] != key {
			at++
		}
		if !ok || at == len(keys) {
			return nil, false // (a key original lacks, named twice, or out of original's order)
		}
		if out[at], ok = f.level(orig[at].(map[string]interface{}), item, sub, depth+2); !ok {
			return nil, false
		}
		at++
	}
	return out, true
}

// mergedAlone reports whether strategies are strategy merge and nothing else.
func mergedAlone(strategies []string) bool {
	return len(strategies) == 1 && strategies[0] == "merge"
}

// ordersAsItStands reports whether order, a "$setElementOrder" of a list whose items' merge keys (field key) are keys,
// names each of those items in the list's order, each entry a map holding key alone: the order the list already has.
func ordersAsItStands(order interface{}, keys []string, key string) bool {
	entries, ok := order.([]interface{})
	if !ok || len(entries) != len(keys) {
		return false
	}
	for i, x := range entries {
		entry, ok := x.(map[string]interface{})
		if !ok || len(entry) != 1 {
			return false
		}
		if s, ok := entry[key].(string); !ok || s != keys[i] {
			return false
		}
	}
	return true
}

// keysOnStack is the length up to which uniqueKeys is given room for its keys on the caller's stack.
const keysOnStack = 16

// uniqueKeys appends to keys the string at field key of each of list's items, and reports whether every item is a
// map holding a string there, no two the same.
func uniqueKeys(list []interface{}, key string, keys []string) ([]string, bool) {
	for _, x := range list {
		item, ok := x.(map[string]interface{})
		if !ok {
			return nil, false
		}
		s, ok := item[key].(string)
		if !ok {
			return nil, false
		}
		keys = append(keys, s)
	}
	if len(keys) <= keysOnStack {
		for i, s := range keys {
			if slices.Contains(keys[:i], s) {
				return nil, false
			}
		}
		return keys, true
	}
	seen := make(map[string]struct{}, len(keys))
	for _, s := range keys {
		if _, twice := seen[s]; twice {
			return nil, false
		}
		seen[s] = struct{}{}
	}
	return keys, true
}

// plainScalar reports whether x is a string, a bool, an int64 or a finite float64.
func plainScalar(x interface{}) bool {
	switch t := x.(type) {
	case string, bool, int64:
		return true
	case float64:
		return !math.IsNaN(t) && !math.IsInf(t, 0)
	}
	return false
}
