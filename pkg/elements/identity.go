package elements

import (
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/fieldpath"
	"github.com/plyproject/ply/pkg/value"
)

// MaxKeyFields is the largest number of fields a merge key may have.
const MaxKeyFields = 4

// Key is a keyed list item's hashable identity: its merge-key fields' value.ScalarKeys in key order, unused slots zero.
type Key [MaxKeyFields]value.ScalarKey

// keyField returns item's value of key field name, or itemType's key default when null or absent; ok false if neither.
// A null field is the value null where itemType.NullKey (kubectl's reading of a merge key).
func keyField(item value.Value, name string, itemType *openapi.Type) (v value.Value, ok bool) {
	if v, ok = item.Get(name); ok && (!v.IsNull() || itemType.NullKey()) {
		return v, true
	}
	return itemType.KeyDefault(name)
}

// KeyOf returns item's Key for mergeKey (at most MaxKeyFields fields), a field absent or null taking the item type's
// KeyDefault (a null one is the key value null where the item type's NullKey). missing names the first field lacking
// both, or not a scalar (bad); k is valid only if missing is empty.
func KeyOf(item value.Value, mergeKey []string, itemType *openapi.Type) (k Key, missing string, bad bool) {
	missing, bad = k.Read(item, mergeKey, itemType)
	return k, missing, bad
}

// Read sets k to KeyOf's Key for item, in place (a Key is large, and matching a list's items reads one per item of
// each source), and returns KeyOf's missing and bad.
func (k *Key) Read(item value.Value, mergeKey []string, itemType *openapi.Type) (missing string, bad bool) {
	*k = Key{}
	for i, name := range mergeKey {
		v, ok := keyField(item, name, itemType)
		if !ok {
			return name, false
		}
		if k[i], ok = v.Key(); !ok {
			return name, true
		}
	}
	return "", false
}

// NamesNothing reports whether entry, a "$setElementOrder" entry of a list of itemType merged by key mergeKey, names no
// item as strategicpatch reads it under a kubectl view (itemType.NullKey): an object holding every key field, one of
// them an object or a list, which strategicpatch's == finds equal to no item's scalar key. Elsewhere such an entry is
// an error.
func NamesNothing(entry value.Value, mergeKey []string, itemType *openapi.Type) bool {
	if !itemType.NullKey() || !entry.IsMap() {
		return false
	}
	_, bad := (&Key{}).Read(entry, mergeKey, itemType)
	return bad
}

// KeyFields returns item's merge-key fields by KeyOf's rule, for paths and patches; a field lacking both is null.
func KeyFields(item value.Value, mergeKey []string, itemType *openapi.Type) []fieldpath.KeyField {
	kf := make([]fieldpath.KeyField, len(mergeKey))
	for i, name := range mergeKey {
		kf[i].Name = name // (and Value null, the zero Value)
		if v, ok := keyField(item, name, itemType); ok {
			kf[i].Value = v
		}
	}
	return kf
}

// Index numbers one list's Keys densely in first-sight order; up to smallIndex single-field keys are searched in place,
// past that single-field string keys are found by their string (hashing a string alone is cheaper than a ScalarKey)
// and other single-field keys by their ScalarKey. While the single-field keys numbered are strings in increasing order
// (sorted; lists are mostly sorted by their key) and each key looked up is the one after the key found last, the first
// (each source's items are read from the start) or new past the last, none is hashed; the first other key places them
// all in the table, once, and hashing goes on.
type Index struct {
	strs   strTable                // single-field string keys, once mapped
	single map[value.ScalarKey]int // other single-field keys, once mapped (made at the first)
	multi  map[Key]int             // the keys of more than one field (keyed)
	// small holds the first n single-field keys while not mapped; next is the one after the key found last, tried
	// first (sources mostly list their items in one order). Once mapped, n counts the keys numbered, and byID holds
	// them by ID, so that the one after the key found last is tried first there too, compared rather than hashed.
	small   [smallIndex]value.ScalarKey
	byID    []value.ScalarKey
	n, next int
	mapped  bool
	keyed   bool // keys of more than one field
	sorted  bool // mapped, byID's keys strings in increasing order, strs holding none of them (see Index)
	size    int  // the keys Reset sized x for
}

// smallIndex is the most keys Index compares one by one (cheaper than hashing).
const smallIndex = 12

