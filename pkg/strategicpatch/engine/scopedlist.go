package engine

import (
	"maps"
	"slices"
	"strings"

	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/value"
)

// keptList is what scopedList leaves out of a list merged by key: each item the patch does not name is a placeholder
// (whole: the placeholder's value itself, which the merge carries into the result untouched, and the original item),
// and each item it names has its own kept, by merge key (named; the original names each of those keys once). It holds
// the list itself (orig) and what scopedList converted of it (scoped).
type keptList struct {
	mergeKey string
	orig     []interface{}
	// patch is the patch's list as the caller gave it (nil if it is no []interface{}): toGoBeside takes the scalars the
	// merge takes from its items from them.
	patch  []interface{}
	scoped value.Value
	whole  map[value.Value]interface{}
	named  keyIndex[*kept]
}

// toGo converts result, the merge's value of the list kl was kept from, into Go values: the original list where the
// merge carried scoped's through unchanged (the very memory), else a placeholder is the original item, an item of a
// named key gets its kept fields back, anything else (items named and converted whole, the patch's new items) is
// converted, keeping the original item's values at its place where they stand for the merged ones (toGoBeside).
func (kl *keptList) toGo(result value.Value) []interface{} {
	if result == kl.scoped {
		return kl.orig
	}
	items := result.Items()
	out := make([]interface{}, len(items))
	for i, it := range items {
		if orig, ok := kl.whole[it]; ok {
			out[i] = orig
			continue
		}
		if len(kl.named.vals) > 0 && it.IsMap() {
			if j := kl.named.find(mergeKeyOf1(it, kl.mergeKey)); j >= 0 {
				out[i] = kl.named.vals[j].toMap(it)
				continue
			}
		}
		var beside, patchBeside interface{}
		if i < len(kl.orig) {
			beside = kl.orig[i]
		}
		if i < len(kl.patch) {
			patchBeside = kl.patch[i]
		}
		out[i] = toGoBeside(it, beside, patchBeside)
	}
	return out
}

// toGoBeside is toGo(v), but where v is a map and x one of original's, each field of v whose value x's field of its key
// stands for (standsFor: an equal string, bool or number of toGo's Go type) holds x's, which encodes alike and needs no
// memory of its own, and else, where px is a map of the patch's, px's field of its key where it is such a scalar
// (patchScalar). (Any x and px do; original's and the patch's items at v's place in the list are usually v's own.)
// Where x holds v's keys (as many keys, each of v's among them), the map is a copy of x with the fields x does not
// stand for replaced (sameKeysBeside).
func toGoBeside(v value.Value, x, px interface{}) interface{} {
	orig, ok := x.(map[string]interface{})
	if !ok || !v.IsMap() {
		return toGo(v)
	}
	patch, _ := px.(map[string]interface{})
	fields := v.Fields()
	if len(orig) == len(fields) {
		if m, ok := sameKeysBeside(fields, orig, patch); ok {
			return m
		}
	}
	m := make(map[string]interface{}, len(fields))
	for _, f := range fields {
		if ox, ok := orig[f.Key]; ok && standsFor(value.Value{}, f.Value, ox) {
			m[f.Key] = ox
			continue
		}
		m[f.Key] = toGoPatched(f.Value, patch[f.Key])
	}
	return m
}

// sameKeysBeside is toGoBeside's map of fields where orig holds as many keys as fields: a copy of orig with each field
// orig does not stand for replaced, as toGoBeside sets it; ok is false (a key of fields orig lacks) when the keys
// differ.
func sameKeysBeside(fields []value.Field, orig, patch map[string]interface{}) (map[string]interface{}, bool) {
	var m map[string]interface{}
	for _, f := range fields {
		ox, ok := orig[f.Key]
		if !ok {
			return nil, false
		}
		if standsFor(value.Value{}, f.Value, ox) {
			continue
		}
		if m == nil {
			m = maps.Clone(orig)
		}
		m[f.Key] = toGoPatched(f.Value, patch[f.Key])
	}
	if m == nil {
		m = maps.Clone(orig)
	}
	return m, true
}

