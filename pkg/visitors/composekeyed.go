package visitors

import (
	"slices"
	"strings"

	"github.com/plyproject/ply/internal/smp"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/fieldpath"
	"github.com/plyproject/ply/pkg/value"
)

// mergesKeyed reports whether leaf c of compose mode's repeat tree is a list of maps with items that merges onto lv,
// its member's outcome's list there, as mergedKeyed merges it (keyedFits), where a collation of the repeat with that
// outcome as live builds it without error.
func mergesKeyed(c *elements.Node, lv value.Value) bool {
	fits, err := keyedFits(c, lv)
	return fits && err == nil
}

// keyedFailure returns the error a collation with v as live gives at leaf n of compose mode's repeat tree (as the
// patch holds it: asPatched), a list keyedFits fits onto lv, v's field there, building n's items the first of their
// keys that lv holds onto lv's (keyedFits' err). Nil elsewhere, and with deep (the depth limit may fail first).
func keyedFailure(n *elements.Node, lv value.Value, deep bool) error {
	if n == nil || deep {
		return nil
	}
	if fits, err := keyedFits(n, lv); fits {
		return err
	}
	return nil
}

// keyedFits reports whether leaf c of compose mode's repeat tree is a list of maps with items that merges onto lv, its
// member's outcome's list there, as mergedKeyed merges it: the schema merges the list by one merge key, and c's items
// are data items, "$patch: delete" items among them or not, with no directive but a "$setElementOrder" naming the data
// items in their order (keyedOrder), or a "$patch: replace" item is among them (keyedDirected; the outcome its data
// items then, replacesKeyed; c has no directive but such an order: replaceOrder). Merged, c's data items are maps
// each holding that key as a scalar or null (an item of a null key merges into lv's first item of a null key, as
// strategicpatch finds it), their other fields scalars, nulls, "$" fields copied as data, lists (listData: merged into
// the list lv's item holds as listMergedInto merges them, each such merge decided; one failing where no item holds an
// order or "$" data the collation reads first: ordersBelow) or maps of such
// (directedFields); lv's items are maps each holding the key as a scalar or null with no "$patch" but "delete" (an item
// of c merges into such an item of its key as into another, the directive kept; "$" keys in its maps data,
// "$retainKeys" compared), those of a key c's delete items name aside. err is the error merging into lv's item of its
// key the first of c's data items of a key lv holds that fails so (mergedInto, at the item's path): a collation with
// lv's outcome as live builds those items onto lv's, and fails there first; with a "$patch: replace" item beside such
// an order, the error at the list of lv's first item lacking the key (unkeyedHeld), which that collation reads first.
func keyedFits(c *elements.Node, lv value.Value) (fits bool, err error) {
	if !c.HasLocal || !c.Local.IsList() || c.Local.Len() == 0 || len(c.Meta.MergeKey) != 1 || !lv.IsList() ||
		!elements.MergedList(c.Type, &c.Meta) {
		return false, nil
	}
	key := c.Meta.MergeKey[0]
	data, deleted, replace, ok := keyedDirected(c.Local.Items(), key)
	switch {
	case !ok || (replace && c.Dirs != nil && !replaceOrder(c.Dirs, c.Local.Items(), key)):
		return false, nil
	case replace && c.Dirs != nil && replacesKeyed(data, lv, key) && unkeyedHeld(c.Type.Item(), key, lv) != "":
		return true, c.Errorf(elements.Live, unkeyedHeld(c.Type.Item(), key, lv))
	case replace:
		return replacesKeyed(data, lv, key), nil
	}
	if !keyedHeld(data, key) || !keyedHeld(lv.Items(), key) || (c.Dirs != nil && !keyedOrder(c.Dirs, data, key)) {
		return false, nil
	}
	keyOf := keyOfField(key)
	if !itemsDirected(c.Type.Item(), data, deleted, keyOf) {
		return false, nil
	}
	if !heldUndirected(lv.Items(), deleted, keyOf) {
		return false, nil
	}
	_, _, failed, decided := mergedItems(c.Type.Item(), keptItems(lv.Items(), deleted, keyOf), data, keyOf)
	first, firstsDecided := firstsFailure(c, data, deleted, lv)
	if !decided || (failed != nil && slices.ContainsFunc(data, ordersBelow) &&
		(first == nil || !firstsDecided || laterOrders(data, keyOf))) {
		return false, nil // (a failure beside an order or "$" data the collation reads first: left to it)
	}
	return true, first
}

