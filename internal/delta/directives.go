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

// This file gives kubectl's three-way patch what strategicpatch's merge of its halves leaves of local's (modified's)
// maps holding "$patch", wherever local holds them: where the patch writes local's value whole (a list without merge
// strategy, a keyed list without items to pair, content live lacks) and in the maps the collation pairs (a map value,
// an item of a keyed list named by its key), whose directive keys the collation reads as data with gate
// MultiFieldMergeKeys off (collate.Options.KubectlDiffs). The merge takes the delta half's value at a field the
// deletions half lacks (or holds as another kind) less every map holding "$patch" (a field holding one dropped, a
// list's item dropped), at any depth; at a field both halves hold as maps it settles the map by the delta's "$patch"
// if the delta's map holds one ("replace": the delta's map without it; "delete": {}; another value fails), else
// merges them field by field; at one both hold as lists merged by key it reads the delta's items holding "$patch"
// first ("replace": the list is the delta's other items; "delete": no item of its key stays; another value fails),
// then merges the delta's item into the deletions' item of its key field by field (other items as they stand); at
// other lists both hold it keeps the delta's items as they stand. "$retainKeys", "$setElementOrder/<f>" and
// "$deleteFromPrimitiveList/<f>" are copied as they stand, but at a map both halves hold the merge reads the first two
// before any field: a "$retainKeys" of the delta's map must equal the deletions map's where that holds one (the
// deletions half generates one in an item of a retainKeys list; local's own, data the delta writes, may differ:
// *HalvesRetainKeysError); each "$setElementOrder/<f>" of the delta's map must equal the deletions map's where that holds
// the key, be a list, name a list (<f> in either map, where held), and name the delta's list <f> in order: its items,
// less those holding "$patch", each named by the order in turn (by merge key, or by value for scalars;
// *HalvesSetOrderError). The walk checks these where the producer noted it wrote local's "$retainKeys" or
// "$setElementOrder/<f>" (Visitor.noteMergeRead, or a value written whole holding one: holdsMergeRead). The two-way patch writes local's value as it stands, as
// strategicpatch's does (its diffs read "$patch" where both documents hold it: Visitor.markerEntry).

// withoutLocalDirectives is three-way patch p of tree root less what kubectl's merge of its halves drops or settles
// (see the file's comment), with the paths of its lists that lost every item so (emptied); p itself where the walk that
// made p wrote no key of local's the merge reads (wrote false: Visitor.wrote notes a value of local written whole
// that holds "$patch", "$retainKeys" or "$setElementOrder/<f>", Visitor.markerEntry a "$patch" field of a map the
// collation pairs, Visitor.noteMergeRead one of the other two, so that p is not walked again to find them), where
// neither local nor p holds such a key, or with the gate on. A map of the delta half holding "$patch" of a value other
// than "replace" and "delete" where the deletions half holds a map too fails the merge (*HalvesDirectiveError), and so
// do the checks of "$retainKeys" and "$setElementOrder/<f>" (see the file's comment).
func withoutLocalDirectives(p value.Value, wrote bool, root elements.Element, beside Beside, gates features.Gates) (value.Value, []fieldpath.Path, error) {
	if !wrote || gates.Enabled(features.MultiFieldMergeKeys) || !holdsCleaned(p) {
		return p, nil, nil
	}
	if n := root.Base(); !n.HasLocal || !holdsMergeRead(n.Local) {
		return p, nil, nil
	}
	dels, ok, err := Patch(root, beside, Deletions, gates)
	if err != nil {
		return p, nil, err
	}
	if !ok {
		dels = value.MustMap()
	}
	delta, _, err := Patch(root, beside, Delta, gates)
	if err != nil {
		return p, nil, err
	}
	n := root.Base()
	var h halvesMerged
	out := h.over(p, dels, delta, n.Type, n.Meta, nil)
	return out, h.emptied, h.err
}

// halvesMerged is what walking the three-way patch over its halves found: the paths of lists emptied of local's maps
// holding "$patch", and the error of kubectl's merge (the walk then stops).
type halvesMerged struct {
	emptied []fieldpath.Path
	err     error
}