// mergeKeyOf1 is the ScalarKey of item's field mergeKey, the zero ScalarKey when it has none that is a key.
func mergeKeyOf1(item value.Value, mergeKey string) value.ScalarKey {
	v, ok := item.Get(mergeKey)
	if !ok || v.IsNull() {
		return value.ScalarKey{}
	}
	k, _ := v.Key()
	return k
}

// scopedList converts original, the list of field key of a map whose patch map is parent, for merging patch list pl
// into it by key; names is what the patch's items at this place name (nil: only pl's items are there). It does so
// when the schema merges the list by a merge key, pl names at most half its items (from namesMostFrom items on), no
// "$deleteFromPrimitiveList/" directive names it, every patch item is a map holding its merge key once in the list
// and no "$patch" (which decide about items by more than their key), and every original item is a map holding its merge key, each key pl names once (scopedItems): then an item pl does
// not name is a placeholder holding what the merge and the schema read of it (project), and an item pl names is
// scoped by its patch item. Otherwise the list is converted whole (and the returned keptList is nil).
func (r goReader) scopedList(original []interface{}, pl value.Value, pg []interface{}, parent value.Value, key string, names *patchNames, l Lookup, depth int) (value.Value, *keptList, error) {
	mergeKey, itemSchema, ok := keyedBy(l, key)
	ok = ok && (len(original) < namesMostFrom || 2*pl.Len() <= len(original))
	var patchItems keyIndex[patchItem]
	if ok {
		deletes := hasJoined(parent, deletePrimPrefix, key)
		patchItems = newKeyIndex(&r.kept.patchItems, &r.kept.indexes, pl.Len())
		ok = byMergeKey(pl, mergeKey, &patchItems) && !deletes
	}
	if ok {
		v, kl, scopes, err := r.scopedItems(original, pl, pg, &patchItems, mergeKey, names, itemSchema, depth)
		if err != nil || scopes {
			return v, kl, err
		}
	}
	v, err := r.fromGo(original, depth)
	return v, nil, err
}

// hasJoined reports whether map p holds the key prefix+key, found without building it: in a small map by comparing
// lengths first, else by binary search (p's fields are sorted by key).
func hasJoined(p value.Value, prefix, key string) bool {
	fields := p.Fields()
	if len(fields) <= joinedScanned {
		for _, f := range fields {
			if len(f.Key) == len(prefix)+len(key) && f.Key[len(prefix):] == key && f.Key[:len(prefix)] == prefix {
				return true
			}
		}
		return false
	}
	_, ok := slices.BinarySearchFunc(fields, key, func(f value.Field, key string) int {
		if len(f.Key) < len(prefix) {
			if c := strings.Compare(f.Key, prefix[:len(f.Key)]); c != 0 {
				return c
			}
			return -1 // (a proper prefix of prefix+key)
		}
		if c := strings.Compare(f.Key[:len(prefix)], prefix); c != 0 {
			return c
		}
		return strings.Compare(f.Key[len(prefix):], key)
	})
	return ok
}

// joinedScanned is the most fields hasJoined looks at one by one rather than by binary search.
const joinedScanned = 8

// namesMostFrom is the size from which a list whose patch list names more than half as many items as it holds is
// converted whole: indexing the patch's items and scoping each named item then costs more than it leaves out.
const namesMostFrom = 16

// patchItem is an item of a patch list scopedList scopes, and whether an original item of its key was seen.
type patchItem struct {
	item  value.Value
	index int // (in the patch list)
	seen  bool
}

