package visitors

import (
	"strings"

	"github.com/plyproject/ply/internal/smp"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/value"
)

// directedPlainly reports whether v's "$" keys, at any depth, are each the "$patch" of a map holding "replace",
// "delete" or "merge" and no other "$" key at any depth, a "$" key the collation ignores (ignoredDirective, with no
// schema), or a "$retainKeys" of strings naming every field its map sets to other than null: where strategicpatch takes
// a value whole (a field the schema does not declare, over another kind or nothing: undeclaredOver) its
// removeDirectives drops those maps and keeps the other keys; the collation with the outcome as live drops them all,
// reading such a "$patch" or "$retainKeys" without complaint (it refuses another one), as cleanedWhole gives it.
func directedPlainly(v value.Value) bool {
	switch {
	case v.IsList():
		for _, it := range v.Items() {
			if !directedPlainly(it) {
				return false
			}
		}
	case v.IsMap():
		if d, directed := v.Get(smp.DirectiveKey); directed {
			s, _ := d.AsString()
			return (s == smp.ReplaceValue || s == smp.DeleteValue || s == smp.MergeValue) &&
				!holdsDirective(v.Without(smp.DirectiveKey))
		}
		for _, f := range v.Fields() {
			if (f.Key == smp.RetainKeysKey && !retainsEvery(v)) ||
				(f.Key != smp.RetainKeysKey && strings.HasPrefix(f.Key, "$") && !ignoredDirective(&openapi.Type{}, f.Key)) ||
				!directedPlainly(f.Value) {
				return false
			}
		}
	}
	return true
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
