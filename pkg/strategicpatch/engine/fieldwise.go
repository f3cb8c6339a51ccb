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
//     alone, each of original's items holding a string key, no two the same, each of the patch's items a string key,
//     no two the same: without "$setElementOrder", each of the patch's items names one of original's, in original's
//     order, and is merged fieldwise into it; every other item is original's own, in its place (strategicpatch orders
//     the merged items by their order in the patch among original's others, keeping original's order where the patch
//     follows it). With "$setElementOrder/<f>" beside it, a list of maps each holding the merge key alone, no two the
//     same, naming each of original's items and each item the patch adds and no other, the patch's items following
//     it: the items in that order (strategicpatch orders by it a list it names every item of), those of original's
//     keys merged fieldwise, the others added as they stand, holding strings, bools, numbers and maps of such
//     (cleanCopy);
//   - a null: the field deleted (nothing where original lacks it);
//   - "$setElementOrder/<f>" beside such a list f.
//
// Anything else (other directives, an empty map or list, a key repeated or missing, a value of another kind
// than original's, the bound on nesting near) is left to the engine, which also gives every error.
type fieldwise struct {
	// keyedLists allows lists merged by key: every gate off.
	keyedLists bool
}

// fieldwiseFor returns o's fieldwise merge.
func (o Options) fieldwiseFor() fieldwise {
	return fieldwise{keyedLists: o.gates() == features.Kubectl()}
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
		return f.keyedList(original, k, t, p, l, depth)
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
	sub, ok := plainMapSchema(l, k)
	if !ok {
		return nil, false
	}
	return f.level(orig, p, sub, depth+1)
}

// keyedList returns original's list at k with the patch's items (patch, p's list at k) merged into those of their
// keys, and whether that holds (see fieldwise): the list is a copy, the items the patch names merged fieldwise, the
// others original's own, in the order of p's "$setElementOrder/<k>" where p holds one (looked up once the list is
// known to be merged by key).
func (f fieldwise) keyedList(original map[string]interface{}, k string, patch []interface{}, p map[string]interface{}, l Lookup, depth int) (interface{}, bool) {
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
	places, ok := placesOfItems(orig, m.MergeKey, room[:0])
	if !ok {
		return nil, false
	}
	items := keyedItems{f: f, orig: orig, key: m.MergeKey, sub: sub, depth: depth + 2}
	order, ordered := p[setOrderPrefix+k]
	if !ordered {
		return items.inPlace(patch, places)
	}
	var orderRoom [keysOnStack]string
	orderKeys, ok := orderKeysOf(order, m.MergeKey, orderRoom[:0])
	if !ok {
		return nil, false
	}
	if slices.Equal(orderKeys, places.keys) {
		return items.inPlace(patch, places) // (the order original has: the patch's items must follow it, as inPlace asks)
	}
	named, ok := placesOf(orderKeys)
	if !ok {
		return nil, false
	}
	return items.inOrder(patch, places, named)
}

// keyedItems are the items of original's list merged by key (orig), with what merging a patch's items into them
// fieldwise takes: the merge key, the items' Lookup, and their depth in the documents. The places of orig's keys are
// passed beside it (places): the items' values flow into the result, and a keyPlaces held here would move the keys'
// room off keyedList's stack with them.
type keyedItems struct {
	f     fieldwise
	orig  []interface{}
	key   string
	sub   Lookup
	depth int
}

// inPlace returns orig with the items of patch, a list without "$setElementOrder", merged into those of their keys,
// each a key of orig (places: orig's keys), in orig's order (strategicpatch then keeps orig's order), and whether that
// holds.
func (x keyedItems) inPlace(patch []interface{}, places keyPlaces) (interface{}, bool) {
	out := slices.Clone(x.orig)
	at := 0 // (the place after the last item merged: the patch's items follow original's order)
	for _, p := range patch {
		item, ok := p.(map[string]interface{})
		if !ok {
			return nil, false
		}
		key, ok := item[x.key].(string)
		for ok && at < len(places.keys) && places.keys[at] != key {
			at++
		}
		if !ok || at == len(places.keys) {
			return nil, false // (a key original lacks, named twice, or out of original's order)
		}
		if out[at], ok = x.f.level(x.orig[at].(map[string]interface{}), item, x.sub, x.depth); !ok {
			return nil, false
		}
		at++
	}
	return out, true
}