// scopedItems is scopedList's conversion of original's items, patchItems patch list pl's items by merge key; scopes
// is false (and the value to be dropped) when an item is not a map holding its merge key, or a key patchItems holds
// comes twice. names nil (pl's items alone are at this place) is made from pl when an item needs it: projected, or
// scoped while pl has more than one item (one item alone names its fields, as at the root).
func (r goReader) scopedItems(original []interface{}, pl value.Value, pg []interface{}, patchItems *keyIndex[patchItem], mergeKey string, names *patchNames, l Lookup, depth int) (value.Value, *keptList, bool, error) {
	kl := r.newKeptList(mergeKey, original)
	kl.patch = pg
	kl.named = newKeyIndex(&r.kept.named, &r.kept.indexes, pl.Len())
	items := r.takeItems(len(original))
	for i, it := range original {
		m, isMap := it.(map[string]interface{})
		k, hasKey := goMergeKey(m, mergeKey)
		if !isMap || !hasKey {
			return value.Value{}, nil, false, nil
		}
		j := patchItems.find(k)
		isNamed := j >= 0
		var pi patchItem
		v, whole, err := value.Value{}, false, error(nil)
		if isNamed {
			if pi = patchItems.vals[j]; pi.seen {
				return value.Value{}, nil, false, nil
			}
			patchItems.vals[j].seen = true
			v, whole, err = r.wholeItem(m, pi.item, depth+1)
		}
		if !whole && err == nil {
			if names == nil && (!isNamed || pl.Len() > 1) {
				names = namesOf(pl)
			}
			v, err = r.listItem(m, pi, isNamed, kl, k, names, l, depth+1)
		}
		if err != nil {
			return value.Value{}, nil, false, err
		}
		items[i] = v
	}
	kl.scoped = value.List(items)
	return kl.scoped, kl, true, nil
}

// newKeptList returns an empty keptList of list original merged by key mergeKey, in r's scratch memory.
func (r goReader) newKeptList(mergeKey string, original []interface{}) *keptList {
	kl := &r.kept.lists.take(1)[:1][0]
	kl.mergeKey, kl.orig = mergeKey, original
	return kl
}

// listItem converts original item m of a list scopedList scopes that wholeItem does not: named (pi its patch item)
// scoped, its kept recorded in kl under k, else a placeholder recorded in kl.whole. (A patch's merge never compares an
// item with its patch item whole, so that leaving fields of a named item out changes nothing of the merge: collate's
// patchNode.)
func (r goReader) listItem(m map[string]interface{}, pi patchItem, isNamed bool, kl *keptList, k value.ScalarKey, names *patchNames, l Lookup, depth int) (value.Value, error) {
	if !isNamed {
		v, err := r.project(m, names, kl.mergeKey, depth)
		if err == nil {
			if kl.whole == nil {
				kl.whole = r.kept.whole.take(0)
			}
			kl.whole[v] = m
		}
		return v, err
	}
	var pg map[string]interface{}
	if pi.index < len(kl.patch) {
		pg, _ = kl.patch[pi.index].(map[string]interface{})
	}
	v, sub, err := r.scoped(m, pi.item, pg, names, l, depth)
	if sub != nil {
		kl.named.add(k, sub) // (each key once: scopedItems scopes one item per key)
	}
	return v, err
}

// wholeItem converts a named item m whole, and reports true, where scoping it by its patch item pi would leave nothing
// out (either gives the same result): where pi names each of m's fields and m holds no map or list, inside which
// scoped may leave something out. Else (false) the value is to be dropped, and m scoped. m's fields are found by pi's
// keys (sorted, so the fields come out sorted), which name them all when as many of them are in m as m holds.
func (r goReader) wholeItem(m map[string]interface{}, pi value.Value, depth int) (value.Value, bool, error) {
	if len(m) > pi.Len() {
		return value.Value{}, false, nil
	}
	if depth > maxDepth {
		return value.Value{}, false, errTooDeep
	}
	fields := r.takeFields(len(m))
	for _, f := range pi.Fields() {
		x, ok := m[f.Key]
		if !ok {
			continue
		}
		switch x.(type) {
		case map[string]interface{}, []interface{}:
			return value.Value{}, false, nil
		}
		v, err := r.fromGo(x, depth+1)
		if err != nil {
			return value.Value{}, false, err
		}
		fields = append(fields, value.Field{Key: f.Key, Value: v})
	}
	if len(fields) < len(m) {
		return value.Value{}, false, nil // (a field of m pi does not name)
	}
	return value.MapFromSorted(fields), true, nil
}

