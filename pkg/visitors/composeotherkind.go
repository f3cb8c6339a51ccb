package visitors

import (
	"strings"

	"github.com/plyproject/ply/internal/smp"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/fieldpath"
	"github.com/plyproject/ply/pkg/value"
)

// A patch's map merged into a map of the first patch (mergedInto) may order by "$setElementOrder" a field the schema
// types as other than a list. The collation reads the order in three places, and fails at the first that refuses it:
// reading the map's directives (an order not a list), looking each ordered field up as strategicpatch does before it
// builds any of the map's fields (collate's orderOfNoField: mapOrderFailure), and building the ordered field in its
// place among the map's fields (the first patch's value not a list, or the schema's kind not a list: orderFailures).

// mapOrderFailure returns the error a collation gives at patch map p, of type t, merged into into (a map), before it
// builds any of p's fields: the first "$setElementOrder/<f>" (by name) that is not a list (format.ReadMap), else, in
// an object's type or a map of values, the first that names a field strategicpatch's look-up finds no list at (a map
// of values' key, a field the type does not declare, or one whose look-up fails, openapi.Field.NotAList, where into
// and p hold a list there or nothing: smp.OrderOfNoField). Nil where there is none. Its path is p's (the map's).
func mapOrderFailure(t *openapi.Type, into, p value.Value) *elements.Error {
	for _, f := range p.Fields() {
		if strings.HasPrefix(f.Key, smp.SetOrderPrefix) && directiveOf(t, f.Key) && !f.Value.IsList() {
			return &elements.Error{Source: elements.Patch, Msg: smp.OrderNotList(f.Key, f.Value.Kind())}
		}
	}
	if t.Kind != openapi.KindStruct && t.Kind != openapi.KindMap {
		return nil
	}
	for _, f := range p.Fields() {
		name, orders := strings.CutPrefix(f.Key, smp.SetOrderPrefix)
		if !orders || !directiveOf(t, f.Key) {
			continue
		}
		fd := t.Field(name)
		if fd != nil && (fd.NotAList == "" || !listOrNone(into, name) || !listOrNone(p, name)) {
			continue
		}
		notAList := ""
		if fd != nil {
			notAList = fd.NotAList
		}
		return &elements.Error{Source: elements.Patch, Msg: smp.OrderOfNoField(name, t.Name, t.Kind == openapi.KindMap, notAList)}
	}
	return nil
}

// listOrNone reports whether map m holds a list at key, or nothing.
func listOrNone(m value.Value, key string) bool {
	v, ok := m.Get(key)
	return !ok || v.IsList()
}

// mergeMapFailure returns the error merging patch map p, of type t, into into gives at that map before its fields: an order
// mapOrderFailure refuses, else a "$retainKeys" into holds otherwise (retainsDisagree, which the collation meets at
// that directive, the map's first field it builds).
func mergeMapFailure(t *openapi.Type, into, p value.Value) *elements.Error {
	if err := mapOrderFailure(t, into, p); err != nil {
		return err
	}
	return retainsDisagree(into, p)
}

// otherKindOrdered reports whether "$setElementOrder/<f>" field f of map m, of type t, is a list ordering a field t
// declares as a scalar, an object or a map (otherKindField): merged into a map, the collation fails at the map
// (mapOrderFailure) or at that field (orderFailures: otherKindOrderFailure) wherever m or that map holds a value there
// (none: the order copied, orderedInto), whatever else the order holds; taken as it stands where m merges into no map,
// as strategicpatch takes it.
func otherKindOrdered(t *openapi.Type, f value.Field) bool {
	return f.Value.IsList() && otherKindField(t, strings.TrimPrefix(f.Key, smp.SetOrderPrefix))
}

// otherKindField reports whether field name of a map of type t is one t declares as a scalar, an object or a map,
// under no merge rule (an object or a map of no merge strategy, which kubectl reads as a list of that object where a
// list is given: collate's kubectlList).
func otherKindField(t *openapi.Type, name string) bool {
	ft, meta := t.Child(name)
	switch {
	case undeclared(t, name) || meta.Rule != nil:
		return false
	case ft.Kind == openapi.KindStruct || ft.Kind == openapi.KindMap:
		return !meta.Strategy.Has(openapi.StrategyMerge)
	}
	return ft.Kind == openapi.KindPrimitive
}

// otherKindOrderFailure is the error a collation gives at field name of patch map p, of type t, a field otherKindField
// holds that p orders by "$setElementOrder", merged into a map holding a list there or nothing (held, inInto; another
// kind fails first, orderFailures): format.CheckDirs' refusal of a value p sets other than a list (smp.OrderOfPatch),
// else of a list p sets, or leaves out where that map holds one, as the schema's kind is not a list's
// (smp.OrderOfOtherKind). Nil where neither p nor that map holds the field, and elsewhere.
func otherKindOrderFailure(t *openapi.Type, p value.Value, name string, held value.Value, inInto bool) *elements.Error {
	pv, inPatch := p.Get(name)
	if (inInto && !held.IsList()) || !otherKindField(t, name) || (!inPatch && !inInto) {
		return nil
	}
	ft, _ := t.Child(name)
	msg := smp.OrderOfOtherKind(name, elements.KindPhrase(ft))
	if inPatch && !pv.IsList() {
		msg = smp.OrderOfPatch(name, pv.Kind())
	}
	return &elements.Error{Source: elements.Patch, Path: fieldpath.Path{fieldpath.Field(name)}, Msg: msg}
}

