package engine

import (
	"math"
	"slices"
	"strings"

	"github.com/plyproject/ply/pkg/value"
)

// fieldwiseValues is fieldwise on ply's values: the merge of a patch map into original's map field by field, on the
// same shapes and with the same results as fieldwise's (its doc), the engine not run, for ApplyJSON's documents with
// every feature gate off (applyJSONTrimmed). The result's maps and lists are built in the memory of the call's
// trimmer (fields, items, and the lists' keys in keys); values original and the patch hold are shared, as values
// are never modified. A value is a
// plain scalar where it is a string, a bool, an integer or a finite float (plainValue); a map's fields are sorted by
// key, so that original's map and the patch's are walked side by side.
type fieldwiseValues struct {
	fields *scratch[value.Field]
	items  *scratch[value.Value]
	keys   *scratch[string]
}

// level returns original with p merged, p found depth map levels down the documents under l, and whether the fieldwise
// merge holds for them (see fieldwise.level).
func (f fieldwiseValues) level(original, p value.Value, l Lookup, depth int) (value.Value, bool) {
	if !original.IsMap() || p.Len() == 0 || depth+2 >= maxDepth {
		return value.Value{}, false
	}
	of := original.Fields()
	out := f.fields.take(len(of) + p.Len())
	i := 0 // (original's next field)
	for _, pf := range p.Fields() {
		k := pf.Key
		if name, ok := strings.CutPrefix(k, "$"); ok {
			if !ordersListValue(name, p) {
				return value.Value{}, false
			}
			continue // (an order of a list of p: keyedList checks it)
		}
		for i < len(of) && of[i].Key < k {
			out = append(out, of[i])
			i++
		}
		var ox value.Value
		held := i < len(of) && of[i].Key == k
		if held {
			ox = of[i].Value
			i++
		}
		if pf.Value.IsNull() {
			continue // (a null deletes the field, or sets nothing where original lacks it)
		}
		merged, ok := f.field(ox, held, k, pf.Value, p, l, depth)
		if !ok {
			return value.Value{}, false
		}
		out = append(out, value.Field{Key: k, Value: merged})
	}
	out = append(out, of[i:]...)
	return value.MapFromSorted(out), true
}

// ordersListValue is fieldwise.ordersList on values, lists merged by key allowed.
func ordersListValue(name string, p value.Value) bool {
	field, ok := strings.CutPrefix(name, setOrderPrefix[1:])
	if !ok {
		return false
	}
	list, _ := p.Get(field)
	return list.IsList()
}

// field returns original's field k (ox, held says whether original holds it) with the patch's value px (p's) merged,
// and whether that holds (see fieldwise.field).
func (f fieldwiseValues) field(ox value.Value, held bool, k string, px, p value.Value, l Lookup, depth int) (value.Value, bool) {
	switch px.Kind() {
	case value.KindMap:
		if !held || !ox.IsMap() || l == nil {
			return value.Value{}, false
		}
		sub, ok := plainMapSchema(l, k)
		if !ok {
			return value.Value{}, false
		}
		return f.level(ox, px, sub, depth+1)
	case value.KindList:
		if !held {
			return value.Value{}, false
		}
		return f.keyedList(ox, k, px, p, l, depth)
	}
	if !plainValue(px) || (held && !plainValue(ox)) {
		return value.Value{}, false
	}
	return px, true
}

// keyedList is fieldwise.keyedList on values: original's list orig at k with the patch's items (patch, p's list at
// k) merged into those of their keys.
func (f fieldwiseValues) keyedList(orig value.Value, k string, patch, p value.Value, l Lookup, depth int) (value.Value, bool) {
	if patch.Len() == 0 || l == nil || !orig.IsList() || orig.Len() == 0 {
		return value.Value{}, false
	}
	sub, m, err := l.Slice(k)
	if err != nil || sub == nil || m.MergeKey == "" || !mergedAlone(m.Strategies) {
		return value.Value{}, false
	}
	places, ok := placesOfValues(orig.Items(), m.MergeKey, f.keys.take(orig.Len()))
	if !ok {
		return value.Value{}, false
	}
	items := keyedValues{f: f, orig: orig.Items(), key: m.MergeKey, sub: sub, depth: depth + 2}
	order, ordered := p.Get(setOrderPrefix + k)
	if !ordered {
		return items.inPlace(patch.Items(), places)
	}
	orderKeys, ok := orderKeysOfValue(order, m.MergeKey, f.keys.take(order.Len()))
	if !ok {
		return value.Value{}, false
	}
	if slices.Equal(orderKeys, places.keys) {
		return items.inPlace(patch.Items(), places)
	}
	named, ok := placesOf(orderKeys)
	if !ok {
		return value.Value{}, false
	}
	return items.inOrder(patch.Items(), places, named)
}

