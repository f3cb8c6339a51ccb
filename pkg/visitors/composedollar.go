package visitors

import (
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/value"
)

// dollarOnto is field f of compose mode's repeat map m, a "$" field the merge of patches merges as a field of no
// schema (dollarData, or a "$retainKeys" holding a map or a list: retainedData, its agreement with lv checked before:
// composeDisagrees), the patch holding pv there, merged onto lv, its member's outcome's field there, as a collation
// with that outcome as live merges it (as mergedInto merges a keyed item's): onto a value of pv's kind, dollarInto's
// (a list as the patch holds it; a map holding "$patch: replace" or "delete" less the directive or empty; one holding
// "$patch: merge" or another value failing at f; another map merged into lv's by the no-schema rules, failing where
// that merge fails); onto another kind, pv less its maps holding "$patch" (absent where it is one). applies is false
// for other fields (composedField decides them), decided false where that merge is not known; err is at its path in
// m's tree.
func dollarOnto(m *elements.MapElement, f elements.Field, pv, lv value.Value) (out elements.Outcome, err error, applies, decided bool) {
	field := value.Field{Key: f.Name, Value: pv}
	if _, atomic := f.Element.(*elements.AtomicElement); !atomic || !(dollarData(field) || retainedData(field)) {
		return elements.Absent, nil, false, false
	}
	if lv.Kind() != pv.Kind() {
		return wholeOutcome(pv), nil, true, true
	}
	merged, failure, decided := dollarInto(m.Type, field, lv)
	if failure != nil {
		at := *failure
		at.Path = append(f.Element.Base().Path(), failure.Path...)
		return elements.Absent, &at, true, decided
	}
	return elements.Keep(merged), nil, true, decided
}

// dollarFailure returns, where checked, the error field f of compose mode's repeat map m (the patch's value pv) meets
// merged onto lv, v's value there: a map holding "$patch: merge" or another value than "replace" or "delete" onto a
// map (directedField), or a "$" field dollarOnto merges failing. Nil elsewhere.
func dollarFailure(f elements.Field, m *elements.MapElement, pv, lv value.Value, checked bool) error {
	if !checked {
		return nil
	}
	if directed, fits, err := directedField(f, pv, lv); directed && !fits {
		return err
	}
	if _, err, applies, _ := dollarOnto(m, f, pv, lv); applies && err != nil {
		return err
	}
	return nil
}

// sameKindData reports whether pv, field k of a patch's map, is a "$" field merged as data (dollarData, retainedData)
// over lv, a value of its kind: dollarInto merges it.
func sameKindData(k string, pv, lv value.Value) bool {
	f := value.Field{Key: k, Value: pv}
	return (dollarData(f) || retainedData(f)) && pv.Kind() == lv.Kind()
}
