package elements

import (
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/fieldpath"
	"github.com/plyproject/ply/pkg/value"
)

// The identity of a list item, one rule for every phase and front-end: in a keyed list its merge-key tuple
// (KeyOf), in a set its value (SetKey); a live item that cannot be matched by key is its live index.

// MaxKeyFields is the largest number of fields a merge key may have.
const MaxKeyFields = 4

// Key is the hashable identity of an item of a keyed list: the value.ScalarKeys of its merge-key fields in
// key order, unused slots zero.
type Key [MaxKeyFields]value.ScalarKey

// keyField is item's value of merge-key field name: its own non-null value, else itemType's key default; ok
// is false when there is neither.
func keyField(item value.Value, name string, itemType *openapi.Type) (v value.Value, ok bool) {
	if v, ok = item.Get(name); ok && !v.IsNull() {
		return v, true
	}
	return itemType.KeyDefault(name)
}

// KeyOf returns the Key of item for mergeKey (at most MaxKeyFields fields), a key field left out or null
// taking the item type's default (openapi.Type.KeyDefault). missing names the first key field with neither a
// value nor a default, or that is not a scalar (bad then); k is valid only when missing is empty.
func KeyOf(item value.Value, mergeKey []string, itemType *openapi.Type) (k Key, missing string, bad bool) {
	for i, name := range mergeKey {
		v, ok := keyField(item, name, itemType)
		if !ok {
			return k, name, false
		}
		sk, ok := v.Key()
		if !ok {
			return k, name, true
		}
		k[i] = sk
	}
	return k, "", false
}

// KeyFields returns the merge-key fields of item by the rule of KeyOf, for paths and patch entries; a field
// with neither value nor default is null.
func KeyFields(item value.Value, mergeKey []string, itemType *openapi.Type) []fieldpath.KeyField {
	kf := make([]fieldpath.KeyField, len(mergeKey))
	for i, name := range mergeKey {
		v, ok := keyField(item, name, itemType)
		if !ok {
			v = value.Null
		}
		kf[i] = fieldpath.KeyField{Name: name, Value: v}
	}
	return kf
}

// Index numbers the Keys of one list densely, in order of first sight. Single-field keys are hashed by their
// one ScalarKey, and up to smallIndex of them are searched in place, without a map.
type Index struct {
	single map[value.ScalarKey]int
	multi  map[Key]int
	// small holds the first n single-field keys while no map is made; next is the one after the key found
	// last, tried first (sources mostly list their items in one order).
	small   [smallIndex]value.ScalarKey
	n, next int
}

// smallIndex is the most keys Index compares one by one (cheaper than hashing).
const smallIndex = 12

// NewIndex returns an Index for keys of fields fields, sized for size keys.
func NewIndex(fields, size int) Index {
	switch {
	case fields != 1:
		return Index{multi: make(map[Key]int, size)}
	case size > smallIndex:
		return Index{single: make(map[value.ScalarKey]int, size)}
	}
	return Index{}
}

// ID returns the number of k and whether k is new (numbered now).
func (x *Index) ID(k *Key) (id int, fresh bool) {
	switch {
	case x.multi != nil:
		if id, ok := x.multi[*k]; ok {
			return id, false
		}
		id = len(x.multi)
		x.multi[*k] = id
		return id, true
	case x.single == nil:
		if i := x.next; i < x.n && x.small[i] == k[0] {
			x.next++
			return i, false
		}
		for i := range x.n {
			if x.small[i] == k[0] {
				x.next = i + 1
				return i, false
			}
		}
		if x.n < smallIndex {
			x.small[x.n] = k[0]
			x.n++
			return x.n - 1, true
		}
		x.single = make(map[value.ScalarKey]int, 2*smallIndex)
		for i, sk := range x.small {
			x.single[sk] = i
		}
	}
	if id, ok := x.single[k[0]]; ok {
		return id, false
	}
	id = len(x.single)
	x.single[k[0]] = id
	return id, true
}

// SetKey is the identity of an item of a set: a scalar's value.ScalarKey, an object's (features.SetOfMaps,
// when objects) canonical JSON, so two items are one exactly when value.Equal holds. ok is false for an item
// without identity.
func SetKey(v value.Value, objects bool) (value.ScalarKey, bool) {
	if k, ok := v.Key(); ok {
		return k, true
	}
	if objects && v.IsMap() {
		return value.ScalarKey{Kind: value.KindMap, Str: string(v.JSON())}, true
	}
	return value.ScalarKey{}, false
}

// MergedList reports whether a list of type t with metadata meta merges.
func MergedList(t *openapi.Type, meta *openapi.Meta) bool {
	return t.Kind == openapi.KindList && meta.Strategy.Has(openapi.StrategyMerge)
}

// SetOfMaps reports whether a list of type t with metadata meta is a merged set of maps
// (x-kubernetes-list-type: set over objects).
func SetOfMaps(t *openapi.Type, meta *openapi.Meta) bool {
	if t.Kind != openapi.KindList || !meta.Set || !meta.Strategy.Has(openapi.StrategyMerge) {
		return false
	}
	k := t.Item().Kind
	return k == openapi.KindStruct || k == openapi.KindMap
}
