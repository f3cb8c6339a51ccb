package delta

import (
	"errors"
	"sort"
	"strconv"
	"strings"

	"github.com/plyproject/ply/internal/smp"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/value"
)

// This file merges the two halves of kubectl's three-way patch for a Ranked list, as values: the deletions half is
// the patch merged into, the delta half the patch merged, each a value made from the one tree, by the rules of
// strategicpatch's mergeMap with its MergeOptions zero (CreateThreeWayMergePatch's): nulls stay nulls,
// "$retainKeys" and "$deleteFromPrimitiveList/<f>" are copied, "$setElementOrder/<f>" orders its list and is copied
// (the merged-into patch's, if any, must equal it), the merged-into patch's "$patch: delete" items are data that an
// item of their key merges into, and an item of a key merges into the first item of that key. Nothing is collated.

// halvesError is an error kubectl's merge of its halves meets: its patch cannot be made.
func halvesError(msg string) error { return errors.New(msg) }

// fieldsOf is a map's fields, changed in place by the merge; a key is found by a linear search (patch maps are small).
type fieldsOf []value.Field

// get returns the value of key, ok false if fs lacks it.
func (fs fieldsOf) get(key string) (value.Value, bool) {
	for _, f := range fs {
		if f.Key == key {
			return f.Value, true
		}
	}
	return value.Value{}, false
}

// set sets key to v, in its place or appended.
func (fs *fieldsOf) set(key string, v value.Value) {
	for i := range *fs {
		if (*fs)[i].Key == key {
			(*fs)[i].Value = v
			return
		}
	}
	*fs = append(*fs, value.Field{Key: key, Value: v})
}

// del removes key, if fs has it.
func (fs *fieldsOf) del(key string) {
	for i := range *fs {
		if (*fs)[i].Key == key {
			*fs = append((*fs)[:i], (*fs)[i+1:]...)
			return
		}
	}
}

// mergePatchMaps merges patch map p into patch map o, objects of type t (see the file's comment).
func mergePatchMaps(o, p value.Value, t *openapi.Type) (value.Value, error) {
	if dir, ok := p.Get(smp.DirectiveKey); ok {
		switch s, _ := dir.AsString(); s {
		case smp.ReplaceValue:
			return p.Without(smp.DirectiveKey), nil
		case smp.DeleteValue:
			return value.MustMap(), nil
		}
		return value.Value{}, halvesError("invalid $patch directive " + string(dir.JSON()))
	}
	out := fieldsOf(append([]value.Field(nil), o.Fields()...))
	rest := fieldsOf(append([]value.Field(nil), p.Fields()...))
	if rk, ok := rest.get(smp.RetainKeysKey); ok {
		rest.del(smp.RetainKeysKey)
		if ok, err := copyDirective(&out, smp.RetainKeysKey, rk); !ok {
			return value.Value{}, err
		}
	}
	for _, f := range p.Fields() {
		if strings.HasPrefix(f.Key, smp.SetOrderPrefix) {
			if err := mergeOrderedList(&out, &rest, f, t); err != nil {
				return value.Value{}, err
			}
		}
	}
	for _, f := range rest {
		if err := mergePatchField(&out, f, t); err != nil {
			return value.Value{}, err
		}
	}
	m, dup, ok := value.NewMap(out)
	if !ok {
		return value.Value{}, halvesError("duplicate field " + dup)
	}
	return m, nil
}

// copyDirective copies directive key's value v into out, which must hold the same value if it has the key.
func copyDirective(out *fieldsOf, key string, v value.Value) (bool, error) {
	if ov, ok := out.get(key); ok {
		if !value.Equal(ov, v) {
			return false, halvesError(key + " differs from the first patch's; patches merged must agree on it")
		}
		return true, nil
	}
	out.set(key, v)
	return true, nil
}

