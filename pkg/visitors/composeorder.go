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

// A compose repeat item that orders by "$setElementOrder" a field it sets to other than a list fails merged into any
// outcome, as the patches merged must order lists, and one ordering a field the outcome holds as other than a list
// fails merged into that outcome; which error a collation of it with that outcome as live gives first depends on the
// outcome only through the fields before the ordered one (in name order: its "$" fields first), which orderFails
// reads where they are plain enough to tell.

// orderFails returns the error collating compose mode's repeat item p (type t, a map holding no "$patch") with v, its
// member's outcome map, as live gives, where p orders by "$setElementOrder" a field it sets to other than a list (known
// true), or orders one v holds as other than a list; known is false where the error is not told so: p or v not maps, an
// order not a list, a field before the failing one that p sets to a map or a list (but a list merged by no strategy it
// gives no directive for, taken whole, a map of scalars, nulls, such lists and maps without "$" keys, and a merged list
// Phase 2 merges onto v's or one v lacks, none of which fail: wholeScalars, wholeList, plainMap, composesField,
// mergedWhole; a set it does not order whose items and v's list's there cannot merge, or a keyed list whose item's
// merge into v's item of its key fails, failing there first: listBefore, keyedFieldFailure; maps holding "$patch:
// merge" maps, dropped where v holds no map there, failing first where it does: mergeMapsOnto; a map at a field the
// schema types as a list or a scalar, holding no "$" key, that strategicpatch's look-up does not fail for:
// otherKindMap; one holding "$" keys where v holds no map there, taken whole: otherKindWhole; where v holds a map
// there, merged into it as maps of no schema merge, failing first where that merge fails: otherKindOnto), that v holds
// as a list p only orders that Phase 2 does not reorder (but where heldOrder reads it: items or entries the order
// refuses, failing there first, or a list merged by one key or a set of scalars the collation reorders without error),
// a "$" field p and v hold otherwise (but "$retainKeys" and "$setElementOrder/<f>", which fail so), or one a merge rule
// decides. With unmergedRefused (gate MultiFieldMergeKeys on), a list merged by no strategy that p orders fails there
// (orderedUnmerged), a "$deleteFromPrimitiveList" beside it left unknown, and so does a map at a field the schema types
// as a list or a scalar (mapBefore: the kind check's error).
func orderFails(p value.Value, t *openapi.Type, v value.Value, unmergedRefused bool) (known bool, err error) {
	if !p.IsMap() || !v.IsMap() {
		return false, nil
	}
	if _, directed := p.Get(smp.DirectiveKey); directed {
		return false, nil
	}
	ordered := map[string]bool{}
	for _, f := range p.Fields() {
		if name, orders := strings.CutPrefix(f.Key, smp.SetOrderPrefix); orders && directiveOf(t, f.Key) {
			if !f.Value.IsList() {
				return false, nil
			}
			ordered[name] = true
		}
	}
	if len(ordered) == 0 {
		return false, nil
	}
	for _, k := range fieldNames(p, v, ordered) {
		if _, meta := t.Child(k); meta.Rule != nil {
			return false, nil
		}
		pv, inP := p.Get(k)
		lv, inV := v.Get(k)
		switch {
		case directiveOf(t, k) && inP && inV && !value.Equal(pv, lv):
			if k == smp.RetainKeysKey || strings.HasPrefix(k, smp.SetOrderPrefix) {
				return true, &elements.Error{Source: elements.Patch, Msg: k + disagrees}
			}
			return false, nil
		case directiveOf(t, k) && inV && sameKindData(k, pv, lv):
			if _, err, decided := dollarInto(t, value.Field{Key: k, Value: pv}, lv); err != nil {
				return true, fieldErr(k, err) // (merged as a field of no schema onto v's equal value)
			} else if !decided {
				return false, nil
			}
		case directiveOf(t, k) || (!inP && !ordered[k]):
		case ordered[k] && inV && !lv.IsList():
			msg := smp.SetOrderPrefix + k + " orders a list, but the first patch's value is " + lv.Kind().String()
			return true, &elements.Error{Source: elements.Live, Path: fieldpath.Path{fieldpath.Field(k)}, Msg: msg}
		case ordered[k] && unmergedRefused && orderedUnmerged(t, k, pv, lv):
			if _, deletes := p.Get(smp.DeletePrefix + k); deletes {
				return false, nil // (the deletion's checks come first)
			}
			return true, &elements.Error{Source: elements.Patch, Path: fieldpath.Path{fieldpath.Field(k)}, Msg: smp.OrderOfUnmerged(k)}
		case ordered[k] && !inP:
			read, err := heldOrder(p, t, k, lv, unmergedRefused)
			if err != nil {
				return true, err
			}
			if inV && !read && !reordersField(p, t, k, lv) {
				return false, nil // (v's list reordered, which may fail)
			}
		case ordered[k] && !pv.IsList():
			at := fieldpath.Path{fieldpath.Field(k)}
			return true, &elements.Error{Source: elements.Patch, Path: at, Msg: smp.OrderOfPatch(k, pv.Kind())}
		case ordered[k] && !inV && orderedUnreadFailure(t, p, k, pv) != nil:
			return true, orderedUnreadFailure(t, p, k, pv) // (its items' keys read before the order)
		case ordered[k] && otherKindField(t, k) && otherKindOrderFailure(t, p, k, lv, inV) != nil:
			return true, otherKindOrderFailure(t, p, k, lv, inV) // (a list there, p's: the schema's kind)
		case ordered[k] && wholeScalars(t, k, pv):
			if known, err := orderedScalars(k, pv, p, lv); !known || err != nil {
				return known, err
			}
		case pv.IsMap():
			if known, err := mapBefore(t, k, pv, lv, unmergedRefused); !known || err != nil {
				return known, err
			}
		case pv.IsList():
			if known, err := listBefore(p, t, k, pv, lv, inV, ordered[k]); !known || err != nil {
				return known, err
			}
		}
	}
	return false, nil
}