// NewIndex returns an Index for keys of fields fields, sized for size keys.
func NewIndex(fields, size int) Index {
	var x Index
	x.Reset(fields, size)
	return x
}

// indexKeptMax bounds the keys of a map Reset keeps for the next keys (cleared): a larger one is dropped.
const indexKeptMax = 1 << 14

// Reset empties x for keys of fields fields, sized for size keys, keeping its maps (cleared) for them, so that an
// Index reused list after list allocates only for a list larger than those before.
//
// Only what the keys numbered since the last Reset used is cleared: small's first n (all of it once mapped), byID up to
// its length (appended to, so zero beyond it); a Reset after a list of few keys costs a few words, not the whole Index.
func (x *Index) Reset(fields, size int) {
	clear(x.small[:min(x.n, smallIndex)])
	clear(x.byID)
	x.byID = x.byID[:0]
	if cap(x.byID) > indexKeptMax {
		x.byID = nil
	}
	x.single, x.multi = keptMap(x.single), keptMap(x.multi)
	x.n, x.next = 0, 0
	x.keyed, x.mapped = fields != 1, fields == 1 && size > smallIndex
	x.sorted, x.size = x.mapped, size
	if x.keyed && x.multi == nil {
		x.multi = make(map[Key]int, size)
	}
}

// keptMap returns m cleared, or nil when it is too large to keep.
func keptMap[K comparable](m map[K]int) map[K]int {
	if len(m) > indexKeptMax {
		return nil
	}
	clear(m)
	return m
}

// ID returns the number of k and whether k is new (numbered now).
func (x *Index) ID(k *Key) (id int, fresh bool) {
	switch {
	case x.keyed:
		if id, ok := x.multi[*k]; ok {
			return id, false
		}
		id = len(x.multi)
		x.multi[*k] = id
		return id, true
	case !x.mapped:
		if i := x.next; i < x.n && x.small[i].Same(&k[0]) {
			x.next++
			return i, false
		}
		for i := range x.n {
			if x.small[i].Same(&k[0]) {
				x.next = i + 1
				return i, false
			}
		}
		if x.n < smallIndex {
			x.small[x.n] = k[0]
			x.n++
			return x.n - 1, true
		}
		x.n, x.mapped, x.sorted, x.size = 0, true, true, max(x.size, 2*smallIndex)
		for _, sk := range x.small {
			x.mappedID(sk)
		}
	}
	return x.mappedID(k[0])
}

// mappedID is ID for a single-field key sk once x is mapped.
func (x *Index) mappedID(sk value.ScalarKey) (id int, fresh bool) {
	if i := x.next; i < x.n && x.byID[i].Same(&sk) {
		x.next++
		return i, false
	}
	if x.sorted && x.n > 0 && x.byID[0] == sk {
		x.next = 1
		return 0, false
	}
	if x.sorted && x.sortedNew(sk) {
		x.byID = append(x.byID, sk)
		x.n++
		return x.n - 1, true
	}
	if x.sorted {
		x.unsort()
	}
	var ok bool
	if sk.Kind == value.KindString { // (a string's ScalarKey is its Str alone)
		id, fresh = x.strs.find(sk.Str, x.byID, x.n)
		ok = !fresh
	} else {
		if id, ok = x.single[sk]; !ok && x.single == nil {
			x.single = map[value.ScalarKey]int{}
		}
		if !ok {
			x.single[sk] = x.n
		}
	}
	if ok {
		x.next = id + 1
		return id, false
	}
	x.byID = append(x.byID, sk)
	x.n++
	return x.n - 1, true
}

// Find returns the number of k, and false where x has not numbered k; it numbers nothing (a look-up may still move
// where the next one starts, and place the keys of x sorted in its table, as ID does). It looks k up as ID does, in the
// same order; the steps are written out in each rather than shared, as ID is the collation's most frequent call and a
// call per step costs it about 1 % of a merge.
func (x *Index) Find(k *Key) (id int, found bool) {
	switch {
	case x.keyed:
		id, found = x.multi[*k]
		return id, found
	case !x.mapped:
		if i := x.next; i < x.n && x.small[i].Same(&k[0]) {
			x.next++
			return i, true
		}
		for i := range x.n {
			if x.small[i].Same(&k[0]) {
				x.next = i + 1
				return i, true
			}
		}
		return 0, false
	}
	return x.mappedFind(k[0])
}