// laterOrders reports whether an item of data, a keyed list's data items, that is not the first of its key holds an
// order or "$" data at any depth (ordersBelow): the collation reads such an item alone, as a repeat of its key, before
// it builds the list's first items onto the outcome's.
func laterOrders(data []value.Value, keyOf func(value.Value) value.ScalarKey) bool {
	first := firstPlaces(data, keyOf)
	for i, it := range data {
		if first[keyOf(it)] != i && ordersBelow(it) {
			return true
		}
	}
	return false
}

// firstsFailure returns the error merging the first of data, keyed list c's data items, of each key lv holds (its
// delete items' keys, deleted, aside) into lv's first item of that key gives (mergedInto), the first in data's order
// that fails; nil where none does. decided is false where a merge before it is not known.
func firstsFailure(c *elements.Node, data []value.Value, deleted map[value.ScalarKey]bool, lv value.Value) (
	failure error, decided bool) {
	decided = true
	key := c.Meta.MergeKey[0]
	keyOf := keyOfField(key)
	held, first := firstPlaces(lv.Items(), keyOf), firstPlaces(data, keyOf)
	for i, p := range data {
		at, inLive := held[keyOf(p)]
		if !inLive || first[keyOf(p)] != i || deleted[keyOf(p)] {
			continue
		}
		_, err, merged := mergedInto(c.Type.Item(), lv.Items()[at], p)
		if err != nil {
			return itemError(c, p, err), decided
		}
		decided = decided && merged
	}
	return nil, decided
}

// itemError is err, of mergedInto merging item p of keyed list c, at its path in c's tree.
func itemError(c *elements.Node, p value.Value, err *elements.Error) error {
	at := *err
	at.Path = append(c.Path().Child(fieldpath.Key(elements.KeyFields(p, c.Meta.MergeKey, c.Type.Item()))), err.Path...)
	return &at
}

// retainKeysDirective reports whether "$retainKeys" is a directive of a map of type t, not a field it declares.
func retainKeysDirective(t *openapi.Type) bool { return t.Field(smp.RetainKeysKey) == nil }

// keyedDirected splits items, a keyed patch list's (merge key key), into its data items (those holding no "$patch")
// and its directive items' effects, as strategicpatch's merge of the list into another reads them first: deleted, the
// keys its "$patch: delete" items name (the other list's items of those keys dropped), and replace, whether a "$patch:
// replace" item is among them (the data items replace the other list's). ok is false where an item is not a map, a
// delete item holds its key as other than a scalar, or an item holds another "$patch".
func keyedDirected(items []value.Value, key string) (data []value.Value, deleted map[value.ScalarKey]bool,
	replace, ok bool) {
	if !slices.ContainsFunc(items, directedItem) {
		return items, nil, false, !slices.ContainsFunc(items, func(it value.Value) bool { return !it.IsMap() })
	}
	data = make([]value.Value, 0, len(items))
	for _, it := range items {
		d, directed := it.Get(smp.DirectiveKey)
		k, _ := it.Get(key)
		switch s, _ := d.AsString(); {
		case !it.IsMap():
			return nil, nil, false, false
		case !directed:
			data = append(data, it)
		case s == smp.DeleteValue && k.IsScalar():
			if deleted == nil {
				deleted = map[value.ScalarKey]bool{}
			}
			deleted[scalarKey(k)] = true
		case s == smp.ReplaceValue:
			replace = true
		default:
			return nil, nil, false, false
		}
	}
	return data, deleted, replace, true
}

// directedItem reports whether list item it is a map holding "$patch".
func directedItem(it value.Value) bool {
	_, directed := it.Get(smp.DirectiveKey)
	return directed
}