// mapBefore reads map pv, field k of compose mode's repeat item (a map of type t) before the field orderFails fails
// at, lv the outcome's value there: known where a collation with the outcome as live builds it without error
// (plainMap, otherKindMap, otherKindWhole, otherKindOnto, mergeMapsOnto), or where it fails there (err: unmergeable's
// look-up, otherKindOnto's or mergeMapsOnto's failure); not known elsewhere. With unmergedRefused (gate
// MultiFieldMergeKeys on), a map at a field the schema types as a list or a scalar fails there, whatever lv is: the
// collation's kind check refuses it before any look-up (elements.KindMismatch).
func mapBefore(t *openapi.Type, k string, pv, lv value.Value, unmergedRefused bool) (known bool, err error) {
	if ft, _ := t.Child(k); unmergedRefused && (ft.Kind == openapi.KindList || ft.Kind == openapi.KindPrimitive) {
		return true, &elements.Error{Source: elements.Patch, Path: fieldpath.Path{fieldpath.Field(k)}, Msg: elements.KindMismatch(ft, pv)}
	}
	if msg := unmergeable(t, k, pv, lv); msg != "" {
		return true, &elements.Error{Source: elements.Patch, Path: fieldpath.Path{fieldpath.Field(k)}, Msg: msg}
	}
	if plainMap(t, k, pv) || otherKindMap(t, k, pv) || otherKindWhole(t, k, pv, lv, unmergedRefused) {
		return true, nil
	}
	if merged, failed := otherKindOnto(t, k, pv, lv, unmergedRefused); merged && failed != nil {
		return true, failed
	} else if merged {
		return true, nil
	}
	plain, failed := mergeMapsOnto(t, k, pv, lv)
	if failed != nil {
		return true, failed
	}
	return plain, nil
}

// listBefore reads list pv, field k of compose mode's repeat item p (a map of type t) before the field orderFails fails
// at, lv the outcome's value there (inV: the outcome holds it; ordered: p orders it by "$setElementOrder"): known where
// a collation with the outcome as live builds it without error (wholeScalars, wholeList, composesField, mergedWhole),
// or where, a set p does not order over the outcome's list, their items cannot merge (setFailure: err, that collation's
// error there, as strategicpatch's merge fails on them too), or where, a keyed list over the outcome's list, an item's
// merge into the outcome's item of its key fails (keyedFieldFailure: err, that merge's error); not known elsewhere.
func listBefore(p value.Value, t *openapi.Type, k string, pv, lv value.Value, inV, ordered bool) (known bool, err error) {
	switch {
	case wholeScalars(t, k, pv) || wholeList(p, t, k, pv) || (inV && composesField(p, t, k, lv)) ||
		(!inV && mergedWhole(p, t, k)):
		return true, nil
	case inV && !ordered:
		if err := setFailure(t, k, lv, pv); err != nil {
			err.Path = fieldpath.Path{fieldpath.Field(k)}
			return true, err
		}
	}
	if err := keyedFieldFailure(p, t, k, lv); inV && err != nil {
		return true, err
	}
	return false, nil
}