// mappedFind is Find for a single-field key sk once x is mapped.
func (x *Index) mappedFind(sk value.ScalarKey) (id int, found bool) {
	if i := x.next; i < x.n && x.byID[i].Same(&sk) {
		x.next++
		return i, true
	}
	if x.sorted && x.n > 0 && x.byID[0] == sk {
		x.next = 1
		return 0, true
	}
	if x.sorted && x.sortedNew(sk) {
		return 0, false
	}
	if x.sorted {
		x.unsort()
	}
	if sk.Kind == value.KindString {
		id, found = x.strs.lookup(sk.Str, x.byID)
	} else {
		id, found = x.single[sk]
	}
	if found {
		x.next = id + 1
	}
	return id, found
}

// sortedNew reports whether sk, for x sorted, is a new string key that sorts after every key numbered (a key that is
// not is searched for in the table: bisection would cost a list looked up out of order more than hashing).
func (x *Index) sortedNew(sk value.ScalarKey) bool {
	return sk.Kind == value.KindString && (x.n == 0 || x.byID[x.n-1].Str < sk.Str)
}

// unsort places the keys of x sorted in its table: x is sorted no more.
func (x *Index) unsort() {
	x.sorted = false
	x.strs.reset(max(x.size, x.n), 2*indexKeptMax)
	for id := range x.n {
		x.strs.find(x.byID[id].Str, x.byID, id)
	}
}

// SetKey is a set item's identity: a scalar's value.ScalarKey, an object's canonical JSON (features.SetOfMaps, when
// objects), so two items are one exactly when value.Equal holds; ok is false for an item without identity.
func SetKey(v value.Value, objects bool) (value.ScalarKey, bool) {
	if k, ok := v.Key(); ok {
		return k, true
	}
	if objects && v.IsMap() {
		return value.ScalarKey{Kind: value.KindMap, Str: string(v.JSON())}, true
	}
	return value.ScalarKey{}, false
}

// EarliestOfKeys gives, for each item of live (the items of list b's live value, or a list equal to it less some), the
// index of the earliest item not skipped of its key (a map of a list merged by key holding every merge key field) or
// value (a set's scalar, or an object of a set of maps: SetKey): the item's own index where it is the first, or has no
// key; -1 for an item skipped (skip[i]; skip may be shorter than live, or nil). The two phases lay a list chained to b
// out by it: Phase 1 pairs a key or value with its earliest item, Phase 2 merges a later one into it (a set keeps the
// value once), so both read the same earliest item here.
func EarliestOfKeys(b *AtomicElement, live []value.Value, skip []bool) []int {
	earliest := make([]int, len(live))
	mk := b.Meta.MergeKey
	objects := SetOfMaps(b.Type, &b.Meta)
	keys, values := map[Key]int{}, map[value.ScalarKey]int{}
	for i, v := range live {
		earliest[i] = i
		switch {
		case i < len(skip) && skip[i]:
			earliest[i] = -1
		case len(mk) > 0 && !objects && v.IsMap():
			if k, missing, _ := KeyOf(v, mk, b.Type.Item()); missing == "" {
				earliest[i] = firstOf(keys, k, i)
			}
		case !v.IsMap() || objects:
			if k, isKey := SetKey(v, objects); isKey {
				earliest[i] = firstOf(values, k, i)
			}
		}
	}
	return earliest
}

// firstOf is the index seen records for k, recording i where it records none.
func firstOf[K comparable](seen map[K]int, k K, i int) int {
	if at, ok := seen[k]; ok {
		return at
	}
	seen[k] = i
	return i
}

// MergedList reports whether a list of type t with metadata meta merges.
func MergedList(t *openapi.Type, meta *openapi.Meta) bool {
	return t.Kind == openapi.KindList && meta.Strategy.Has(openapi.StrategyMerge)
}

// SetOfMaps reports whether a list of type t with metadata meta is a merged x-kubernetes-list-type set of objects.
func SetOfMaps(t *openapi.Type, meta *openapi.Meta) bool {
	k := t.Item().Kind // (openapi.Unknown's unless t is a list)
	return meta.Set && MergedList(t, meta) && (k == openapi.KindStruct || k == openapi.KindMap)
}