// keyedValues is keyedItems on values.
type keyedValues struct {
	f     fieldwiseValues
	orig  []value.Value
	key   string
	sub   Lookup
	depth int
}

// keyOf returns the string item holds at x's merge key, and whether item is a map holding one.
func (x keyedValues) keyOf(item value.Value) (string, bool) {
	if !item.IsMap() {
		return "", false
	}
	k, _ := item.Get(x.key)
	return k.AsString()
}

// inPlace is keyedItems.inPlace on values.
func (x keyedValues) inPlace(patch []value.Value, places keyPlaces) (value.Value, bool) {
	out := append(x.f.items.take(len(x.orig)), x.orig...)
	at := 0 // (the place after the last item merged: the patch's items follow original's order)
	for _, item := range patch {
		key, ok := x.keyOf(item)
		for ok && at < len(places.keys) && places.keys[at] != key {
			at++
		}
		if !ok || at == len(places.keys) {
			return value.Value{}, false // (a key original lacks, named twice, or out of original's order)
		}
		if out[at], ok = x.f.level(x.orig[at], item, x.sub, x.depth); !ok {
			return value.Value{}, false
		}
		at++
	}
	return value.List(out), true
}

// inOrder is keyedItems.inOrder on values: an item added stands as it is where it is clean (cleanValue).
func (x keyedValues) inOrder(patch []value.Value, places, named keyPlaces) (value.Value, bool) {
	out := x.f.items.take(len(named.keys))[:len(named.keys)]
	next, added := 0, 0 // (the place in named after the patch's last item; the items added)
	for _, item := range patch {
		key, ok := x.keyOf(item)
		if !ok {
			return value.Value{}, false
		}
		pos, ok := named.find(key)
		if !ok || pos < next {
			return value.Value{}, false // (an item the order does not name, named twice, or out of the order)
		}
		next = pos + 1
		if at, held := places.find(key); held {
			if out[pos], ok = x.f.level(x.orig[at], item, x.sub, x.depth); !ok {
				return value.Value{}, false
			}
			continue
		}
		if !cleanValue(item, x.depth) {
			return value.Value{}, false
		}
		out[pos] = item
		added++
	}
	if len(named.keys) != len(x.orig)+added {
		return value.Value{}, false
	}
	for i, key := range named.keys {
		if !out[i].IsNull() {
			continue // (an item merged or added: a map)
		}
		at, held := places.find(key)
		if !held {
			return value.Value{}, false // (an entry naming no item)
		}
		out[i] = x.orig[at]
	}
	return value.List(out), true
}

// cleanValue is cleanCopy on values: whether v, a map at depth, holds plain scalars and maps of such in turn, none
// empty, no key a directive.
func cleanValue(v value.Value, depth int) bool {
	if !v.IsMap() || v.Len() == 0 || depth+2 >= maxDepth {
		return false
	}
	for _, f := range v.Fields() {
		if strings.HasPrefix(f.Key, "$") {
			return false
		}
		if f.Value.IsMap() {
			if !cleanValue(f.Value, depth+1) {
				return false
			}
			continue
		}
		if !plainValue(f.Value) {
			return false
		}
	}
	return true
}

// plainValue is plainScalar on values: a string, a bool, an integer or a finite float.
func plainValue(v value.Value) bool {
	if f, ok := v.AsFloat(); ok {
		return !math.IsNaN(f) && !math.IsInf(f, 0)
	}
	return v.IsScalar()
}

// placesOfValues is placesOfItems on values.
func placesOfValues(list []value.Value, key string, room []string) (keyPlaces, bool) {
	keys := room
	for _, item := range list {
		if !item.IsMap() {
			return keyPlaces{}, false
		}
		k, _ := item.Get(key)
		s, ok := k.AsString()
		if !ok {
			return keyPlaces{}, false
		}
		keys = append(keys, s)
	}
	return placesOf(keys)
}

// orderKeysOfValue is orderKeysOf on values.
func orderKeysOfValue(order value.Value, key string, room []string) ([]string, bool) {
	if !order.IsList() {
		return nil, false
	}
	keys := room
	for _, entry := range order.Items() {
		if !entry.IsMap() || entry.Len() != 1 {
			return nil, false
		}
		k, _ := entry.Get(key)
		s, ok := k.AsString()
		if !ok {
			return nil, false
		}
		keys = append(keys, s)
	}
	return keys, true
}
