package visitors

import (
	"strings"

	"github.com/plyproject/ply/internal/smp"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/fieldpath"
	"github.com/plyproject/ply/pkg/value"
)

// directedPlainly reports whether v's "$" keys, at any depth, are each the "$patch" of a map holding "replace",
// "delete" or "merge" (whatever else that map holds), a "$" key the collation ignores (ignoredDirective, with no
// schema), or a "$retainKeys" of strings naming every field its map sets to other than null, or lie in a list (any
// "$" key, at any depth): where strategicpatch takes a value whole (a field the schema does not declare, over another
// kind or nothing: undeclaredOver) its removeDirectives drops those maps and keeps the other keys; the collation with
// the outcome as live drops them all, reading such a "$patch" or "$retainKeys" without complaint (it refuses another
// one) and a list's content unread, as cleanedWhole gives it.
func directedPlainly(v value.Value) bool {
	_, _, found, plain := unknownPatchAt(v)
	return plain && !found
}

// unknownPatchAt returns, for v, a value taken whole (undeclaredOver), the path below v of the first failure, as the
// collation walks v (a map's "$" keys, then its fields by name, depth first; a list taken cleaned, its content
// unread), and its message (found): a map holding "$patch" of another value than "replace", "delete" or "merge",
// whatever else it holds (smp.UnknownDirective), or a list its map orders by a "$setElementOrder/<f>" that is a list
// (smp.OrderOfUnmerged: no schema merges it; an order of a field the map lacks is dropped). strategicpatch's
// removeDirectives drops such a map and keeps such an order. plain reports whether v's other "$" keys, before and
// after it, are as directedPlainly reads them, so that the collation meets no other error.
func unknownPatchAt(v value.Value) (at fieldpath.Path, msg string, found, plain bool) {
	switch {
	case v.IsList():
		return nil, "", false, true // (taken cleaned, its content unread: cleanedWhole)
	case !v.IsMap():
		return nil, "", false, true
	}
	if d, directed := v.Get(smp.DirectiveKey); directed {
		s, _ := d.AsString()
		if s == smp.ReplaceValue || s == smp.DeleteValue || s == smp.MergeValue {
			return nil, "", false, true // (dropped unread, whatever else it holds)
		}
		return fieldpath.Path{}, smp.UnknownDirective(d), true, true
	}
	for _, f := range v.Fields() {
		if strings.HasPrefix(f.Key, "$") && !plainKey(v, f.Key) {
			return nil, "", false, false
		} else if strings.HasPrefix(f.Key, "$") {
			continue
		}
		var fat fieldpath.Path
		var fmsg string
		ffound, fplain := false, true
		if _, ordered := v.Get(smp.SetOrderPrefix + f.Key); !ordered {
			fat, fmsg, ffound, fplain = unknownPatchAt(f.Value) // (v's fields sorted by name, as the collation walks them)
		} else if !f.Value.IsList() {
			fplain = false
		} else {
			fat, fmsg, ffound = fieldpath.Path{}, smp.OrderOfUnmerged(f.Key), true
		}
		if !fplain {
			return nil, "", false, false
		} else if ffound && !found {
			at, msg, found = append(fieldpath.Path{fieldpath.Field(f.Key)}, fat...), fmsg, true
		}
	}
	return at, msg, found, true
}

// plainKey reports whether "$" key key of map m is one the collation reads without complaint where it takes m whole:
// a "$retainKeys" naming every field m sets (retainsEvery), a "$setElementOrder/<f>" that is a list (its field's
// failure read there: unknownPatchAt), or a key it ignores (ignoredDirective, with no schema).
func plainKey(m value.Value, key string) bool {
	if key == smp.RetainKeysKey {
		return retainsEvery(m)
	} else if order, ordering := m.Get(key); strings.HasPrefix(key, smp.SetOrderPrefix) {
		return ordering && order.IsList()
	}
	return ignoredDirective(&openapi.Type{}, key)
}

