package delta

import (
	"strings"

	"github.com/plyproject/ply/internal/elements"
	"github.com/plyproject/ply/internal/smp"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/value"
)

// keyOfItem returns the identity (elements.KeyOf) of item, an item of a
// patch list that may hold anything; ok is false when it has none.
func keyOfItem(item value.Value, mergeKey []string, itemType *openapi.Type) (k elements.Key, ok bool) {
	if !item.IsMap() || len(mergeKey) > elements.MaxKeyFields {
		return k, false
	}
	k, missing, _ := elements.KeyOf(item, mergeKey, itemType)
	return k, missing == ""
}

// combineThreeWay is kubectl's three-way patch from its halves, deletions
// and delta, for a value of type t whose local value is local: the delta
// merged into the deletions as strategicpatch merges patches, parallel
// lists kept, not applied. Maps: the union of the fields; a field both have
// merges recursively when both are maps (unless its strategy is replace) or
// merged lists of maps, else the delta's value wins, null included;
// parallel lists are the deletions' when it has them. Merged lists of maps:
// the items of either half, one per key, in local's order (merged when in
// both; both halves derive their items from local, so local names every
// item with a key), then the deletions' delete directives. A missing half
// is value.Value{} with its has flag false; neither input is modified.
func combineThreeWay(deletions value.Value, hasDeletions bool, delta value.Value, hasDelta bool, local value.Value, t *openapi.Type) (value.Value, bool) {
	switch {
	case !hasDeletions:
		return delta, hasDelta
	case !hasDelta:
		return deletions, true
	}
	return combine(deletions, delta, local, t, openapi.Meta{}), true
}

// combine merges delta d2 into deletions d1 at one node.
func combine(d1, d2, local value.Value, t *openapi.Type, meta openapi.Meta) value.Value {
	switch {
	case d2.IsNull() || !sameJSONType(d1, d2):
		return d2
	case d1.IsMap():
		if meta.Strategy.Has(openapi.StrategyReplace) {
			return d2
		}
		return combineMaps(d1, d2, local, t)
	case d1.IsList():
		if t.Kind == openapi.KindList && meta.Strategy.Has(openapi.StrategyMerge) && len(meta.MergeKey) > 0 && isMapList(d1, d2) {
			return combineItems(d1, d2, local, t.Item(), meta)
		}
	}
	return d2
}

// combineMaps merges two patch maps field by field.
func combineMaps(d1, d2, local value.Value, t *openapi.Type) value.Value {
	f1, f2 := d1.Fields(), d2.Fields()
	out := make([]value.Field, 0, len(f1)+len(f2))
	i, j := 0, 0
	for i < len(f1) || j < len(f2) {
		switch {
		case j >= len(f2) || (i < len(f1) && f1[i].Key < f2[j].Key):
			out = append(out, f1[i])
			i++
		case i >= len(f1) || f2[j].Key < f1[i].Key:
			out = append(out, f2[j])
			j++
		default:
			key := f1[i].Key
			v := f1[i].Value
			if key != smp.RetainKeysKey && !strings.HasPrefix(key, smp.SetOrderPrefix) && !strings.HasPrefix(key, smp.DeletePrefix) {
				ct, cm := t.Child(key)
				lv, _ := local.Get(key)
				v = combine(f1[i].Value, f2[j].Value, lv, ct, cm)
			}
			out = append(out, value.Field{Key: key, Value: v})
			i++
			j++
		}
	}
	return value.MapFromSorted(out)
}

// combineItems merges two patch lists of a merged list of maps.
func combineItems(d1, d2, local value.Value, itemType *openapi.Type, meta openapi.Meta) value.Value {
	mk := meta.MergeKey
	itemMeta := openapi.Meta{Strategy: meta.Strategy & openapi.StrategyRetainKeys}
	i1 := make(map[elements.Key]value.Value, d1.Len())
	var deletes []value.Value
	for _, it := range d1.Items() {
		if _, del := it.Get(smp.DirectiveKey); del {
			deletes = append(deletes, it)
			continue
		}
		if k, ok := keyOfItem(it, mk, itemType); ok {
			i1[k] = it
		}
	}
	i2 := make(map[elements.Key]value.Value, d2.Len())
	for _, it := range d2.Items() {
		if k, ok := keyOfItem(it, mk, itemType); ok {
			i2[k] = it
		}
	}
	out := make([]value.Value, 0, len(i1)+len(i2)+len(deletes))
	for _, li := range local.Items() {
		k, ok := keyOfItem(li, mk, itemType)
		if !ok {
			continue
		}
		a, inA := i1[k]
		b, inB := i2[k]
		switch {
		case inA && inB:
			out = append(out, combine(a, b, li, itemType, itemMeta))
		case inA:
			out = append(out, a)
		case inB:
			out = append(out, b)
		}
		delete(i1, k)
		delete(i2, k)
	}
	return value.List(append(out, deletes...))
}

// isMapList reports whether the items of the lists are objects (the first
// item of the first non-empty list decides).
func isMapList(lists ...value.Value) bool {
	for _, l := range lists {
		for _, it := range l.Items() {
			return it.IsMap()
		}
	}
	return false
}

// sameJSONType reports whether a and b decode to the same Go type in
// encoding/json (all numbers are one): kubectl diffs and combines values of
// one type member by member and replaces a value whose type changed.
func sameJSONType(a, b value.Value) bool {
	ka, kb := a.Kind(), b.Kind()
	if ka == value.KindFloat {
		ka = value.KindInt
	}
	if kb == value.KindFloat {
		kb = value.KindInt
	}
	return ka == kb
}
