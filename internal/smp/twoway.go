package smp

import (
	"strconv"

	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/value"
)

// TwoWay returns the strategic merge patch that turns original into
// modified for a value of type t with metadata meta, the way kubectl's
// two-way diff writes it without parallel order lists: changed and added
// fields, null for removed fields, merged lists of maps as the changed and
// added items (with their merge key) plus a delete directive per removed
// item, merged sets as their added values plus a $deleteFromPrimitiveList
// list on the parent. ok is false when the two are equal for merging
// purposes (an order-only change of a merged list is no change).
func TwoWay(original, modified value.Value, t *openapi.Type, meta openapi.Meta) (patch value.Value, ok bool) {
	if !SameJSONType(original, modified) {
		return modified, true
	}
	switch modified.Kind() {
	case value.KindMap:
		if meta.Strategy.Has(openapi.StrategyReplace) {
			return modified, true
		}
		return twoWayMap(original, modified, t, meta.Strategy.Has(openapi.StrategyRetainKeys))
	case value.KindList:
		if t != nil && t.Kind == openapi.KindList && meta.Strategy.Has(openapi.StrategyMerge) {
			if isMapList(original, modified) {
				if len(meta.MergeKey) > 0 {
					return twoWayKeyed(original, modified, t.Item(), meta)
				}
			} else {
				added := setDifference(modified, original)
				if len(added) == 0 {
					return value.Value{}, false
				}
				return value.List(added), true
			}
		}
	}
	if value.Equal(original, modified) {
		return value.Value{}, false
	}
	return modified, true
}

func twoWayMap(original, modified value.Value, t *openapi.Type, retain bool) (value.Value, bool) {
	var out []value.Field
	of, mf := original.Fields(), modified.Fields()
	i, j := 0, 0
	for i < len(of) || j < len(mf) {
		switch {
		case j >= len(mf) || (i < len(of) && of[i].Key < mf[j].Key):
			out = append(out, value.Field{Key: of[i].Key, Value: value.Null})
			i++
		case i >= len(of) || mf[j].Key < of[i].Key:
			out = append(out, mf[j])
			j++
		default:
			key := mf[j].Key
			ct, cm := t.Child(key)
			if p, ok := TwoWay(of[i].Value, mf[j].Value, ct, cm); ok {
				out = append(out, value.Field{Key: key, Value: p})
			}
			if ct.Kind == openapi.KindList && cm.Strategy.Has(openapi.StrategyMerge) &&
				of[i].Value.IsList() && mf[j].Value.IsList() && !isMapList(of[i].Value, mf[j].Value) {
				if dels := setDifference(of[i].Value, mf[j].Value); len(dels) > 0 {
					out = append(out, value.Field{Key: DeletePrefix + key, Value: value.List(dels)})
				}
			}
			i++
			j++
		}
	}
	if retain && (len(out) > 0 || droppedNonNull(original, modified)) {
		// A retainKeys map names the fields to keep: modified's non-null
		// ones (none named, none sent, as kubectl does).
		var keys []value.Value
		for _, f := range mf {
			if !f.Value.IsNull() {
				keys = append(keys, value.String(f.Key))
			}
		}
		if len(keys) > 0 {
			out = append(out, value.Field{Key: RetainKeysKey, Value: value.List(keys)})
		}
	}
	if len(out) == 0 {
		return value.Value{}, false
	}
	m, _, _ := value.NewMap(out)
	return m, true
}

// droppedNonNull reports whether original has a non-null field modified
// lacks.
func droppedNonNull(original, modified value.Value) bool {
	for _, f := range original.Fields() {
		if _, ok := modified.Get(f.Key); !ok && !f.Value.IsNull() {
			return true
		}
	}
	return false
}

// isMapList reports whether the items of the lists are objects.
func isMapList(lists ...value.Value) bool {
	for _, l := range lists {
		for _, it := range l.Items() {
			return it.IsMap()
		}
	}
	return false
}

// setDifference lists the distinct values of a that b lacks, in a's order.
func setDifference(a, b value.Value) []value.Value {
	in := make(map[value.ScalarKey]bool, b.Len())
	for _, v := range b.Items() {
		if k, ok := v.Key(); ok {
			in[k] = true
		}
	}
	var out []value.Value
	for _, v := range a.Items() {
		k, ok := v.Key()
		if !ok || in[k] {
			continue
		}
		in[k] = true
		out = append(out, v)
	}
	return out
}

// KeyString renders a merge-key value the way kubectl compares and sorts
// keys (Go's %v of the decoded JSON value).
func KeyString(v value.Value) string {
	switch v.Kind() {
	case value.KindString:
		s, _ := v.AsString()
		return s
	case value.KindInt, value.KindFloat:
		f, _ := v.AsFloat()
		return strconv.FormatFloat(f, 'g', -1, 64)
	case value.KindBool:
		b, _ := v.AsBool()
		return strconv.FormatBool(b)
	case value.KindNull:
		return "<nil>"
	}
	return v.Short()
}

// keyOf returns an item's merge-key identity (the key fields' KeyStrings
// joined by NUL) and whether the item has every key field.
func keyOf(item value.Value, mergeKey []string) (string, bool) {
	if !item.IsMap() {
		return "", false
	}
	id := ""
	for i, name := range mergeKey {
		v, ok := item.Get(name)
		if !ok {
			return "", false
		}
		if i > 0 {
			id += "\x00"
		}
		id += KeyString(v)
	}
	return id, true
}

func twoWayKeyed(original, modified value.Value, itemType *openapi.Type, meta openapi.Meta) (value.Value, bool) {
	mergeKey := meta.MergeKey
	itemMeta := openapi.Meta{Strategy: meta.Strategy & openapi.StrategyRetainKeys}
	if original.Len() == 0 {
		if modified.Len() == 0 {
			return value.Value{}, false
		}
		return modified, true
	}
	byKey := make(map[string]value.Value, original.Len())
	for _, it := range original.Items() {
		if k, ok := keyOf(it, mergeKey); ok {
			if _, dup := byKey[k]; !dup {
				byKey[k] = it
			}
		}
	}
	seen := make(map[string]bool, modified.Len())
	var out []value.Value
	for _, it := range modified.Items() {
		k, ok := keyOf(it, mergeKey)
		if !ok {
			continue
		}
		seen[k] = true
		orig, found := byKey[k]
		if !found {
			out = append(out, it)
			continue
		}
		if p, changed := TwoWay(orig, it, itemType, itemMeta); changed && p.IsMap() {
			for _, name := range mergeKey {
				v, _ := it.Get(name)
				p = p.With(name, v)
			}
			out = append(out, p)
		}
	}
	for _, it := range original.Items() {
		k, ok := keyOf(it, mergeKey)
		if !ok || seen[k] {
			continue
		}
		seen[k] = true
		d := value.MustMap(value.Field{Key: DirectiveKey, Value: value.String(DeleteValue)})
		for _, name := range mergeKey {
			v, _ := it.Get(name)
			d = d.With(name, v)
		}
		out = append(out, d)
	}
	if len(out) == 0 {
		return value.Value{}, false
	}
	return value.List(out), true
}