// keyedFieldFailure returns the error a collation of compose mode's repeat item p (a map of type t) with its member's
// outcome as live gives at field k, a list of maps p holds with items merged by one key over lv, the outcome's list
// there (keyedFits, given p's "$setElementOrder/<k>"): the first of its data items of a key lv holds whose merge into
// lv's item of that key fails (mergedInto), or, beside a "$patch: replace" item and that order, lv's first item lacking
// the key (unkeyedHeld), at its path below the field: the fields before it built without error (orderFails), the
// collation meets it there first. Nil elsewhere, and where keyedFits does not tell it.
func keyedFieldFailure(p value.Value, t *openapi.Type, k string, lv value.Value) *elements.Error {
	n := fieldNode(p, t, k)
	fits, err := keyedFits(&n, lv)
	e, _ := err.(*elements.Error)
	if !fits || e == nil {
		return nil
	}
	at := *e
	at.Path = append(fieldpath.Path{fieldpath.Field(k)}, e.Path...)
	return &at
}

// orderedUnmerged reports whether field k of a map of type t, which compose mode's repeat item orders by
// "$setElementOrder" and holds as pv (null where it leaves it out), over lv, the outcome's value there, is a list the
// schema merges by no strategy that a collation with that outcome as live orders: pv a list, or, left out, lv one.
// With gate MultiFieldMergeKeys on, the collation refuses that order there (format.CheckDirs: smp.OrderOfUnmerged).
func orderedUnmerged(t *openapi.Type, k string, pv, lv value.Value) bool {
	ft, meta := t.Child(k)
	return (ft.Kind == openapi.KindList || ft.Kind == openapi.KindUnknown) && !elements.MergedList(ft, &meta) &&
		meta.Rule == nil && (pv.IsList() || (pv.IsNull() && lv.IsList()))
}

// orderedScalars returns the error a collation of compose mode's repeat item p with v as live gives at its field k,
// a list of scalars pv (nulls among them) the schema merges by no strategy that p orders by "$setElementOrder", lv
// v's field there (a list, or null where v lacks it): where the order names an object or a list, or lv's items and
// pv's are not scalars of one class (smp.ScalarsOfOneClass), or pv names a value twice out of the order's order, that
// collation refuses the order there (collate's kubectlOrdered, format.CheckDirs), as strategicpatch's merge of
// patches fails on the two lists' items; where pv, naming each value once, does not follow an order of scalars, the
// collation checks it as a set's order (format.CheckOrder: orderMismatch) and fails there; known is false where that
// order names a null, and true, without error, elsewhere.
func orderedScalars(k string, pv, p, lv value.Value) (known bool, err error) {
	order, _ := p.Get(smp.SetOrderPrefix + k)
	n := elements.Node{Values: elements.Values{Local: pv, HasLocal: true},
		Dirs: &elements.Directives{SetOrder: order, HasSetOrder: true}}
	_, once := distinctScalars(pv.Items())
	at := fieldpath.Path{fieldpath.Field(k)}
	switch {
	case !scalarsOrNulls(order.Items()) || !smp.ScalarsOfOneClass(lv.Items(), pv.Items()) || (!once && !setOrdered(&n)):
		return true, &elements.Error{Source: elements.Patch, Path: at, Msg: smp.OrderOfUnmerged(k)}
	case setOrdered(&n):
		return true, nil
	case allScalars(order.Items()):
		// (Checked as a set's order, its entries naming the items by value: format.CheckOrder.)
		if msg := orderMismatch(k, pv.Items(), order.Items()); msg != "" {
			return true, &elements.Error{Source: elements.Patch, Path: at, Msg: msg}
		}
	}
	return false, nil
}