// keyedBy returns the merge key and item schema of list field key of an object of schema l, and whether l merges the
// list by that key (strategy merge, a merge key).
func keyedBy(l Lookup, key string) (string, Lookup, bool) {
	if l == nil {
		return "", nil, false
	}
	itemSchema, meta, err := l.Slice(key)
	if err != nil || meta.MergeKey == "" || !slices.Contains(meta.Strategies, "merge") {
		return "", nil, false
	}
	return meta.MergeKey, itemSchema, true
}

// byMergeKey adds patch list pl's items by merge key to out (empty), and reports whether each is a map without
// "$patch" holding a merge key no other item holds.
func byMergeKey(pl value.Value, mergeKey string, out *keyIndex[patchItem]) bool {
	for i, it := range pl.Items() {
		if !it.IsMap() {
			return false
		}
		if decidesItem(it) {
			return false
		}
		kv, ok := it.Get(mergeKey)
		if !ok || kv.IsNull() {
			return false
		}
		k, ok := kv.Key()
		if !ok || !out.add(k, patchItem{item: it, index: i}) {
			return false
		}
	}
	return true
}

// decidesItem reports whether patch item it (a map) holds "$patch": its fields are sorted by key, so that only those up
// to "$patch" are looked at (usually one: none starts with "$").
func decidesItem(it value.Value) bool {
	for _, f := range it.Fields() {
		switch {
		case f.Key > "$patch":
			return false
		case f.Key == "$patch":
			return true
		}
	}
	return false
}

// keyIndex holds values by merge key (a patch list's items, byMergeKey; the kept of the items scoped, keptList.named),
// each key once: the keys are numbered by an elements.Index (the list identity of the merge), vals holding the value
// of key number i at i. The zero keyIndex is empty to find; add needs one from newKeyIndex.
type keyIndex[T any] struct {
	ids  *elements.Index
	vals []T
}

// newKeyIndex returns an empty keyIndex for at most n values, in scratch memory vals and indexes.
func newKeyIndex[T any](vals *scratch[T], indexes *reusedIndexes, n int) keyIndex[T] {
	return keyIndex[T]{ids: indexes.take(n), vals: vals.take(n)}
}

// add adds v under key k and reports true, unless x holds k already (false).
func (x *keyIndex[T]) add(k value.ScalarKey, v T) bool {
	key := elements.Key{k}
	if _, fresh := x.ids.ID(&key); !fresh {
		return false
	}
	x.vals = append(x.vals, v) // (at the key's number: an Index numbers keys densely, in first-sight order)
	return true
}

// find returns the index in x.vals of the value of key k, or -1.
func (x *keyIndex[T]) find(k value.ScalarKey) int {
	if len(x.vals) == 0 {
		return -1
	}
	key := elements.Key{k}
	if i, found := x.ids.Find(&key); found {
		return i
	}
	return -1
}

// goMergeKey is the ScalarKey of Go map m's field mergeKey, as the merge reads it from m's value (a non-null scalar).
func goMergeKey(m map[string]interface{}, mergeKey string) (value.ScalarKey, bool) {
	x, ok := m[mergeKey]
	if !ok || x == nil {
		return value.ScalarKey{}, false
	}
	switch t := x.(type) {
	case map[string]interface{}, []interface{}:
		return value.ScalarKey{}, false
	case string:
		return value.ScalarKey{Kind: value.KindString, Str: t}, true // (value.String(t).Key())
	}
	v, err := goReader{}.fromGo(x, 0)
	if err != nil || v.IsNull() {
		return value.ScalarKey{}, false
	}
	return v.Key()
}