// replacesKeyed reports whether data, the data items of a list of compose mode's repeat holding a "$patch: replace"
// item, replace lv, its member's outcome's list there, as a collation with that outcome as live replaces it: lv's
// items are maps (strategicpatch merges only lists of one kind of item), data's maps each holding merge key key as a
// scalar, with no "$" key (taken as they stand).
func replacesKeyed(data []value.Value, lv value.Value, key string) bool {
	if !keyedScalars(data, key) || slices.ContainsFunc(lv.Items(), func(it value.Value) bool { return !it.IsMap() }) {
		return false
	}
	return !slices.ContainsFunc(data, func(it value.Value) bool { return slices.ContainsFunc(it.Fields(), dollarKeyed) })
}

// unkeyedHeld is the message of the error a collation gives at a keyed list (merge key key, items of type t) holding a
// "$patch: replace" item, ordered by a "$setElementOrder", merged onto held, the list there of the map it merges into:
// at held's first item that lacks the key or holds it as other than a scalar (elements.KeyOf, as collate's keyedMatch
// reads live's items where the replace is ordered). strategicpatch's merge of patches refuses such an item too where
// it orders the merged list by the second's order, checking the first's items for the key
// (mergepatch.ErrNoMergeKey): a first patch's "$patch: replace" item, or a delete item without the key, among them.
// "" where each item holds it.
func unkeyedHeld(t *openapi.Type, key string, held value.Value) string {
	mk := []string{key}
	for i, it := range held.Items() {
		if _, missing, bad := elements.KeyOf(it, mk, t); !it.IsMap() || missing != "" {
			return smp.ItemKeyMsg("item", i, it, mk, missing, bad)
		}
	}
	return ""
}

// mergedKeyed is leaf c (mergesKeyed) merged onto lv as strategicpatch merges a patch's list of maps into another's:
// with a "$patch: replace" item, c's data items as they stand, those of a key together at its first's place (then
// ordered by c's "$setElementOrder" where it has one, by the places of lv's items, which the replace left as they
// stood); else, lv
// less the items of the keys c's "$patch: delete" items name, each of c's data items in turn merged into the first
// item of its key (mergedInto: its fields set over that item's, nulls kept, maps merged), lv's or, where lv has none,
// the first of c's items of that key, appended; then ordered as reordered orders it by c's data items, by the places
// of lv's items kept (an appended item after the keys named before it, "$patch: delete" items last in each run), and
// then so by c's "$setElementOrder" where it has one, by the places of the items of lv's slice as the merge left it
// (orderView). The error is that of the first item whose merge fails (mergedInto: an earlier item of its key holding
// another "$retainKeys" in a map, a "$patch: merge" map onto its map), at its path, as the collation of c's repeat
// with lv's outcome as live gives it merging that item's repeat (one merged into lv's item fails so first: keyedFits).
func mergedKeyed(c *elements.Node, lv value.Value) (value.Value, error) {
	key := c.Meta.MergeKey[0]
	keyOf := keyOfField(key)
	data, deleted, replace, _ := keyedDirected(c.Local.Items(), key)
	if replace {
		merged := orderedBy(data, data, nil, keyOf)
		if c.Dirs == nil {
			return merged, nil
		}
		return orderedBy(merged.Items(), lv.Items(), c.Dirs.SetOrder.Items(), keyOf), nil // (lv's slice as it stood)
	}
	kept := keptItems(lv.Items(), deleted, keyOf)
	items, failed, err, _ := mergedItems(c.Type.Item(), kept, data, keyOf)
	if err != nil {
		return value.Value{}, itemError(c, failed, err)
	}
	merged := orderedBy(items, kept, data, keyOf)
	if c.Dirs == nil {
		return merged, nil
	}
	return orderedBy(merged.Items(), orderView(c.Local.Items(), lv, keyOf), c.Dirs.SetOrder.Items(), keyOf), nil
}

// disagrees ends the error of a directive a second patch holds otherwise than the first, where compose requires them
// equal (a map's "$retainKeys", a list's "$setElementOrder").
const disagrees = " differs from the first patch's; patches merged must agree on it"