// orderMismatch is smp.OrderMismatch for list field k holding distinct scalars items that a "$setElementOrder" order
// of scalars orders as a set's, each entry naming the item of its value (none: an identity no item has).
func orderMismatch(k string, items, order []value.Value) string {
	seq, ids := make([]int, len(items)), make([]int, len(order))
	for i := range items {
		seq[i] = i
	}
	for i, e := range order {
		if ids[i] = slices.IndexFunc(items, func(it value.Value) bool { return scalarKey(it) == scalarKey(e) }); ids[i] < 0 {
			ids[i] = len(items)
		}
	}
	return smp.OrderMismatch(k, seq, ids)
}

// mergeMapsOnto reports whether pv, field k of a map of type t, is a map plain (plainMap) but for "$patch: merge" maps
// at any depth, and err is the error merging it onto lv, v's value there, gives: at the first such map (by name, depth
// first) that lv holds a map for, through maps it holds down to it (maps merge without that directive); elsewhere such
// a map is dropped, the field with it, and the patch's map taken where lv holds none.
func mergeMapsOnto(t *openapi.Type, k string, pv, lv value.Value) (plain bool, err *elements.Error) {
	ft, meta := t.Child(k)
	if !pv.IsMap() || !mergedMap(ft, &meta) || meta.Rule != nil {
		return false, nil
	}
	if smp.MergeDirected(pv) {
		if lv.IsMap() {
			return true, &elements.Error{Source: elements.Patch, Path: fieldpath.Path{fieldpath.Field(k)}, Msg: mergeDirective}
		}
		return true, nil
	}
	for _, f := range pv.Fields() {
		held, _ := lv.Get(f.Key) // (null where lv is no map: the patch's map taken, its merge maps dropped)
		switch _, fm := ft.Child(f.Key); {
		case strings.HasPrefix(f.Key, "$") || fm.Rule != nil:
			return false, nil
		case f.Value.IsMap():
			below, err := mergeMapsOnto(ft, f.Key, f.Value, held)
			if !below || err != nil {
				if err != nil {
					err.Path = append(fieldpath.Path{fieldpath.Field(k)}, err.Path...)
				}
				return below, err
			}
		case f.Value.IsList() && !wholeScalars(ft, f.Key, f.Value):
			return false, nil
		}
	}
	return true, nil
}

// mergedWhole reports whether field k of compose mode's repeat item p (a map of type t) is a list the schema merges,
// for which p holds no directive: where the outcome lacks it, compose takes it as the patch holds it, less its maps
// holding "$patch", without error.
func mergedWhole(p value.Value, t *openapi.Type, k string) bool {
	ft, meta := t.Child(k)
	_, ordered := p.Get(smp.SetOrderPrefix + k)
	_, deletes := p.Get(smp.DeletePrefix + k)
	return elements.MergedList(ft, &meta) && meta.Rule == nil && !ordered && !deletes
}

// wholeScalars reports whether pv, field k of a map of type t, is a list of scalars (nulls included) the schema declares
// a list merged by no strategy: compose takes it whole whatever the outcome holds there, without error.
func wholeScalars(t *openapi.Type, k string, pv value.Value) bool {
	ft, meta := t.Child(k)
	if !pv.IsList() || ft.Kind != openapi.KindList || elements.MergedList(ft, &meta) {
		return false
	}
	for _, it := range pv.Items() {
		if it.IsMap() || it.IsList() {
			return false
		}
	}
	return true
}

// wholeList reports whether pv, field k of compose mode's repeat item p (a map of type t), is a list the schema
// declares a list merged by no strategy, for which p holds no directive: compose takes it whole whatever the outcome
// holds there (as it stands, or less its maps holding "$patch" where the outcome lacks it), without error.
func wholeList(p value.Value, t *openapi.Type, k string, pv value.Value) bool {
	ft, meta := t.Child(k)
	_, ordered := p.Get(smp.SetOrderPrefix + k)
	_, deletes := p.Get(smp.DeletePrefix + k)
	return pv.IsList() && ft.Kind == openapi.KindList && !elements.MergedList(ft, &meta) && !ordered && !deletes
}

// composesField reports whether field k of compose mode's repeat item p (a map of type t) is a merged list that a
// collation of p with its member's outcome as live, lv that outcome's list there, merges without error, as Phase 2
// merges it (composesList), given p's "$setElementOrder/<k>" (a "$deleteFromPrimitiveList/<k>" beside it is data in a
// patch, copied, as strategicpatch's merge of patches copies it).
func composesField(p value.Value, t *openapi.Type, k string, lv value.Value) bool {
	n := fieldNode(p, t, k)
	return composesList(&n, lv)
}