// undeclaredFailure returns the error a collation of a patch map with the outcome as live gives at its field f (of type
// t), where undeclaredOver would take f's value whole but for a map in it holding "$patch" of another value, or a list
// a map in it orders by "$setElementOrder" (unknownPatchAt): the collation fails at the first such one as it walks the
// value, its other "$" keys read without complaint; strategicpatch drops such a map and copies such an order. Nil
// elsewhere.
func undeclaredFailure(t *openapi.Type, f value.Field, lv value.Value, held bool) *elements.Error {
	pv := f.Value
	if t.Kind != openapi.KindStruct || t.Field(f.Key) != nil || !(pv.IsMap() || pv.IsList()) ||
		!(!held || lv.IsScalar() || (lv.IsList() && pv.IsMap()) || (lv.IsMap() && pv.IsList())) {
		return nil
	}
	at, msg, found, plain := unknownPatchAt(pv)
	if !found || !plain {
		return nil
	}
	return &elements.Error{Source: elements.Patch, Path: append(fieldpath.Path{fieldpath.Field(f.Key)}, at...), Msg: msg}
}

// retainsEvery reports whether map m's "$retainKeys" is a list of strings naming every field m sets to other than null
// ("$" keys aside).
func retainsEvery(m value.Value) bool {
	keys, _ := m.Get(smp.RetainKeysKey)
	named := map[string]bool{}
	for _, k := range keys.Items() {
		s, ok := k.AsString()
		if !ok {
			return false
		}
		named[s] = true
	}
	for _, f := range m.Fields() {
		if !strings.HasPrefix(f.Key, "$") && !f.Value.IsNull() && !named[f.Key] {
			return false
		}
	}
	return keys.IsList()
}

// deletesMap reports whether pm, a patch map, holds "$patch: delete": merged into the outcome's map, strategicpatch's
// handleDirectiveInMergeMap gives an empty map whatever else pm holds, reading none of it, and so does the collation
// with that outcome as live, which drops pm's other fields and "$" keys unread (with gate PatchDeleteRemovesMap it
// removes the field: deleteRemoves).
func deletesMap(pm value.Value) bool {
	d, _ := pm.Get(smp.DirectiveKey)
	s, _ := d.AsString()
	return s == smp.DeleteValue
}

// deletedRule is what a "$patch: delete" map merged into the outcome's map gives, as mapOnto and valueOnto decide it:
// not decided there (deleteUnknown: the caller does not know gate PatchDeleteRemovesMap), an empty map
// (deleteEmpties), or the field removed (deleteRemoves, the gate on).
type deletedRule int8

const (
	deleteUnknown deletedRule = iota
	deleteEmpties
	deleteRemoves
)

// deletedRuleOf is the deletedRule of gate PatchDeleteRemovesMap, on where removes.
func deletedRuleOf(removes bool) deletedRule {
	if removes {
		return deleteRemoves
	}
	return deleteEmpties
}

// replacesMap reports whether pm, a patch map, holds "$patch: replace": merged into the outcome's map, strategicpatch's
// handleDirectiveInMergeMap takes pm less the directive as it stands, and the collation with that outcome as live takes
// it cleaned (cleanedWhole), as it takes every value whole (docs/strategicpatch.md, "What stays different").
func replacesMap(pm value.Value) bool {
	d, _ := pm.Get(smp.DirectiveKey)
	s, _ := d.AsString()
	return s == smp.ReplaceValue
}

// cleanedWhole is v as the collation takes a value whole: less its nulls, its maps holding "$patch" (of any value)
// and its other "$" keys, at any depth (strategicpatch keeps them).
func cleanedWhole(v value.Value) value.Value {
	switch {
	case v.IsMap():
		fields := make([]value.Field, 0, v.Len())
		for _, f := range v.Fields() {
			if _, directed := f.Value.Get(smp.DirectiveKey); !strings.HasPrefix(f.Key, "$") && !f.Value.IsNull() &&
				!(f.Value.IsMap() && directed) {
				fields = append(fields, value.Field{Key: f.Key, Value: cleanedWhole(f.Value)})
			}
		}
		return value.MapFromSorted(fields)
	case v.IsList():
		items := make([]value.Value, 0, v.Len())
		for _, it := range v.Items() {
			if _, directed := it.Get(smp.DirectiveKey); !(it.IsMap() && directed) {
				items = append(items, cleanedWhole(it))
			}
		}
		return value.List(items)
	}
	return v
}
