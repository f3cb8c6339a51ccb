package engine

import (
	"slices"
	"strings"

	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/value"
)

// sources holds the values original and current hold at the place of a value of current's changes (null where one
// lacks it). A "$setElementOrder/<f>" key of their maps is data to strategicpatch's diff of original against current,
// which writes such a key where it changed, and to its conflict check, which reads it as a field.
type sources [2]value.Value

// holds reports whether the map of either source holds key.
func (s sources) holds(key string) bool {
	for _, v := range s {
		if _, ok := v.Get(key); ok && v.IsMap() {
			return true
		}
	}
	return false
}

// field is the sources of field key of the sources' maps.
func (s sources) field(key string) sources {
	var out sources
	for i, v := range s {
		if v.IsMap() {
			out[i], _ = v.Get(key)
		}
	}
	return out
}

// item is the sources of item it of a list merged by mergeKey, the sources' lists: each one's first item whose merge
// key fields equal it's (none where it lacks one).
func (s sources) item(it value.Value, mergeKey []string) sources {
	var out sources
	for i, v := range s {
		if v.IsList() {
			out[i] = itemOfKey(v, it, mergeKey)
		}
	}
	return out
}

// itemOfKey is list l's first item whose merge key fields (mergeKey) equal item it's, or null.
func itemOfKey(l, it value.Value, mergeKey []string) value.Value {
	for _, cand := range l.Items() {
		if cand.IsMap() && it.IsMap() && sameKey(cand, it, mergeKey) {
			return cand
		}
	}
	return value.Null
}

// sameKey reports whether maps a and b both hold each field of mergeKey, of equal values.
func sameKey(a, b value.Value, mergeKey []string) bool {
	for _, k := range mergeKey {
		av, aok := a.Get(k)
		bv, bok := b.Get(k)
		if !aok || !bok || !value.Equal(av, bv) {
			return false
		}
	}
	return true
}

// withoutOrder is patch p (original -> current), of type t, less the "$setElementOrder/" directives ply's diff
// generates, which strategicpatch's diff of current's changes leaves out, and so less what held nothing else: a map
// emptied so, an item of a list merged by key left with its merge key alone, a list emptied so (keep false: p itself
// is such a value; the top map is kept). A key original's or current's map holds there (src) is data and stays, and
// so does a list without merge key, written whole.
func withoutOrder(p value.Value, t *openapi.Type, src sources) (out value.Value, keep bool) {
	if !p.IsMap() {
		return p, true
	}
	fields := make([]value.Field, 0, p.Len())
	lost := false
	for _, f := range p.Fields() {
		if strings.HasPrefix(f.Key, setOrderPrefix) && !src.holds(f.Key) {
			lost = true
			continue
		}
		ct, meta := t.Child(f.Key)
		v, keep := f.Value, true
		switch {
		case v.IsMap():
			v, keep = withoutOrder(v, ct, src.field(f.Key))
		case v.IsList():
			v, keep = itemsWithoutOrder(v, ct, meta, src.field(f.Key))
		}
		if !keep {
			lost = true
			continue
		}
		fields = append(fields, value.Field{Key: f.Key, Value: v})
	}
	return value.MapFromSorted(fields), !lost || len(fields) > 0
}

// itemsWithoutOrder is withoutOrder of list l, of type t with metadata meta, the sources' lists src: in a list merged
// by key, each item is withoutOrder of it, paired with the sources' items by merge key, and an item left with its merge
// key alone is dropped, and the list with it where no item stays.
func itemsWithoutOrder(l value.Value, t *openapi.Type, meta openapi.Meta, src sources) (value.Value, bool) {
	if !elements.MergedList(t, &meta) || len(meta.MergeKey) == 0 {
		return l, true
	}
	items := make([]value.Value, 0, l.Len())
	dropped := false
	for _, it := range l.Items() {
		v, keep := withoutOrder(it, t.Item(), src.item(it, meta.MergeKey))
		if it.IsMap() && v.Len() < it.Len() && onlyKeyFields(v, meta.MergeKey) {
			keep = false
		}
		if !keep {
			dropped = true
			continue
		}
		items = append(items, v)
	}
	return value.List(items), !dropped || len(items) > 0
}

// onlyKeyFields reports whether map m holds no field but merge key fields.
func onlyKeyFields(m value.Value, mergeKey []string) bool {
	for _, f := range m.Fields() {
		if !slices.Contains(mergeKey, f.Key) {
			return false
		}
	}
	return true
}

// holdsOrderKey reports whether a map in v, at any depth, holds a "$setElementOrder/" key.
func holdsOrderKey(v value.Value) bool {
	switch {
	case v.IsMap():
		for _, f := range v.Fields() {
			if strings.HasPrefix(f.Key, setOrderPrefix) || holdsOrderKey(f.Value) {
				return true
			}
		}
	case v.IsList():
		for _, it := range v.Items() {
			if holdsOrderKey(it) {
				return true
			}
		}
	}
	return false
}