// fieldNode is field k of compose mode's repeat item p (a map of type t), a node of no parent holding p's value there
// as the patch holds it, with p's "$setElementOrder/<k>" as its directive (a "$deleteFromPrimitiveList/<k>" beside it
// is data in a patch).
func fieldNode(p value.Value, t *openapi.Type, k string) elements.Node {
	pv, _ := p.Get(k)
	ft, meta := t.Child(k)
	n := elements.Node{Name: k, Type: ft, Meta: meta, Values: elements.Values{Local: pv, HasLocal: true}}
	if order, ordered := p.Get(smp.SetOrderPrefix + k); ordered {
		n.Dirs = &elements.Directives{SetOrder: order, HasSetOrder: true}
	}
	return n
}

// heldOrder reads field k of compose mode's repeat item p (a map of type t), a list p leaves out and orders by its
// "$setElementOrder/<k>" alone (a "$deleteFromPrimitiveList/<k>" beside it or not: data in a patch), over lv, its
// member's outcome's value there, as a collation of p with that outcome as live reads it, the fields before it built
// without error (orderFails): where lv is a list with items the order refuses (orderFailure: merged by no strategy and
// no merge key, strategicpatch cannot order it; a set, lv's items or the order's entries refused), or a list merged by
// key whose items or the order's entries the collation refuses (orderOnto: their classes, lv's items' keys, then the
// entries'), err is that error, at the field, as strategicpatch's merge of patches fails there too; where lv is a list
// merged by one key with items orderOnto refuses none of, or a set of scalars orderFailure refuses none of (a value
// named twice among them), read is true: the collation reorders it without error. Neither elsewhere, nor with
// unmergedRefused (gate MultiFieldMergeKeys on).
func heldOrder(p value.Value, t *openapi.Type, k string, lv value.Value, unmergedRefused bool) (read bool,
	err *elements.Error) {
	if unmergedRefused || !lv.IsList() || lv.Len() == 0 {
		return false, nil
	}
	order, _ := p.Get(smp.SetOrderPrefix + k)
	ft, meta := t.Child(k)
	n := elements.Node{Name: k, Type: ft, Meta: meta, Dirs: &elements.Directives{SetOrder: order, HasSetOrder: true}}
	failed := orderFailure(&n, lv, false)
	if failed == nil && elements.MergedList(ft, &meta) && len(meta.MergeKey) == 1 {
		failed, read = orderOnto(fieldpath.Path{fieldpath.Field(k)}, order, lv, ft, &meta)
	} else if failed == nil && elements.MergedList(ft, &meta) && len(meta.MergeKey) == 0 &&
		!elements.SetOfMaps(ft, &meta) {
		read = true // (a set of scalars, a value named twice among them: reordered as it stands)
	}
	if e, _ := failed.(*elements.Error); e != nil {
		at := *e
		at.Path = fieldpath.Path{fieldpath.Field(k)}
		return true, &at
	}
	return read, nil
}

// reordersField reports whether field k of a map of type t, which compose mode's repeat item p leaves out and orders
// by its "$setElementOrder/<k>", is a list lv (the outcome's there) that a collation of p with that outcome as live
// reorders without error, as Phase 2 reorders it (reorders).
func reordersField(p value.Value, t *openapi.Type, k string, lv value.Value) bool {
	order, _ := p.Get(smp.SetOrderPrefix + k)
	ft, meta := t.Child(k)
	n := elements.Node{Type: ft, Meta: meta, Dirs: &elements.Directives{SetOrder: order, HasSetOrder: true}}
	return reorders(&n, lv)
}

// plainMap reports whether pv, field k of a map of type t, is a map a collation merges onto any value without error:
// the schema gives the field a map (or no schema), and pv holds no "$" key and no field a merge rule decides, its
// fields scalars, nulls, lists of scalars merged by no strategy (wholeScalars) and maps plain in turn. (Its nesting
// within the depth limit is the repeat's: elements.Repeat.Deep.)
func plainMap(t *openapi.Type, k string, pv value.Value) bool {
	ft, meta := t.Child(k)
	if !pv.IsMap() || meta.Rule != nil || (ft.Kind != openapi.KindUnknown && ft.Kind != openapi.KindStruct && ft.Kind != openapi.KindMap) {
		return false
	}
	for _, f := range pv.Fields() {
		if _, fm := ft.Child(f.Key); strings.HasPrefix(f.Key, "$") || fm.Rule != nil {
			return false
		}
		if (f.Value.IsMap() || f.Value.IsList()) && !wholeScalars(ft, f.Key, f.Value) && !plainMap(ft, f.Key, f.Value) {
			return false
		}
	}
	return true
}