// mergePatchField merges field f of a patch (no "$setElementOrder/" key, no list it orders) into out, of type t.
func mergePatchField(out *fieldsOf, f value.Field, t *openapi.Type) error {
	k, pv := f.Key, f.Value
	if strings.HasPrefix(k, smp.DeletePrefix) || pv.IsNull() {
		out.set(k, pv)
		return nil
	}
	ov, ok := out.get(k)
	if !ok || kindClass(ov) != kindClass(pv) {
		if v, keep := smp.WithoutDirectives(pv); keep {
			out.set(k, v)
		} else {
			out.del(k)
		}
		return nil
	}
	ct, meta := t.Child(k)
	switch {
	case pv.IsMap() && meta.Strategy.Has(openapi.StrategyReplace):
		out.set(k, pv)
	case pv.IsMap():
		m, err := mergePatchMaps(ov, pv, ct)
		if err != nil {
			return err
		}
		out.set(k, m)
	case pv.IsList() && meta.Strategy.Has(openapi.StrategyMerge):
		l, err := mergePatchLists(ov.Items(), pv.Items(), ct.Item(), meta.MergeKey)
		if err != nil {
			return err
		}
		out.set(k, value.List(l))
	default: // a list not merged, sent whole; a scalar
		out.set(k, pv)
	}
	return nil
}

// mergeOrderedList merges the list that patch field so ("$setElementOrder/<f>") orders: so is copied into out (whose
// own must equal it), and f's lists in out and rest are merged, ordered by so, the merged list set in out and f
// taken from rest.
func mergeOrderedList(out, rest *fieldsOf, so value.Field, t *openapi.Type) error {
	rest.del(so.Key)
	if ok, err := copyDirective(out, so.Key, so.Value); !ok {
		return err
	}
	if !so.Value.IsList() {
		return halvesError(so.Key + " is not a list: it is " + so.Value.Kind().String())
	}
	name := strings.TrimPrefix(so.Key, smp.SetOrderPrefix)
	ol, foundO := out.get(name)
	pl, foundP := rest.get(name)
	switch {
	case foundO && !ol.IsList():
		return halvesError(so.Key + " orders a list, but the first patch's value is " + ol.Kind().String())
	case foundP && !pl.IsList():
		return halvesError(so.Key + " orders a list, but the patch sets " + name + " to " + pl.Kind().String())
	}
	ct, meta := t.Child(name)
	mk, order := meta.MergeKey, so.Value.Items()
	if foundP && len(order) > 0 && pl.Len() > 0 {
		if i := firstOutOfOrder(pl.Items(), order, mk); i > 0 {
			return halvesError("the order of the patch list contradicts " + so.Key + ": patch list item " + strconv.Itoa(i-1) + " comes after an item it precedes there")
		}
	}
	var merged []value.Value
	switch {
	case !foundO && !foundP:
		return nil
	case !foundP:
		merged = ol.Items()
	case !foundO:
		v, _ := smp.WithoutDirectives(pl)
		merged = v.Items()
	case meta.Strategy.Has(openapi.StrategyMerge):
		var err error
		if merged, err = mergePatchLists(ol.Items(), pl.Items(), ct.Item(), mk); err != nil {
			return err
		}
	default:
		merged = pl.Items()
	}
	isMap, err := itemsAreMaps(ol.Items(), pl.Items())
	if err != nil {
		return err
	}
	inOrder, others, err := partitionByPresence(merged, order, mk, isMap)
	if err != nil {
		return err
	}
	both, err := normalizeElementOrder(inOrder, others, order, ol.Items(), mk, isMap)
	if err != nil {
		return err
	}
	out.set(name, value.List(both))
	rest.del(name)
	return nil
}

// kindClass is a value's kind as kubectl's decoded JSON tells kinds apart: every number is one.
func kindClass(v value.Value) value.Kind {
	if v.Kind() == value.KindInt {
		return value.KindFloat
	}
	return v.Kind()
}

// itemsAreMaps reports whether the items of lists are maps, all of one kind; an error if they differ, are lists,
// or there are none (kubectl's sliceElementType).
func itemsAreMaps(lists ...[]value.Value) (bool, error) {
	kind, found := value.KindNull, false
	for _, l := range lists {
		for _, it := range l {
			switch k := kindClass(it); {
			case !found && k == value.KindList:
				return false, halvesError("lists of lists are not supported")
			case !found:
				kind, found = k, true
			case k != kind:
				return false, halvesError("list element types are not identical")
			}
		}
	}
	if !found {
		return false, halvesError("no elements in any of the given slices")
	}
	return kind == value.KindMap, nil
}