// ownOrderFailure returns the error collating compose mode's Repeat r of item p (type t, a map holding no "$patch")
// with v, its member's outcome map, as live gives before it builds any of p's fields (mapOrderFailure: an order not a
// list, or of a field strategicpatch's look-up finds no list at); nil where there is none, and where r lies beyond the
// depth limit (r.Deep).
func ownOrderFailure(r elements.Repeat, p value.Value, t *openapi.Type, v value.Value) error {
	if r.Deep || !p.IsMap() || !v.IsMap() {
		return nil
	}
	if _, directed := p.Get(smp.DirectiveKey); directed && directiveOf(t, smp.DirectiveKey) {
		return nil
	}
	if err := mapOrderFailure(t, v, p); err != nil {
		return err
	}
	return nil
}

// unreadOrdered reports whether "$setElementOrder/<f>" field f of map m, of type t, orders a list m holds that the
// collation refuses beside it where the map m merges into lacks that list (orderedUnread: an item's key it cannot
// read), its error met at the list before the order is checked (listInto).
func unreadOrdered(t *openapi.Type, m value.Value, f value.Field) bool {
	name := strings.TrimPrefix(f.Key, smp.SetOrderPrefix)
	l, _ := m.Get(name)
	_, unread := orderedUnread(t, m, name, l)
	return unread
}

// otherKindMap reports whether pv, field k of compose mode's repeat map of type t, is a map holding no "$" key at a
// field the schema types as a list or a scalar under no merge rule: the collation merges it as a map of no schema
// (collate's mapOfOtherKind), where the outcome's value there is no map taking it whole, and onto the outcome's map,
// where strategicpatch's look-up fails for no key (unmergeable, checked first), merging each field onto one of another
// kind or none, whole: without error within the depth limit (the repeat not elements.Repeat.Deep).
func otherKindMap(t *openapi.Type, k string, pv value.Value) bool {
	ft, meta := t.Child(k)
	if !pv.IsMap() || meta.Rule != nil || (ft.Kind != openapi.KindList && ft.Kind != openapi.KindPrimitive) {
		return false
	}
	for _, f := range pv.Fields() {
		if strings.HasPrefix(f.Key, "$") {
			return false
		}
	}
	return true
}

// otherKindWhole reports whether pv, field k of compose mode's repeat map of type t, is a map (holding "$" keys or
// not) at a field the schema types as a list or a scalar under no merge rule, where lv, the outcome's value there, is
// no map: the collation merges it as a map of no schema (collate's mapOfOtherKind) and takes it whole, less its maps
// holding "$patch" (dropped, the field with it, where pv is one, whatever its value), reading none of its "$" keys:
// without error within the depth limit (the repeat not elements.Repeat.Deep). With gate MultiFieldMergeKeys on
// (unmergedRefused), the collation's kind check refuses it: not so read.
func otherKindWhole(t *openapi.Type, k string, pv, lv value.Value, unmergedRefused bool) bool {
	ft, meta := t.Child(k)
	return pv.IsMap() && !lv.IsMap() && !unmergedRefused && meta.Rule == nil &&
		(ft.Kind == openapi.KindList || ft.Kind == openapi.KindPrimitive)
}

// otherKindOnto reports whether pv, field k of compose mode's repeat map of type t, is a map at a field the schema types
// as a list or a scalar under no merge rule, where lv, the outcome's value there, is a map, whose merge into lv a
// collation tells: it merges pv into lv as maps of no schema merge (collate's mapOfOtherKind, strategicpatch's look-up
// failing for no key of it: unmergeable, checked first), as a "$" field's map merges into one of its kind (dollarInto:
// "$patch: replace" or "delete" taking pv less the directive or empty, whatever else it holds; "$patch: merge" or
// another value failing at pv, the directive read first; another map merged field by field, mergedInto, failing where
// that merge fails, a "$retainKeys" lv holds otherwise among them). err is that failure, at field k; nil where the
// merge succeeds, within the depth limit (the repeat not elements.Repeat.Deep). With gate MultiFieldMergeKeys on
// (unmergedRefused), the collation's kind check refuses pv: not so read.
func otherKindOnto(t *openapi.Type, k string, pv, lv value.Value, unmergedRefused bool) (merged bool, err *elements.Error) {
	ft, meta := t.Child(k)
	if !pv.IsMap() || !lv.IsMap() || unmergedRefused || meta.Rule != nil ||
		(ft.Kind != openapi.KindList && ft.Kind != openapi.KindPrimitive) {
		return false, nil
	}
	_, err, merged = dollarInto(openapi.Unknown, value.Field{Key: k, Value: pv}, lv)
	return merged, fieldErr(k, err)
}

// orderedUnreadFailure is the error a collation gives at list pv, field name of patch map p of type t, beside p's
// "$setElementOrder/<name>", where the map p merges into lacks the list and an item's key is one it cannot read
// (orderedUnread): at the first such item, below the field. Nil elsewhere.
func orderedUnreadFailure(t *openapi.Type, p value.Value, name string, pv value.Value) *elements.Error {
	msg, unread := orderedUnread(t, p, name, pv)
	if !unread {
		return nil
	}
	return &elements.Error{Source: elements.Patch, Path: fieldpath.Path{fieldpath.Field(name)}, Msg: msg}
}

// undeclaredOrdered reports whether "$setElementOrder/<f>" field f of a map of type t orders a field the schema does
// not declare (undeclared): merged into a map, the collation fails at the map (mapOrderFailure: in an object's type)
// or at that field (orderFailures: the outcome's value there no list, else the patch's no list, smp.OrderOfPatch, else
// a list of no schema, smp.OrderOfUnmerged) wherever either holds it, a "$deleteFromPrimitiveList/<f>" beside it or
// not (data in a patch); the order copied where neither does.
func undeclaredOrdered(t *openapi.Type, f value.Field) bool {
	return undeclared(t, strings.TrimPrefix(f.Key, smp.SetOrderPrefix))
}