// over is patch map p (the halves merged) at path, of type t with metadata meta, as kubectl's merge of the deletions
// half's map dels and the delta half's map delta (absent: the delta lacks the map) leaves it. Where delta holds
// "$patch" the merge settles the map by it, as strategicpatch's mergeMap does before it reads a field: "replace" is
// delta's map without it, "delete" is {}, another value an error. Else each field: one dels lacks or holds as another
// kind cleaned (withoutDirectiveMaps), one both hold as maps walked alike, one both hold as lists merged by key walked
// item by item (mergedItems), others as they stand.
func (h *halvesMerged) over(p, dels, delta value.Value, t *openapi.Type, meta openapi.Meta, path fieldpath.Path) value.Value {
	if d, ok := delta.Get(smp.DirectiveKey); ok && delta.IsMap() {
		switch s, str := d.AsString(); {
		case str && s == smp.ReplaceValue:
			return delta.Without(smp.DirectiveKey)
		case str && s == smp.DeleteValue:
			return value.MustMap()
		}
		h.err = &HalvesDirectiveError{Err: &elements.Error{Source: elements.Local, Path: path, Msg: smp.UnknownDirective(d)}, Map: delta}
		return p
	}
	if r, ok := delta.Get(smp.RetainKeysKey); ok && delta.IsMap() {
		if d, ok := dels.Get(smp.RetainKeysKey); ok && dels.IsMap() && !value.Equal(d, r) {
			h.err = &HalvesRetainKeysError{Err: &elements.Error{Source: elements.Local, Path: path.Child(fieldpath.Field(smp.RetainKeysKey)), Msg: retainKeysDiffer}, Deletions: d, Delta: r}
			return p
		}
	}
	if h.checkOrders(dels, delta, t, path); h.err != nil {
		return p
	}
	out := make([]value.Field, 0, p.Len())
	changed := false
	for _, f := range p.Fields() {
		v, keep := f.Value, true
		if d, ok := dels.Get(f.Key); !copiedDirective(f.Key) && holdsMergeRead(v) {
			at := path.Child(fieldpath.Field(f.Key))
			ct, cm := t.Child(f.Key)
			dv, _ := delta.Get(f.Key)
			switch {
			case ok && d.IsMap() && v.IsMap():
				v, changed = h.over(v, d, dv, ct, cm, at), true
			case ok && d.IsList() && v.IsList():
				if elements.MergedList(ct, &cm) && len(cm.MergeKey) > 0 {
					order, _ := delta.Get(smp.SetOrderPrefix + f.Key)
					v, changed = h.items(v, d, dv, order, ct.Item(), cm.MergeKey, at), true
				}
			default:
				v, keep = withoutDirectiveMaps(v)
				appendEmptied(f.Value, v, ct, cm, at, &h.emptied)
				changed = true
			}
		}
		if h.err != nil {
			return p
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

// items is patch list p, merged by mergeKey, at path as kubectl's merge of the halves leaves it over the deletions
// half's list dels and the delta half's list delta: an item of p whose key a map of dels holds is walked over it and
// delta's item of its key (over), as the merge merges the delta's item into the deletions' one; other items (new to
// dels, or the deletions' own items holding "$patch") stand as they are, in the order the merge gives them where the
// delta's map orders the list (order, the delta's "$setElementOrder/<f>") and its "$patch: delete" items remove some of
// dels's (orderedOverDeleted).
func (h *halvesMerged) items(p, dels, delta, order value.Value, itemType *openapi.Type, mergeKey []string, path fieldpath.Path) value.Value {
	l, deleted, replaced := h.specialItems(delta, itemType, mergeKey, path)
	if replaced || h.err != nil {
		return l
	}
	delsByKey, deltaByKey := firstByKey(dels, itemType, mergeKey), firstByKey(delta, itemType, mergeKey)
	items := make([]value.Value, 0, p.Len())
	for _, it := range p.Items() {
		k, ok := keyOfItem(it, mergeKey, itemType)
		if ok && deleted[k] {
			continue
		}
		d, found := delsByKey[k]
		if _, directive := it.Get(smp.DirectiveKey); ok && found && it.IsMap() && !directive && holdsMergeRead(it) {
			at := path.Child(fieldpath.Key(elements.KeyFields(it, mergeKey, itemType)))
			it = h.over(it, d, deltaByKey[k], itemType, openapi.Meta{}, at)
		}
		items = append(items, it)
	}
	if len(deleted) > 0 && order.IsList() {
		items = orderedOverDeleted(items, dels.Items(), delta.Items(), order.Items(), itemType, mergeKey)
	}
	return value.List(items)
}

// specialItems reads the items of the delta half's list delta (a list merged by key mergeKey both halves hold) that
// hold "$patch", as strategicpatch's merge of the halves reads them before it merges the lists: one holding "replace"
// makes the list delta's other items (replaced true), one holding "delete" removes the items of its key (deleted: the
// merged list keeps none), one holding another value fails the merge (h.err).
func (h *halvesMerged) specialItems(delta value.Value, itemType *openapi.Type, mergeKey []string, path fieldpath.Path) (l value.Value, deleted map[elements.Key]bool, replaced bool) {
	var rest []value.Value
	for _, it := range delta.Items() {
		d, has := it.Get(smp.DirectiveKey)
		if !has || !it.IsMap() {
			rest = append(rest, it)
			continue
		}
		switch s, str := d.AsString(); {
		case str && s == smp.ReplaceValue:
			replaced = true
		case str && s == smp.DeleteValue:
			if k, ok := keyOfItem(it, mergeKey, itemType); ok {
				if deleted == nil {
					deleted = map[elements.Key]bool{}
				}
				deleted[k] = true
			}
		default:
			h.err = &HalvesDirectiveError{Err: &elements.Error{Source: elements.Local, Path: path, Msg: smp.UnknownDirective(d)}, Map: it, InList: true}
			return value.Value{}, nil, false
		}
	}
	if !replaced {
		return value.Value{}, deleted, false
	}
	return value.List(rest), nil, true
}

// firstByKey is the first map of list l (absent: none) of each key, merged by mergeKey.
func firstByKey(l value.Value, itemType *openapi.Type, mergeKey []string) map[elements.Key]value.Value {
	byKey := make(map[elements.Key]value.Value, l.Len())
	for _, it := range l.Items() {
		if k, ok := keyOfItem(it, mergeKey, itemType); ok {
			if _, seen := byKey[k]; !seen {
				byKey[k] = it
			}
		}
	}
	return byKey
}

// HalvesDirectiveError is the error of kubectl's merge of its three-way patch's halves at a map of the delta half
// holding "$patch" of a value other than "replace" and "delete", where the deletions half holds a map too: Err blames
// local at the map's path (the list's, for an item of a list merged by key: InList), Map is the delta half's map,
// which strategicpatch's message names ("merge" in an item has a message of its own).
type HalvesDirectiveError struct {
	Err    *elements.Error
	Map    value.Value
	InList bool
}

func (e *HalvesDirectiveError) Error() string { return e.Err.Error() }
func (e *HalvesDirectiveError) Unwrap() error { return e.Err }

// retainKeysDiffer is ply's message of a HalvesRetainKeysError.
const retainKeysDiffer = "the three-way patch's halves hold different " + smp.RetainKeysKey + " in one map (local's data beside the directive the patch generates)"

// HalvesRetainKeysError is the error of kubectl's merge of its three-way patch's halves at a map both halves hold
// with "$retainKeys" of values that differ: Err blames local at the key's path, Deletions and Delta are the halves'
// values, which strategicpatch's message prints (the deletions half's first).
type HalvesRetainKeysError struct {
	Err              *elements.Error
	Deletions, Delta value.Value
}

func (e *HalvesRetainKeysError) Error() string { return e.Err.Error() }
func (e *HalvesRetainKeysError) Unwrap() error { return e.Err }

// holdsMergeRead reports whether value v holds, at any depth, a map holding a key kubectl's merge of the three-way
// patch's halves reads (mergeRead: "$patch", "$retainKeys", "$setElementOrder/<f>"; one pass, as smp.HoldsDirectives).
func holdsMergeRead(v value.Value) bool {
	switch v.Kind() {
	case value.KindMap:
		for _, f := range v.Fields() {
			if mergeRead(f.Key) || (isCollection(f.Value) && holdsMergeRead(f.Value)) {
				return true
			}
		}
	case value.KindList:
		for _, it := range v.Items() {
			if isCollection(it) && holdsMergeRead(it) {
				return true
			}
		}
	}
	return false
}

// mergeRead reports whether key is one kubectl's merge of the three-way patch's halves reads in a map both hold.
func mergeRead(key string) bool {
	if len(key) == 0 || key[0] != '$' { // (most keys: one comparison)
		return false
	}
	return key == smp.DirectiveKey || key == smp.RetainKeysKey || strings.HasPrefix(key, smp.SetOrderPrefix)
}

// isCollection reports whether v is a map or a list.
func isCollection(v value.Value) bool {
	k := v.Kind()
	return k == value.KindMap || k == value.KindList
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

// holdsCleaned reports whether patch value v holds, at any depth, a key kubectl's merge of its halves reads (mergeRead)
// outside the directives it copies as they stand (copiedDirective): whether withoutLocalDirectives may change or fail
// it. (A patch's "$setElementOrder" lists, as long as the lists they order, are not walked.)
func holdsCleaned(v value.Value) bool {
	switch v.Kind() {
	case value.KindMap:
		for _, f := range v.Fields() {
			if mergeRead(f.Key) || (!copiedDirective(f.Key) && holdsCleaned(f.Value)) {
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
