package delta

import (
	"slices"
	"strings"

	"github.com/plyproject/ply/internal/smp"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/pkg/fieldpath"
	"github.com/plyproject/ply/pkg/value"
)

// This file gives kubectl's three-way patch what strategicpatch's merge of its halves leaves of a map holding "$patch"
// that local (modified) holds where the patch writes local's value whole (a list without merge strategy, a keyed list
// without items to pair, content live lacks): the merge takes the delta half's value at a field the deletions half
// lacks (or holds as another kind) less every map holding "$patch" (a field holding one dropped, a list's item
// dropped), at any depth; at a field both halves hold as maps it merges them field by field, at one both hold as
// lists merged by key it merges the delta's item into the deletions' item of its key field by field (other items as
// they stand), and at other lists both hold it keeps the delta's items as they stand. "$retainKeys", "$setElementOrder/<f>" and
// "$deleteFromPrimitiveList/<f>" are copied as they stand. The two-way patch writes local's value as it stands, as
// strategicpatch's does. Applied with gate MultiFieldMergeKeys off (the kubectl view); local's other maps holding a
// directive are refused by the collation.

// withoutLocalDirectives is three-way patch p of tree root less what kubectl's merge of its halves drops (see the
// file's comment), with the paths of its lists that lost every item so (emptied); p itself where the walk that made p
// wrote no value of local whole that holds a map holding "$patch" (wrote false: Visitor.wrote notes it where it
// writes one, so that p is not walked again to find them), where local holds no map holding "$patch" that p holds, or
// with the gate on.
func withoutLocalDirectives(p value.Value, wrote bool, root elements.Element, beside Beside, gates features.Gates) (value.Value, []fieldpath.Path, error) {
	if !wrote || gates.Enabled(features.MultiFieldMergeKeys) || !holdsCleaned(p) {
		return p, nil, nil
	}
	if n := root.Base(); !n.HasLocal || !smp.HoldsDirectives(n.Local) {
		return p, nil, nil
	}
	dels, ok, err := Patch(root, beside, Deletions, gates)
	if err != nil {
		return p, nil, err
	}
	if !ok {
		dels = value.MustMap()
	}
	var emptied []fieldpath.Path
	n := root.Base()
	return mergedOver(p, dels, n.Type, n.Meta, nil, &emptied), emptied, nil
}

// mergedOver is patch map p (the halves merged) at path, of type t with metadata meta, with each field's value as
// kubectl's merge leaves it over the deletions half's map dels: a field dels lacks or holds as another kind cleaned
// (withoutDirectiveMaps), one both hold as maps walked alike, one both hold as lists merged by key walked item by item
// (mergedItems), others as they stand. The paths of lists so emptied are appended to emptied.
func mergedOver(p, dels value.Value, t *openapi.Type, meta openapi.Meta, path fieldpath.Path, emptied *[]fieldpath.Path) value.Value {
	out := make([]value.Field, 0, p.Len())
	changed := false
	for _, f := range p.Fields() {
		v, keep := f.Value, true
		if d, ok := dels.Get(f.Key); !copiedDirective(f.Key) && smp.HoldsDirectives(v) {
			at := path.Child(fieldpath.Field(f.Key))
			ct, cm := t.Child(f.Key)
			switch {
			case ok && d.IsMap() && v.IsMap():
				v, changed = mergedOver(v, d, ct, cm, at, emptied), true
			case ok && d.IsList() && v.IsList():
				if elements.MergedList(ct, &cm) && len(cm.MergeKey) > 0 {
					v, changed = mergedItems(v, d, ct.Item(), cm.MergeKey, at, emptied), true
				}
			default:
				v, keep = withoutDirectiveMaps(v)
				appendEmptied(f.Value, v, ct, cm, at, emptied)
				changed = true
			}
		}
		if keep {
			out = append(out, value.Field{Key: f.Key, Value: v})
		}
	}
	if !changed {
		return p
	}
	return value.MapFromSorted(out)
}