// project is the placeholder of original item m: its merge key field and the fields names names, each holding only
// what names names below it (projectValue). The schema reads of an item the patch does not name its values at the
// keys the patch's items name, and below them the same (see typeOf: collectFields adds a witness's values at the
// keys the patch holds only); the merge reads its merge key, and carries the rest over untouched.
func (r goReader) project(m map[string]interface{}, names *patchNames, mergeKey string, depth int) (value.Value, error) {
	if depth > maxDepth {
		return value.Value{}, errTooDeep
	}
	fields := r.takeFields(min(len(m), names.size()+1))
	for key, x := range m {
		if key != mergeKey && (strings.HasPrefix(key, "$") || !names.has(key)) {
			continue
		}
		v, err := r.projectValue(x, names.child(key), depth+1)
		if err != nil {
			return value.Value{}, err
		}
		fields = append(fields, value.Field{Key: key, Value: v})
	}
	return sortedMap(fields), nil
}

// projectValue is x with its maps (and the maps in its lists) holding only the fields names names, and so below.
func (r goReader) projectValue(x interface{}, names *patchNames, depth int) (value.Value, error) {
	switch t := x.(type) {
	case map[string]interface{}:
		return r.project(t, names, "", depth)
	case []interface{}:
		if depth > maxDepth {
			return value.Value{}, errTooDeep
		}
		items := r.takeItems(len(t))
		for i, it := range t {
			v, err := r.projectValue(it, names, depth+1)
			if err != nil {
				return value.Value{}, err
			}
			items[i] = v
		}
		return value.List(items), nil
	}
	return r.fromGo(x, depth)
}

// patchNames is what a patch's objects at one place of the schema name, all of them together: the objects of a
// field are its maps and the items of its lists (typeOf's objects), and a key is named by a field or a
// "$setElementOrder/" or "$deleteFromPrimitiveList/" directive.
type patchNames struct {
	keys map[string]*patchNames
}

// add adds what v names: a map's keys (and below them, what their values name), a list's items'.
func (n *patchNames) add(v value.Value) {
	switch {
	case v.IsList():
		for _, it := range v.Items() {
			n.add(it)
		}
	case v.IsMap():
		for _, f := range v.Fields() {
			if name, ok := listDirective(f.Key); ok {
				n.at(name)
				continue
			}
			if !strings.HasPrefix(f.Key, "$") {
				n.at(f.Key).add(f.Value)
			}
		}
	}
}

// namesOf is what the items of patch list pl name, all of them together.
func namesOf(pl value.Value) *patchNames {
	n := &patchNames{}
	n.add(pl)
	return n
}

// at returns the names below key, added if n has none.
func (n *patchNames) at(key string) *patchNames {
	if n.keys == nil {
		n.keys = map[string]*patchNames{}
	}
	c := n.keys[key]
	if c == nil {
		c = &patchNames{}
		n.keys[key] = c
	}
	return c
}

// has reports whether key is named here (never for nil n).
func (n *patchNames) has(key string) bool {
	if n == nil {
		return false
	}
	_, ok := n.keys[key]
	return ok
}

// child is the names below key (nil for nil n).
func (n *patchNames) child(key string) *patchNames {
	if n == nil {
		return nil
	}
	return n.keys[key]
}

// size is the number of keys named here.
func (n *patchNames) size() int {
	if n == nil {
		return 0
	}
	return len(n.keys)
}

// mergesAs reports whether field f of the builder's type merges the list kl was kept from as scopedList assumed: by
// kl's merge key (strategy merge), its items of a struct type under which each named item's kept fields merge as
// scoped assumed (kept.mergesAs).
func (kl *keptList) mergesAs(f *openapi.Field) bool {
	t := f.Type
	if t == nil || t.Kind != openapi.KindList || !f.Meta.Strategy.Has(openapi.StrategyMerge) ||
		len(f.Meta.MergeKey) != 1 || f.Meta.MergeKey[0] != kl.mergeKey || t.Elem == nil || t.Elem.Kind != openapi.KindStruct {
		return false
	}
	for _, k := range kl.named.vals {
		if !k.mergesAs(t.Elem) {
			return false
		}
	}
	return true
}