// composeFailure returns the error of orderFails for compose mode's Repeat r of item p (type t) merged into v, where
// Phase 1 collated it (taken whole, an atomic node, where its fields collated so failed; else onto a skeleton of its
// maps, an outcome of another kind at a list it orders failing the collation with it as live) and its nodes lie within
// the depth limit (not r.Deep); nil where there is none or it is not known. A repeat holding empty a merged list of its
// item's own that it orders (elements.Repeat.Err: collate's leftEmptyOrder) fails where v holds no items there, as
// strategicpatch's merge of an order onto no items fails (emptyOrdersHeld); so does one ordering a list it leaves out
// that v holds empty (orderedNoItems).
func composeFailure(r elements.Repeat, p value.Value, t *openapi.Type, v value.Value, unmergedRefused bool) error {
	if err, undecided := emptyOrderFailure(r, p, v); err != nil || undecided {
		return err
	}
	if r.Element == nil || r.Deep { // (r.Err beside r.Element: a list held empty that v holds items for, as above)
		return nil
	}
	if known, err := orderFails(p, t, v, unmergedRefused); known {
		return err
	}
	return nil
}

// emptyOrderFailure returns the error collating compose mode's repeat item p (Repeat r) with v as live gives at a list
// it orders that v holds no items for: one it leaves out that v holds empty (orderedNoItems), or one it holds empty
// (r.Err: collate's leftEmptyOrder) that v holds no items for (emptyOrdersHeld), where that list is the first the
// collation meets failing so (the other's path not before it: pathBefore) and the maps on the way order no field
// before it that v holds (ordersBefore; where v lacks such a field, the collation builds it as Phase 1 did without
// live, without error before r.Err). undecided is true where such a list fails but an order before it may fail first,
// or, held empty, another list it holds empty and orders fails, not r.Err's: the front-end applies the repeat.
func emptyOrderFailure(r elements.Repeat, p, v value.Value) (err error, undecided bool) {
	noItems := orderedNoItems(r.Element, v)
	at := errorPath(noItems)
	if noItems != nil && !ordersBefore(p, v, at) && (r.Err == nil || !pathBefore(errorPath(r.Err), at)) {
		return noItems, false
	}
	if r.Element != nil && r.Err != nil {
		if held, known := emptyOrdersHeld(r.Element, v, true); known && !held {
			if emptyOrderFirst(p, v, r.Err) && (noItems == nil || !pathBefore(at, errorPath(r.Err))) {
				return r.Err, false // (its merged list held empty and ordered, where v holds no items: no kind to order by)
			}
			return nil, true
		}
	}
	return nil, noItems != nil
}

// emptyOrderFirst reports whether err, compose mode's repeat item p's error without live at a merged list it holds
// empty and orders (elements.Repeat.Err: collate's leftEmptyOrder), is at a list v holds no items at, reached through
// maps, that the maps on the way order no field before (ordersBefore).
func emptyOrderFirst(p, v value.Value, err error) bool {
	at := errorPath(err)
	if len(at) == 0 || ordersBefore(p, v, at) {
		return false
	}
	for _, step := range at {
		v, _ = v.Get(step.Field)
	}
	return !v.IsList() || v.Len() == 0
}

// ordersBefore reports whether a collation of compose mode's repeat item p with v as live, walking to path at (fields,
// by name in each map), may meet a "$setElementOrder/<g>" first: one of a field g before at's step in a map on the
// way that v's map there holds, or at passes a list's item, a value p does not hold as a map, or one below the item's
// own map v holds as other than a map. An order's checks against v's list there may fail first.
func ordersBefore(p, v value.Value, at fieldpath.Path) bool {
	for i, step := range at {
		if step.Kind != fieldpath.FieldElement || !p.IsMap() || (i > 0 && !v.IsMap() && !v.IsNull()) {
			return true
		}
		for _, f := range p.Fields() {
			g, orders := strings.CutPrefix(f.Key, smp.SetOrderPrefix)
			if _, held := v.Get(g); orders && g < step.Field && held {
				return true
			}
		}
		if i < len(at)-1 {
			p, _ = p.Get(step.Field)
			v, _ = v.Get(step.Field)
		}
	}
	return false
}