// mergePatchLists merges patch list p into patch list o, a merged list whose items are of type itemType, keyed by mk
// for maps (kubectl's mergeSlice): scalars are united, maps of a key merged into o's first of it, the rest appended;
// then ordered by p, o's items not in p kept in o's order among them.
func mergePatchLists(o, p []value.Value, itemType *openapi.Type, mk []string) ([]value.Value, error) {
	if len(o) == 0 && len(p) == 0 {
		return o, nil
	}
	isMap, err := itemsAreMaps(o, p)
	if err != nil {
		return nil, err
	}
	var merged []value.Value
	if !isMap {
		merged = smp.DedupScalars(append(append([]value.Value(nil), o...), p...))
	} else {
		if len(mk) == 0 {
			return nil, halvesError("cannot merge lists without merge key")
		}
		if o, p, err = withoutSpecialItems(o, p, mk); err != nil {
			return nil, err
		}
		if merged, err = mergeKeyedItems(o, p, itemType, mk); err != nil {
			return nil, err
		}
		o = merged[:len(o)] // (kubectl merges in place: its original list holds the merged items)
	}
	inPatch, others, err := partitionByPresence(merged, p, mk, isMap)
	if err != nil {
		return nil, err
	}
	return normalizeElementOrder(inPatch, others, p, o, mk, isMap)
}

// withoutSpecialItems applies p's "$patch" items to o (kubectl's mergeSliceWithSpecialElements): a delete removes
// o's items of its key, a replace makes p's other items the list; it returns o and p's other items.
func withoutSpecialItems(o, p []value.Value, mk []string) ([]value.Value, []value.Value, error) {
	var rest []value.Value
	replace := false
	for _, it := range p {
		dir, ok := it.Get(smp.DirectiveKey)
		if !ok {
			rest = append(rest, it)
			continue
		}
		switch s, _ := dir.AsString(); {
		case s == smp.DeleteValue && dir.Kind() == value.KindString:
			if !hasKey(it, mk) {
				return nil, nil, halvesError("map has no merge key")
			}
			kept := make([]value.Value, 0, len(o))
			for _, x := range o {
				if !x.IsMap() {
					return nil, nil, halvesError("list item is not a map")
				}
				if !hasKey(x, mk) || !sameKey(x, it, mk) {
					kept = append(kept, x)
				}
			}
			o = kept
		case s == smp.ReplaceValue && dir.Kind() == value.KindString:
			replace = true
		default:
			return nil, nil, halvesError("invalid $patch directive in a list " + string(dir.JSON()))
		}
	}
	if replace {
		return rest, nil, nil
	}
	return o, rest, nil
}

// mergeKeyedItems merges each item of p into o's first item of its key, or appends it (kubectl's
// mergeSliceWithoutSpecialElements); o's items keep their places.
func mergeKeyedItems(o, p []value.Value, itemType *openapi.Type, mk []string) ([]value.Value, error) {
	out := append(make([]value.Value, 0, len(o)+len(p)), o...)
	for _, it := range p {
		if !hasKey(it, mk) {
			return nil, halvesError("map has no merge key")
		}
		at := -1
		for i, x := range out {
			if !x.IsMap() {
				return nil, halvesError("list item is not a map")
			}
			if hasKey(x, mk) && sameKey(x, it, mk) {
				at = i
				break
			}
		}
		if at < 0 {
			out = append(out, it)
			continue
		}
		m, err := mergePatchMaps(out[at], it, itemType)
		if err != nil {
			return nil, err
		}
		out[at] = m
	}
	return out, nil
}

// hasKey reports whether map item has every merge-key field.
func hasKey(item value.Value, mk []string) bool {
	for _, name := range mk {
		if _, ok := item.Get(name); !ok {
			return false
		}
	}
	return true
}

