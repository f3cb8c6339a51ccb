package delta

import (
	"strings"

	"github.com/plyproject/ply/internal/smp"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/pkg/fieldpath"
	"github.com/plyproject/ply/pkg/value"
)

// This file gives kubectl's three-way patch what strategicpatch's merge of its halves leaves of a map holding "$patch"
// that local (modified) holds where the patch writes local's value whole (a list without merge strategy, a keyed list
// without items to pair, content live lacks): the merge takes the delta half's value at a field the deletions half
// lacks (or holds as another kind) less every map holding "$patch" (a field holding one dropped, a list's item
// dropped), at any depth; at a field both halves hold as maps it merges them field by field, and at one both hold
// as lists it keeps the delta's items as they stand. "$retainKeys", "$setElementOrder/<f>" and
// "$deleteFromPrimitiveList/<f>" are copied as they stand. The two-way patch writes local's value as it stands, as
// strategicpatch's does. Applied with gate MultiFieldMergeKeys off (the kubectl view); local's other maps holding a
// directive are refused by the collation.

// withoutLocalDirectives is three-way patch p of tree root less what kubectl's merge of its halves drops (see the
// file's comment), with the paths of its lists that lost every item so (emptied); p itself where local holds no map
// holding "$patch" that p holds, or with the gate on.
func withoutLocalDirectives(p value.Value, root elements.Element, beside Beside, gates features.Gates) (value.Value, []fieldpath.Path, error) {
	if gates.Enabled(features.MultiFieldMergeKeys) || !holdsDirectiveMap(p) {
		return p, nil, nil
	}
	if n := root.Base(); !n.HasLocal || !holdsDirectiveMap(n.Local) {
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
	return mergedOver(p, dels, nil, &emptied), emptied, nil
}

// holdsDirectiveMap reports whether v holds, at any depth, a map holding "$patch".
func holdsDirectiveMap(v value.Value) bool {
	switch {
	case v.IsMap():
		if _, ok := v.Get(smp.DirectiveKey); ok {
			return true
		}
		for _, f := range v.Fields() {
			if holdsDirectiveMap(f.Value) {
				return true
			}
		}
	case v.IsList():
		for _, it := range v.Items() {
			if holdsDirectiveMap(it) {
				return true
			}
		}
	}
	return false
}

// mergedOver is patch map p (the halves merged) at path with each field's value as kubectl's merge leaves it over the
// deletions half's map dels: a field dels lacks or holds as another kind cleaned (withoutDirectiveMaps), one both
// hold as maps walked alike, others as they stand. The paths of lists so emptied are appended to emptied.
func mergedOver(p, dels value.Value, path fieldpath.Path, emptied *[]fieldpath.Path) value.Value {
	out := make([]value.Field, 0, p.Len())
	changed := false
	for _, f := range p.Fields() {
		v, keep := f.Value, true
		if d, ok := dels.Get(f.Key); !copiedDirective(f.Key) && holdsDirectiveMap(v) {
			at := path.Child(fieldpath.Field(f.Key))
			switch {
			case ok && d.IsMap() && v.IsMap():
				v, changed = mergedOver(v, d, at, emptied), true
			case ok && d.IsList() && v.IsList():
			default:
				v, keep = withoutDirectiveMaps(v)
				appendEmptied(f.Value, v, at, emptied)
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

// appendEmptied appends to emptied path and the paths below it, through maps, where list was holds items and is
// (was cleaned by withoutDirectiveMaps) holds none.
func appendEmptied(was, is value.Value, path fieldpath.Path, emptied *[]fieldpath.Path) {
	switch {
	case was.IsList() && is.IsList() && was.Len() > 0 && is.Len() == 0:
		*emptied = append(*emptied, path)
	case was.IsMap() && is.IsMap():
		for _, f := range is.Fields() {
			if w, ok := was.Get(f.Key); ok {
				appendEmptied(w, f.Value, path.Child(fieldpath.Field(f.Key)), emptied)
			}
		}
	}
}

// copiedDirective reports whether patch field key is a directive kubectl's merge of its halves copies as it stands.
func copiedDirective(key string) bool {
	return key == smp.RetainKeysKey || strings.HasPrefix(key, smp.SetOrderPrefix) || strings.HasPrefix(key, smp.DeletePrefix)
}

// withoutDirectiveMaps is v less every map holding "$patch" at any depth, as strategicpatch's removeDirectives gives
// it; keep false: v is such a map.
func withoutDirectiveMaps(v value.Value) (out value.Value, keep bool) {
	if !holdsDirectiveMap(v) {
		return v, true
	}
	if v.IsList() {
		items := make([]value.Value, 0, v.Len())
		for _, it := range v.Items() {
			if c, ok := withoutDirectiveMaps(it); ok {
				items = append(items, c)
			}
		}
		return value.List(items), true
	}
	if _, ok := v.Get(smp.DirectiveKey); ok {
		return value.Value{}, false
	}
	fs := make([]value.Field, 0, v.Len())
	for _, f := range v.Fields() {
		if c, ok := withoutDirectiveMaps(f.Value); ok {
			fs = append(fs, value.Field{Key: f.Key, Value: c})
		}
	}
	return value.MapFromSorted(fs), true
}