// mergedItems is patch list p, merged by mergeKey, at path as kubectl's merge of the halves leaves it over the
// deletions half's list dels: an item of p whose key a map of dels holds is walked over it (mergedOver), as the
// merge merges the delta's item into the deletions' one; other items (new to dels, or the deletions' own items
// holding "$patch") stand as they are.
func mergedItems(p, dels value.Value, itemType *openapi.Type, mergeKey []string, path fieldpath.Path, emptied *[]fieldpath.Path) value.Value {
	byKey := make(map[elements.Key]value.Value, dels.Len())
	for _, it := range dels.Items() {
		if k, ok := keyOfItem(it, mergeKey, itemType); ok {
			if _, seen := byKey[k]; !seen {
				byKey[k] = it
			}
		}
	}
	items := make([]value.Value, 0, p.Len())
	for _, it := range p.Items() {
		k, ok := keyOfItem(it, mergeKey, itemType)
		d, found := byKey[k]
		if _, directive := it.Get(smp.DirectiveKey); ok && found && it.IsMap() && !directive && smp.HoldsDirectives(it) {
			at := path.Child(fieldpath.Key(elements.KeyFields(it, mergeKey, itemType)))
			it = mergedOver(it, d, itemType, openapi.Meta{}, at, emptied)
		}
		items = append(items, it)
	}
	return value.List(items)
}

// appendEmptied appends to emptied path and the paths below it, of type t with metadata meta, where list was holds
// items and is (was cleaned by withoutDirectiveMaps) holds none: through maps, and through the items of lists,
// named as kubectl's check names them (by key in a list merged by key, by position in is otherwise).
func appendEmptied(was, is value.Value, t *openapi.Type, meta openapi.Meta, path fieldpath.Path, emptied *[]fieldpath.Path) {
	switch {
	case was.IsList() && is.IsList() && was.Len() > 0 && is.Len() == 0:
		*emptied = append(*emptied, path)
	case was.IsList() && is.IsList():
		merged := elements.MergedList(t, &meta) && len(meta.MergeKey) > 0
		kept := slices.DeleteFunc(slices.Clone(was.Items()), func(it value.Value) bool {
			_, directive := it.Get(smp.DirectiveKey)
			return it.IsMap() && directive
		})
		for i, it := range is.Items() {
			at := path.Child(fieldpath.Index(i))
			if merged {
				if _, ok := keyOfItem(it, meta.MergeKey, t.Item()); !ok {
					continue
				}
				at = path.Child(fieldpath.Key(elements.KeyFields(it, meta.MergeKey, t.Item())))
			}
			if i < len(kept) {
				appendEmptied(kept[i], it, t.Item(), openapi.Meta{}, at, emptied)
			}
		}
	case was.IsMap() && is.IsMap():
		for _, f := range is.Fields() {
			if w, ok := was.Get(f.Key); ok {
				ct, cm := t.Child(f.Key)
				appendEmptied(w, f.Value, ct, cm, path.Child(fieldpath.Field(f.Key)), emptied)
			}
		}
	}
}

// holdsCleaned reports whether patch value v holds, at any depth, a map holding "$patch" outside the directives kubectl's
// merge of its halves copies as it stands (copiedDirective): whether withoutLocalDirectives may change it. (A patch's
// "$setElementOrder" lists, as long as the lists they order, are not walked.)
func holdsCleaned(v value.Value) bool {
	switch v.Kind() {
	case value.KindMap:
		for _, f := range v.Fields() {
			if f.Key == smp.DirectiveKey || (!copiedDirective(f.Key) && holdsCleaned(f.Value)) {
				return true
			}
		}
	case value.KindList:
		return slices.ContainsFunc(v.Items(), holdsCleaned)
	}
	return false
}

// copiedDirective reports whether patch field key is a directive kubectl's merge of its halves copies as it stands.
func copiedDirective(key string) bool {
	return key == smp.RetainKeysKey || strings.HasPrefix(key, smp.SetOrderPrefix) || strings.HasPrefix(key, smp.DeletePrefix)
}

// withoutDirectiveMaps is v less every map holding "$patch" at any depth, as strategicpatch's removeDirectives gives
// it (smp.WithoutDirectives; v itself where it holds none); keep false: v is such a map.
func withoutDirectiveMaps(v value.Value) (out value.Value, keep bool) {
	if !smp.HoldsDirectives(v) {
		return v, true
	}
	return smp.WithoutDirectives(v)
}