// pathBefore reports whether a collation walking maps' fields by name meets path a before path b (a field name
// before b's at the first step they differ at), or may: a is empty, or a prefix of b, or they differ first at
// other than two fields.
func pathBefore(a, b fieldpath.Path) bool {
	for i := range a {
		if i >= len(b) {
			return false
		}
		if a[i].Kind != fieldpath.FieldElement || b[i].Kind != fieldpath.FieldElement {
			return true
		}
		if a[i].Field != b[i].Field {
			return a[i].Field < b[i].Field
		}
	}
	return true
}

// errorPath is err's path, where err is an *elements.Error; nil elsewhere.
func errorPath(err error) fieldpath.Path {
	if e, ok := err.(*elements.Error); ok {
		return e.Path
	}
	return nil
}

// directiveOf reports whether key is a directive of a map of type t: a "$" key t does not declare.
func directiveOf(t *openapi.Type, key string) bool {
	return strings.HasPrefix(key, "$") && t.Field(key) == nil
}

// fieldNames returns the names of the fields a collation of patch map p with live map v visits, in its order: p's, v's
// and those p only orders, sorted, each once.
func fieldNames(p, v value.Value, ordered map[string]bool) []string {
	names := make([]string, 0, p.Len()+v.Len()+len(ordered))
	for _, f := range p.Fields() {
		names = append(names, f.Key)
	}
	for _, f := range v.Fields() {
		names = append(names, f.Key)
	}
	for name := range ordered {
		names = append(names, name)
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// contradictionFirst reports whether collating p, a map of compose mode's repeat of type t, with lv as live fails
// first with at (elements.Repeat.Contradicted): at its field named by at's path's last step, a merged list p orders by
// a "$setElementOrder" its items contradict or an entry of which names no item. lv is a map without fields a merge rule decides; p's fields before that
// list (by name) are scalars, nulls, plain maps (plainMap), lists of scalars merged by no strategy (wholeScalars), and
// its "$retainKeys" and that list's order, which lv lacks or holds equal
// (patches merged agree on them); lv lacks the list or holds a list its items merge with (smp.ListClass, by key
// smp.KeyedListClass, maps each holding the key as a scalar, "$patch: replace" items aside: replacing): the collation
// builds those fields without error, and the list's items, before it reads and checks the order.
func contradictionFirst(p value.Value, t *openapi.Type, lv value.Value, at *elements.Error) bool {
	if !p.IsMap() || !lv.IsMap() || len(at.Path) == 0 || slices.ContainsFunc(lv.Fields(), func(f value.Field) bool {
		_, meta := t.Child(f.Key)
		return meta.Rule != nil
	}) {
		return false
	}
	name := at.Path[len(at.Path)-1].Field
	for _, f := range p.Fields() {
		held, holds := lv.Get(f.Key)
		switch {
		case f.Key >= name:
		case f.Key == smp.RetainKeysKey || f.Key == smp.SetOrderPrefix+name:
			if !directiveOf(t, f.Key) || (holds && !value.Equal(held, f.Value)) {
				return false
			}
		case strings.HasPrefix(f.Key, "$") ||
			!(f.Value.IsScalar() || f.Value.IsNull() || plainMap(t, f.Key, f.Value) || wholeScalars(t, f.Key, f.Value)):
			return false
		}
	}
	list, _ := p.Get(name)
	held, holds := lv.Get(name)
	if !holds {
		return true
	}
	ft, meta := t.Child(name)
	if !held.IsList() || !list.IsList() || meta.Rule != nil {
		return false
	}
	if key := meta.MergeKey; len(key) == 1 {
		_, msg, _ := smp.KeyedListClass(held.Items(), list.Items())
		return msg == "" && keyedScalars(held.Items(), key[0]) && keyedScalars(replacing(list.Items()), key[0])
	}
	_, msg, _ := smp.ListClass(held.Items(), list.Items())
	return msg == "" && len(meta.MergeKey) == 0 && !elements.SetOfMaps(ft, &meta)
}

// replacing returns items less those that are "{"$patch": "replace"}" maps: a keyed patch list's items beside which
// the collation reads and checks the order as without them but for their places (format.CheckOrder).
func replacing(items []value.Value) []value.Value {
	return slices.DeleteFunc(slices.Clone(items), func(it value.Value) bool {
		d, _ := it.Get(smp.DirectiveKey)
		return it.IsMap() && it.Len() == 1 && value.Equal(d, value.String(smp.ReplaceValue))
	})
}

// orderValid reports whether n, a list of compose mode's repeat tree the patch holds with items, has no directive but a
// "$setElementOrder" naming its items in their order, as a collation checks it (setOrdered, its items distinct scalars
// of one class; by merge key, keyedOrder of its data items, each a map): the collation builds its items, live's too,
// without an error of the order's.
func orderValid(n *elements.Node) bool {
	if n.Dirs == nil || !ordersOnly(n.Dirs) || !n.HasLocal || !n.Local.IsList() {
		return false
	}
	if len(n.Meta.MergeKey) != 1 {
		_, distinct := distinctScalars(n.Local.Items())
		return len(n.Meta.MergeKey) == 0 && distinct && setOrdered(n)
	}
	data, _, replace, ok := keyedDirected(n.Local.Items(), n.Meta.MergeKey[0])
	return ok && !replace && keyedScalars(data, n.Meta.MergeKey[0]) && keyedOrder(n.Dirs, data, n.Meta.MergeKey[0])
}

// sortedOntoList returns, for field f of compose mode's repeat map e, a list merged by no strategy beside an empty
// "$setElementOrder" that Phase 1 took whole (orderTaken; collate's kubectlOrdered: sorted as where the outcome lacks
// the field), where lv, its member's outcome's field, is a list of scalars of its items' class (takenOntoList): the
// patch's list sorted by lv, as strategicpatch's merge of patches sorts the list's items, none of which an empty order
// names, by the first patch's list (normalizeSliceOrder: smp.SortedBy).
func sortedOntoList(e *elements.MapElement, f elements.Field, lv value.Value) (value.Value, bool) {
	a, _ := f.Element.(*elements.AtomicElement)
	order, ordered := e.Local.Get(smp.SetOrderPrefix + f.Name)
	raw, _ := e.Local.Get(f.Name)
	if a == nil || a.Dirs == nil || !orderTaken(a.Dirs) || !ordered || !order.IsList() || order.Len() > 0 ||
		!raw.IsList() || !takenOntoList(a, lv) {
		return value.Value{}, false
	}
	return smp.SortedBy(raw.Items(), lv.Items()), true
}

// orderedNoItems returns the error collating compose mode's repeat tree e with v as live gives where e leaves out a
// list it orders by "$setElementOrder" alone (merged or not: a node without the patch's value) and v, through maps
// (of no merge rule, no strategy replace, no "$retainKeys"), holds that field as a list without items: strategicpatch's
// merge of patches finds no items to order there and fails; that collation refuses the order of a list the schema
// merges by no strategy (smp.OrderOfUnmerged), and finds no items for a merged one. Nil where there is none.
func orderedNoItems(e elements.Element, v value.Value) error {
	m, _ := e.(*elements.MapElement)
	if m == nil || !v.IsMap() || m.Ruled || m.Dirs != nil || m.Meta.Strategy.Has(openapi.StrategyReplace) {
		return nil
	}
	for _, f := range m.Fields {
		lv, _ := v.Get(f.Name)
		n := f.Element.Base()
		if lv.IsMap() {
			if err := orderedNoItems(f.Element, lv); err != nil {
				return err
			}
		} else if !n.HasLocal && n.Dirs != nil && ordersOnly(n.Dirs) && lv.IsList() && lv.Len() == 0 {
			if !elements.MergedList(n.Type, &n.Meta) && (n.Type.Kind == openapi.KindList || n.Type.Kind == openapi.KindUnknown) {
				return n.Errorf(elements.Patch, smp.OrderOfUnmerged(n.Name)) // (refused there: collate's kubectlOrdered)
			}
			return n.Errorf(elements.Patch, smp.OrderWithoutItems(n.Name))
		}
	}
	return nil
}