// orderView is the list strategicpatch ranks the items of a merged keyed list by where it orders them by the second
// patch's "$setElementOrder" (mergePatchIntoOriginal, after mergeSlice merged items, the second's list, into lv, the
// first's): lv's slice as its backing array stands after that merge, which wrote into it in place. Each "$patch:
// delete" item in turn removed the items of its key (deleteMatchingEntries: the items after each shifted down a
// place, the list's last place keeping the value it held); each data item of a key the list holds merged in place
// (its key kept), each other appended, into the places the deletions freed while any remain, into another array
// beyond them. The view keeps lv's length: its places past the items kept hold appended items, then stale values,
// whose keys rank the items ordered (an appended item found there ranks by that place, not after the others).
func orderView(items []value.Value, lv value.Value, keyOf func(value.Value) value.ScalarKey) []value.Value {
	view := slices.Clip(slices.Clone(lv.Items()))
	list := view
	held := func(k value.ScalarKey) int {
		return slices.IndexFunc(list, func(it value.Value) bool { return keyOf(it) == k })
	}
	for _, it := range items {
		if d, directed := it.Get(smp.DirectiveKey); directed && isDelete(d) {
			for at := held(keyOf(it)); at >= 0; at = held(keyOf(it)) {
				list = append(list[:at], list[at+1:]...)
			}
		}
	}
	for _, it := range items {
		if _, directed := it.Get(smp.DirectiveKey); !directed && held(keyOf(it)) < 0 {
			list = append(list, it) // (in place while list is shorter than view, as Go's append is)
		}
	}
	return view
}

// plainFields reports whether map m, of type t, holds no "$" key and no field a merge rule decides, its fields scalars,
// nulls and maps plain in turn where t gives a map (or no schema) of no strategy replace (mergedMap): strategicpatch
// merges such a map into another field by field (mergedInto), as a collation does.
func plainFields(t *openapi.Type, m value.Value) bool {
	for _, f := range m.Fields() {
		ft, meta := t.Child(f.Key)
		if strings.HasPrefix(f.Key, "$") || meta.Rule != nil {
			return false
		}
		if f.Value.IsMap() && (!mergedMap(ft, &meta) || !plainFields(ft, f.Value)) {
			return false
		}
		if !f.Value.IsMap() && !f.Value.IsScalar() && !f.Value.IsNull() {
			return false
		}
	}
	return true
}

// replacedUndeclared reports whether field f of a map of type t, a map holding "$patch: replace" or "$patch: delete",
// lies at a field the schema does not declare (undeclared): merged into a map holding a map there, the collation
// takes it as it stands less the directive (empty for "delete"), whatever its other fields hold ("$" keys, lists,
// maps holding "$patch", nulls), as mergedInto does; dropped where that map holds none.
func replacedUndeclared(t *openapi.Type, f value.Field) bool {
	d, _ := f.Value.Get(smp.DirectiveKey)
	s, _ := d.AsString()
	return undeclared(t, f.Key) && (s == smp.ReplaceValue || s == smp.DeleteValue)
}

// mergedMap reports whether a field of type t (meta its metadata) is a map merged field by field: a map or struct, or
// of no schema, of no strategy replace.
func mergedMap(t *openapi.Type, meta *openapi.Meta) bool {
	return !meta.Strategy.Has(openapi.StrategyReplace) &&
		(t.Kind == openapi.KindUnknown || t.Kind == openapi.KindStruct || t.Kind == openapi.KindMap)
}

// directedFields reports whether map m, of type t, is plain (plainFields) but for "$" fields copied as data
// (copiedData), lists (listData) and maps holding "$patch" at any depth below it ("replace", "delete" or "merge", their
// other fields plain; another value, whatever the map holds besides: unknownDirected), where t gives a map (or no
// schema) of no strategy replace: strategicpatch merges such a map into another as mergedInto merges it (a list as
// listMergedInto tells it).
func directedFields(t *openapi.Type, m value.Value) bool {
	for _, f := range m.Fields() {
		ft, meta := t.Child(f.Key)
		_, directed := f.Value.Get(smp.DirectiveKey)
		switch {
		case strings.HasPrefix(f.Key, smp.SetOrderPrefix):
			if !orderData(t, m, f) && !otherKindOrdered(t, f) && !unreadOrdered(t, m, f) && !undeclaredOrdered(t, f) {
				return false
			}
		case strings.HasPrefix(f.Key, "$"):
			if !copiedData(t, f) {
				return false
			}
		case meta.Rule != nil:
			return false
		case f.Value.IsList():
			if _, unread := orderedUnread(t, m, f.Key, f.Value); !listData(ft, &meta, f.Value) && !unread {
				return false
			}
		case !f.Value.IsMap():
		case !mergedMap(ft, &meta):
			return false
		case directed && unknownDirected(f.Value):
			// (dropped where the map merged into holds no map there, whatever it holds; failing with the collation's
			// error where it holds one, which reads the directive before the map's fields: mergedInto)
		case directed:
			if !plainFields(ft, f.Value.Without(smp.DirectiveKey)) && !replacedUndeclared(t, f) {
				return false
			}
		case !directedFields(ft, f.Value) && !fieldsContradicted(ft, f.Value):
			return false // (a map whose order its list contradicts: failing onto a map, else taken: mergedInto)
		}
	}
	return true
}

