package delta

import (
	"strings"

	"github.com/plyproject/ply/internal/elements"
	"github.com/plyproject/ply/internal/smp"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/value"
)

// keyOfItem returns the identity of item, an item of a patch list (which
// may hold anything): elements.KeyOf, with ok false when item is not a
// map, has no identity, or the key has more than elements.MaxKeyFields
// fields.
func keyOfItem(item value.Value, mergeKey []string, itemType *openapi.Type) (k elements.Key, ok bool) {
	if !item.IsMap() || len(mergeKey) > elements.MaxKeyFields {
		return k, false
	}
	k, missing, _ := elements.KeyOf(item, mergeKey, itemType)
	return k, missing == ""
}

// combineThreeWay is how kubectl assembles its three-way patch from its two
// halves: deletions (recorded -> local, removals only) and delta (live ->
// local, additions and changes only), both for a value of type t whose
// local value is local. It models strategicpatch's merge of the delta into
// the deletions as kubectl runs it (parallel lists kept, not applied):
//
//   - maps: the union of the fields; a field both have merges recursively
//     when both are maps (unless the field's strategy is replace) or both
//     are lists of maps with strategy merge; otherwise the delta's value
//     wins, null included. $retainKeys and $setElementOrder lists are the
//     deletions' when it has them (both halves compute them from local, so
//     they agree), else the delta's; $deleteFromPrimitiveList lists come
//     from the deletions only.
//   - merged lists of maps: the items that are not delete directives, one
//     per key, in local's order (an item in both halves merged), then the
//     deletions' delete directives in their order.
//
// Neither input is modified. A missing half is passed as value.Value{}
// with its has flag false.
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
	// Items local does not name (not produced by kubectl's halves, which
	// both derive their items from local) are kept, in their order.
	for _, src := range [...]struct {
		list  value.Value
		index map[elements.Key]value.Value
	}{{d2, i2}, {d1, i1}} {
		if len(src.index) == 0 {
			continue
		}
		for _, it := range src.list.Items() {
			if k, ok := keyOfItem(it, mk, itemType); ok {
				if _, left := src.index[k]; left {
					out = append(out, it)
					delete(src.index, k)
				}
			}
		}
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
// encoding/json (all numbers are one type): kubectl diffs and combines
// values of one type member by member and replaces a value whose type
// changed.
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