// inOrder returns orig with the items of patch merged into those of their keys, or added, in the order named gives,
// and whether that holds: named names each of orig's items and each item patch adds, no other, and the patch's items
// follow it (strategicpatch checks they do, and orders the list by it where it names every item), the items added
// holding strings, bools, numbers and maps of such (cleanCopy), which strategicpatch adds as they stand.
func (x keyedItems) inOrder(patch []interface{}, places, named keyPlaces) (interface{}, bool) {
	out := make([]interface{}, len(named.keys))
	next, added := 0, 0 // (the place in named after the patch's last item; the items added)
	for _, p := range patch {
		item, ok := p.(map[string]interface{})
		if !ok {
			return nil, false
		}
		key, ok := item[x.key].(string)
		if !ok {
			return nil, false
		}
		pos, ok := named.find(key)
		if !ok || pos < next {
			return nil, false // (an item the order does not name, named twice, or out of the order)
		}
		next = pos + 1
		if at, held := places.find(key); held {
			if out[pos], ok = x.f.level(x.orig[at].(map[string]interface{}), item, x.sub, x.depth); !ok {
				return nil, false
			}
			continue
		}
		if out[pos], ok = cleanCopy(item, x.depth); !ok {
			return nil, false
		}
		added++
	}
	if len(named.keys) != len(x.orig)+added {
		return nil, false
	}
	for i, key := range named.keys {
		if out[i] != nil {
			continue // (an item merged or added)
		}
		at, held := places.find(key)
		if !held {
			return nil, false // (an entry naming no item)
		}
		out[i] = x.orig[at]
	}
	return out, true
}

// cleanCopy returns a copy of x, a map at depth, and whether its values are strings, bools, int64s, finite float64s
// and maps of such in turn, none empty, no key a directive: what strategicpatch adds as it stands and the engine
// adds cleaned of nothing.
func cleanCopy(x map[string]interface{}, depth int) (map[string]interface{}, bool) {
	if len(x) == 0 || depth+2 >= maxDepth {
		return nil, false
	}
	out := make(map[string]interface{}, len(x))
	for k, v := range x {
		if strings.HasPrefix(k, "$") {
			return nil, false
		}
		if m, ok := v.(map[string]interface{}); ok {
			if out[k], ok = cleanCopy(m, depth+1); !ok {
				return nil, false
			}
			continue
		}
		if !plainScalar(v) {
			return nil, false
		}
		out[k] = v
	}
	return out, true
}

// mergedAlone reports whether strategies are strategy merge and nothing else.
func mergedAlone(strategies []string) bool {
	return len(strategies) == 1 && strategies[0] == "merge"
}

// keysOnStack is the length up to which a list's keys are kept in room on the caller's stack and found by a scan.
const keysOnStack = 16

// keyPlaces are the string merge keys of a list's items (or of a "$setElementOrder"'s entries), each once, by place;
// a list of keysOnStack items or more has them in a map too.
type keyPlaces struct {
	keys []string
	at   map[string]int
}

// find returns the place of key.
func (p keyPlaces) find(key string) (int, bool) {
	if p.at != nil {
		i, ok := p.at[key]
		return i, ok
	}
	i := slices.Index(p.keys, key)
	return i, i >= 0
}

// placesOfItems returns the places of list's items by the strings at their field key (keys appended to room), and
// whether every item is a map holding a string there, no two the same.
func placesOfItems(list []interface{}, key string, room []string) (keyPlaces, bool) {
	keys := room
	for _, x := range list {
		item, ok := x.(map[string]interface{})
		if !ok {
			return keyPlaces{}, false
		}
		s, ok := item[key].(string)
		if !ok {
			return keyPlaces{}, false
		}
		keys = append(keys, s)
	}
	return placesOf(keys)
}

// orderKeysOf appends to room the keys the entries of order name, a "$setElementOrder" of a list merged by field key,
// and reports whether it is a list of maps each holding a string at key alone.
func orderKeysOf(order interface{}, key string, room []string) ([]string, bool) {
	entries, ok := order.([]interface{})
	if !ok {
		return nil, false
	}
	keys := room
	for _, x := range entries {
		entry, ok := x.(map[string]interface{})
		if !ok || len(entry) != 1 {
			return nil, false
		}
		s, ok := entry[key].(string)
		if !ok {
			return nil, false
		}
		keys = append(keys, s)
	}
	return keys, true
}

// placesOf returns keys' places, and whether no two are the same.
func placesOf(keys []string) (keyPlaces, bool) {
	if len(keys) < keysOnStack {
		for i, s := range keys {
			if slices.Contains(keys[:i], s) {
				return keyPlaces{}, false
			}
		}
		return keyPlaces{keys: keys}, true
	}
	at := make(map[string]int, len(keys))
	for i, s := range keys {
		if _, twice := at[s]; twice {
			return keyPlaces{}, false
		}
		at[s] = i
	}
	return keyPlaces{keys: keys, at: at}, true
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