// unknownDirected reports whether map v holds "$patch" of a value other than "replace", "delete" and "merge" (a
// string or not): strategicpatch's merge of patches drops such a map, the field with it, where the map merged into
// holds no map there, and refuses it where it holds one, as the collation does, reading the directive first.
func unknownDirected(v value.Value) bool {
	d, _ := v.Get(smp.DirectiveKey)
	s, _ := d.AsString()
	return s != smp.ReplaceValue && s != smp.DeleteValue && s != smp.MergeValue
}

// copiedData reports whether "$" field f of a map of type t is data that compose copies into the map it merges into, as
// strategicpatch's merge of patches does (mergedInto sets it over that map's): a "$retainKeys" whatever it holds (which
// must agree with that map's; a map or a list then merged as retainedData), a "$deleteFromPrimitiveList/<f>" whatever
// it holds (copied as it stands), or another "$" key (dollarData: a map or list taken as a field the schema lacks)
// ("$patch" and "$setElementOrder/<f>" direct the merge).
func copiedData(t *openapi.Type, f value.Field) bool {
	switch {
	case f.Key == smp.RetainKeysKey:
		return retainKeysDirective(t)
	case f.Key == smp.DirectiveKey || strings.HasPrefix(f.Key, smp.SetOrderPrefix):
		return false
	}
	return true
}

// retainedData reports whether field f of a patch's map is a "$retainKeys" holding a map or a list: in compose mode
// data, which the collation, once it holds it equal to the "$retainKeys" of the map it merges into or that map lacks
// one, merges as a "$" field of another name (dollarData: over a value of its kind, dollarInto; elsewhere less its maps
// holding "$patch").
func retainedData(f value.Field) bool {
	return f.Key == smp.RetainKeysKey && (f.Value.IsMap() || f.Value.IsList())
}

// dollarData reports whether field f of a patch's map is a "$" key strategicpatch's merge of patches merges as a field
// (not "$patch", "$retainKeys", "$setElementOrder/<f>" or "$deleteFromPrimitiveList/<f>"), holding a map or a list:
// set over another kind or none less its maps holding "$patch" (absent where it is one), and, over a value of its
// kind, looked up in a schema that declares no such field (left to the collation: mergedInto).
func dollarData(f value.Field) bool {
	return strings.HasPrefix(f.Key, "$") && f.Key != smp.DirectiveKey && f.Key != smp.RetainKeysKey &&
		!strings.HasPrefix(f.Key, smp.SetOrderPrefix) && !strings.HasPrefix(f.Key, smp.DeletePrefix) &&
		(f.Value.IsMap() || f.Value.IsList())
}