// sameKey compares a's and b's merge-key fields as kubectl compares a key's value (two absent ones are the same).
func sameKey(a, b value.Value, mk []string) bool {
	for _, name := range mk {
		av, aok := a.Get(name)
		bv, bok := b.Get(name)
		if aok != bok || (aok && !value.Equal(av, bv)) {
			return false
		}
	}
	return true
}

// indexIn returns the position of v in l (by merge key for maps, as a whole otherwise), or -1.
func indexIn(l []value.Value, v value.Value, mk []string, isMap bool) int {
	for i, x := range l {
		if (isMap && sameKey(x, v, mk)) || (!isMap && value.Equal(x, v)) {
			return i
		}
	}
	return -1
}

// partitionByPresence splits items into those present in by (by merge key for maps) and the others.
func partitionByPresence(items, by []value.Value, mk []string, isMap bool) (in, others []value.Value, err error) {
	for _, it := range items {
		if isMap && (!it.IsMap() || !hasKey(it, mk)) {
			return nil, nil, halvesError("list item has no merge key")
		}
		if isMap && hasNonMap(by) {
			return nil, nil, halvesError("list item is not a map")
		}
		if indexIn(by, it, mk, isMap) >= 0 {
			in = append(in, it)
		} else {
			others = append(others, it)
		}
	}
	return in, others, nil
}

// hasNonMap reports whether an item of l is not a map.
func hasNonMap(l []value.Value) bool {
	for _, x := range l {
		if !x.IsMap() {
			return true
		}
	}
	return false
}

// normalizeElementOrder orders patch's items by patchOrder and others by serverOrder, then interleaves others into
// patch's by serverOrder (kubectl's normalizeElementOrder and mergeSortedSlice).
func normalizeElementOrder(patch, others, patchOrder, serverOrder []value.Value, mk []string, isMap bool) ([]value.Value, error) {
	patch, err := normalizeSliceOrder(patch, patchOrder, mk, isMap)
	if err != nil {
		return nil, err
	}
	if others, err = normalizeSliceOrder(others, serverOrder, mk, isMap); err != nil {
		return nil, err
	}
	out := make([]value.Value, 0, len(patch)+len(others))
	i, j := 0, 0
	for len(out) < cap(out) {
		switch {
		case i >= len(others):
			out, j = append(out, patch[j]), j+1
		case j >= len(patch):
			out, i = append(out, others[i]), i+1
		default:
			li, ri := indexIn(serverOrder, others[i], mk, isMap), indexIn(serverOrder, patch[j], mk, isMap)
			if li >= 0 && ri >= 0 && li < ri {
				out, i = append(out, others[i]), i+1
			} else {
				out, j = append(out, patch[j]), j+1
			}
		}
	}
	return out, nil
}

// normalizeSliceOrder sorts toSort by order as kubectl's normalizeSliceOrder does (its comparison, with
// sort.SliceStable), maps' "$patch: delete" items last.
func normalizeSliceOrder(toSort, order []value.Value, mk []string, isMap bool) ([]value.Value, error) {
	var deletes []value.Value
	if isMap {
		for _, l := range [...][]value.Value{toSort, order} {
			for _, it := range l {
				if !it.IsMap() || !hasKey(it, mk) {
					return nil, halvesError("list item has no merge key")
				}
			}
		}
		kept := make([]value.Value, 0, len(toSort))
		for _, it := range toSort {
			if dir, ok := it.Get(smp.DirectiveKey); ok && value.Equal(dir, value.String(smp.DeleteValue)) {
				deletes = append(deletes, it)
			} else {
				kept = append(kept, it)
			}
		}
		toSort = kept
	} else {
		toSort = append([]value.Value(nil), toSort...)
	}
	sort.SliceStable(toSort, func(i, j int) bool {
		if ii := indexIn(order, toSort[i], mk, isMap); ii >= 0 {
			if ij := indexIn(order, toSort[j], mk, isMap); ij >= 0 {
				return ii < ij
			}
		}
		return true
	})
	return append(toSort, deletes...), nil
}