// mergedInto is map p (directedFields), of type t, merged into into as strategicpatch merges a patch's map into
// another: each of p's fields set over into's (less its maps holding "$patch"), nulls kept, a map merged in turn into a
// map into holds there, a list as listMergedInto merges it (failing where it tells it, at the field; decided false
// where it cannot tell it); a map holding
// "$patch: replace" or "$patch: delete" replaces such a map (less the directive; empty for "delete"), and one holding
// "$patch" is dropped, the field with it, where into holds none. It fails, at the path below into of the map
// (Error.Path), where p's map holds "$retainKeys" and into's another (strategicpatch's merge of patches requires them
// equal, and checks a map's before its fields), or a "$setElementOrder/<f>" into holds otherwise (at that map, in its
// place among the map's keys, as the collation builds them), at a "$patch: merge" map where into holds a map (maps merge
// without that directive), and at a map of another "$patch" value there (the collation refuses it, as strategicpatch
// does).
func mergedInto(t *openapi.Type, into, p value.Value) (value.Value, *elements.Error, bool) {
	if err := mergeMapFailure(t, into, p); err != nil {
		return value.Value{}, err, true
	}
	pending := orderFailures(t, into, p)
	for _, f := range p.Fields() {
		held, inInto := into.Get(f.Key)
		d, directed := f.Value.Get(smp.DirectiveKey)
		directive, _ := d.AsString()
		if err := pending.before(f.Key); err != nil {
			return value.Value{}, err, true
		}
		switch {
		case strings.HasPrefix(f.Key, smp.SetOrderPrefix) && pending.has(strings.TrimPrefix(f.Key, smp.SetOrderPrefix)):
			continue // (its failure is the collation's at the list it orders: pending.before)
		case strings.HasPrefix(f.Key, smp.DeletePrefix):
			into = into.With(f.Key, f.Value) // (copied as it stands, as strategicpatch keeps a deletion list)
		case (dollarData(f) || retainedData(f)) && held.Kind() == f.Value.Kind():
			v, err, decided := dollarInto(t, f, held)
			if err != nil || !decided {
				return value.Value{}, fieldErr(f.Key, err), decided
			}
			into = into.With(f.Key, v)
		case dollarData(f) || retainedData(f):
			if v, keep := smp.WithoutDirectives(f.Value); keep {
				into = into.With(f.Key, v)
			} else {
				into = into.Without(f.Key)
			}
		case directed && held.IsMap() && directive != smp.MergeValue && directive != smp.DeleteValue &&
			directive != smp.ReplaceValue:
			return value.Value{}, &elements.Error{Source: elements.Patch, Path: fieldpath.Path{fieldpath.Field(f.Key)},
				Msg: smp.UnknownDirective(d)}, true // (as directedField: strategicpatch refuses it too)
		case directed && held.IsMap() && directive == smp.MergeValue:
			return value.Value{}, &elements.Error{Source: elements.Patch, Path: fieldpath.Path{fieldpath.Field(f.Key)}, Msg: mergeDirective}, true
		case directed && held.IsMap() && directive == smp.DeleteValue:
			into = into.With(f.Key, value.MustMap())
		case directed && held.IsMap():
			into = into.With(f.Key, f.Value.Without(smp.DirectiveKey))
		case directed:
			into = into.Without(f.Key)
		case held.IsMap() && f.Value.IsMap():
			ft, _ := t.Child(f.Key)
			m, err, decided := mergedInto(ft, held, f.Value)
			if err != nil || !decided {
				if err != nil {
					err.Path = append(fieldpath.Path{fieldpath.Field(f.Key)}, err.Path...)
				}
				return value.Value{}, err, decided
			}
			into = into.With(f.Key, m)
		case strings.HasPrefix(f.Key, smp.SetOrderPrefix) && inInto && !value.Equal(held, f.Value):
			// (patches merged must agree on it: the collation fails at the map, building its "$" keys in key order)
			return value.Value{}, &elements.Error{Source: elements.Patch, Msg: f.Key + disagrees}, true
		case strings.HasPrefix(f.Key, smp.SetOrderPrefix):
			var decided bool
			if into, decided = orderedInto(t, into, p, f); !decided {
				return value.Value{}, nil, false
			}
		case f.Value.IsList() && !strings.HasPrefix(f.Key, "$"):
			l, err, decided := listInto(t, p, f, held, inInto)
			if err != nil || !decided {
				return value.Value{}, err, decided
			}
			into = into.With(f.Key, l)
		case f.Value.IsMap():
			v, _ := smp.WithoutDirectives(f.Value)
			into = into.With(f.Key, v)
		default:
			into = into.With(f.Key, f.Value)
		}
	}
	return into, pending.first(), true // (an order's failure after p's last field, if any)
}

// listInto is list field f of patch map p, of type t, merged into held, that field of the map merged into (inInto:
// that map holds it), as mergedInto merges it (listMergedInto, then ordered by a "$setElementOrder" beside it:
// orderedList); err is at its path below that map. Where the list contradicts its order (contradictedOrder), the
// collation checks the order before it merges the list's items, and their lists: its error there. Where the schema
// has a scalar or a map there, the collation's kind check refuses the list, whatever held is (elements.KindMismatch;
// strategicpatch takes it, docs/errors.md's "a field of the wrong type"), a "$deleteFromPrimitiveList" of it beside it
// or not (data in a patch merged into another); beside a "$setElementOrder" of it, the order fails first (at the map,
// mapOrderFailure, or at the field: orderFailures).
func listInto(t *openapi.Type, p value.Value, f value.Field, held value.Value, inInto bool) (value.Value, *elements.Error, bool) {
	if ft, _ := t.Child(f.Key); !undeclared(t, f.Key) && elements.KindMismatch(ft, f.Value) != "" {
		if _, orders := p.Get(smp.SetOrderPrefix + f.Key); orders {
			return value.Value{}, nil, false // (its order fails first: mapOrderFailure, orderFailures)
		}
		return value.Value{}, &elements.Error{Source: elements.Patch, Path: fieldpath.Path{fieldpath.Field(f.Key)},
			Msg: elements.KindMismatch(ft, f.Value)}, true
	}
	if err := orderedUnreadFailure(t, p, f.Key, f.Value); err != nil && !inInto {
		return value.Value{}, err, true
	}
	if err := readFailure(t, f.Key, held, f.Value); err != nil {
		err.Path = fieldpath.Path{fieldpath.Field(f.Key)}
		return value.Value{}, err, true // (the collation reads the list's items before it checks their order)
	}
	order, orders := p.Get(smp.SetOrderPrefix + f.Key)
	l, err, decided := listMergedInto(t, f.Key, held, f.Value, orders)
	switch {
	case orders && contradictedOrder(t, p, value.Field{Key: smp.SetOrderPrefix + f.Key, Value: order}) && decided &&
		(err == nil || !slices.ContainsFunc(f.Value.Items(), isReplaceItem)):
		return value.Value{}, orderContradicted(t, f.Key, f.Value, order), true
	case orders && contradictedOrder(t, p, value.Field{Key: smp.SetOrderPrefix + f.Key, Value: order}):
		return value.Value{}, nil, false
	}
	if err != nil {
		err.Path = append(fieldpath.Path{fieldpath.Field(f.Key)}, err.Path...)
		return value.Value{}, err, true
	}
	if orders && decided && !inInto && composedAsItStands(f.Value) {
		decided = false
	}
	if orders && decided {
		l, decided = orderedList(t, f.Key, held, inInto, f.Value, l, order)
	}
	return l, nil, decided
}

// retainsDisagree is the error of map p's "$retainKeys" merged into into holding another (nil where they agree or
// either lacks one): strategicpatch's merge of patches requires them equal, and checks a map's before its fields.
func retainsDisagree(into, p value.Value) *elements.Error {
	if keys, retains := p.Get(smp.RetainKeysKey); retains {
		if held, holds := into.Get(smp.RetainKeysKey); holds && !value.Equal(held, keys) {
			return &elements.Error{Source: elements.Patch, Msg: smp.RetainKeysKey + disagrees}
		}
	}
	return nil
}

// mergeDirective is the error of a "$patch: merge" map merged onto a map.
const mergeDirective = smp.DirectiveKey + ": " + smp.MergeValue + " is a schema strategy, not a patch directive: maps merge without it"

// dollarKeyed reports whether f's key starts with "$".
func dollarKeyed(f value.Field) bool { return strings.HasPrefix(f.Key, "$") }

// holdsMapsOrLists reports whether an item of leaf c's list holds a map, a list (not a "$" field) or a
// "$setElementOrder" (listOrOrder):
// merged onto its outcome's list, the values of that outcome's maps and lists below it lie a level deeper than the
// patch's values.
func holdsMapsOrLists(c *elements.Node) bool {
	for _, it := range c.Local.Items() {
		for _, f := range it.Fields() {
			if f.Value.IsMap() || listOrOrder(f) {
				return true
			}
		}
	}
	return false
}

// keyedOrder reports whether directives d of a keyed list are a "$setElementOrder" alone whose entries are maps each
// holding merge key key as a scalar, naming the keys of data, the list's data items, in their order (an item of a key
// named twice by an entry of it each; "$patch: delete" items aside), as strategicpatch requires of an order before
// ordering the merged list by it (validatePatchWithSetOrderList).
func keyedOrder(d *elements.Directives, data []value.Value, key string) bool {
	if !ordersOnly(d) || !d.SetOrder.IsList() || !keyedScalars(d.SetOrder.Items(), key) {
		return false
	}
	order, at := d.SetOrder.Items(), 0
	for _, it := range data {
		k, _ := it.Get(key)
		for at < len(order) && !keyEquals(order[at], key, k) {
			at++
		}
		if at == len(order) {
			return false
		}
		at++
	}
	return true
}

// replaceOrder reports whether d, the directives of a keyed list (merge key key) holding items, a "$patch: replace"
// item among them, are a "$setElementOrder" alone of maps each holding the key as a scalar that names the list's data
// items in their order as strategicpatch's check walks them (validatePatchWithSetOrderList, as format.CheckOrder):
// "$patch: delete" items aside, another "$patch" item skipped while entries remain.
func replaceOrder(d *elements.Directives, items []value.Value, key string) bool {
	if !d.HasSetOrder || d.HasRetainKeys || d.HasDeleteFromList || !d.SetOrder.IsList() ||
		!keyedScalars(d.SetOrder.Items(), key) {
		return false // (Dirs.ReplaceList: the list's own "$patch: replace" item)
	}
	order := d.SetOrder.Items()
	kept := slices.DeleteFunc(slices.Clone(items), func(it value.Value) bool {
		directive, _ := it.Get(smp.DirectiveKey)
		return isDelete(directive)
	})
	p, o := 0, 0
	for p < len(kept) && o < len(order) {
		if directedItem(kept[p]) {
			p++
			continue
		}
		if k, _ := kept[p].Get(key); keyEquals(order[o], key, k) {
			p++
		}
		o++
	}
	return p == len(kept)
}

// keyEquals reports whether map entry holds key k as its merge key key.
func keyEquals(entry value.Value, key string, k value.Value) bool {
	ek, _ := entry.Get(key)
	return scalarKey(ek) == scalarKey(k)
}

// itemFailure returns the error a collation with v as live gives at leaf n of compose mode's repeat tree (as the patch
// holds it: asPatched), a list the schema merges by one merge key whose items Phase 1 found a patch's list cannot hold
// (itemErrs: elements.Repeat.ItemErrs, that error), where lv, v's field there, is a list of maps each holding the key
// as a scalar and n has no directive: the collation reads n's items before any of lv's. Nil elsewhere, and with deep
// (the depth limit may fail first).
func itemFailure(n *elements.Node, lv value.Value, deep bool, itemErrs map[int32]error) error {
	err := itemErrs[nodeID(n)]
	if err == nil || deep || n.Dirs != nil || len(n.Meta.MergeKey) != 1 || !lv.IsList() ||
		!keyedScalars(lv.Items(), n.Meta.MergeKey[0]) {
		return nil
	}
	return err
}

// nodeID is n's ID, -1 for none.
func nodeID(n *elements.Node) int32 {
	if n == nil {
		return -1
	}
	return n.ID
}

// composedAsItStands reports whether pv, a patch's list at field name of a map that a "$setElementOrder" orders, is one
// that composing takes otherwise than orderedList gives where the map merged into lacks the field: a list holding a
// "$patch: replace" item whose data items hold a map holding "$patch" at any depth, which the collation keeps and
// strategicpatch drops (removeDirectives). Left to the front-end. Elsewhere such a list is its data items, less its
// "$patch" items, by the order alone, as both give. (Applying, such a list is decided by mergedOrderOnto.)
func composedAsItStands(pv value.Value) bool {
	return slices.ContainsFunc(pv.Items(), isReplaceItem) && slices.ContainsFunc(pv.Items(), func(it value.Value) bool {
		return !directedItem(it) && smp.HoldsDirectives(it)
	})
}
