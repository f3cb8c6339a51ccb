package visitors

import (
	"slices"
	"strings"

	"github.com/plyproject/ply/internal/smp"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/value"
)

// retainedOnto returns lm, the outcome's map a patch map pm merges into (sortedOntoLacking's item, or a map of it
// mapOnto merges), less the fields pm's "$retainKeys" does not name, as strategicpatch's applyRetainKeysDirective
// clears them before anything of pm merges: the directive a list of strings naming every field pm sets (nulls,
// "$deleteFromPrimitiveList/<f>" and "$setElementOrder/<f>" aside), lm a map. lm as it stands where pm holds none.
// ok is false elsewhere (strategicpatch refuses such a patch, or the outcome lacks the map): the front-end applies the
// repeat.
func retainedOnto(pm, lm value.Value) (value.Value, bool) {
	keys, retains := pm.Get(smp.RetainKeysKey)
	if !retains {
		return lm, true
	}
	if !lm.IsMap() || !keys.IsList() {
		return value.Value{}, false
	}
	named := make(map[string]bool, keys.Len())
	for _, k := range keys.Items() {
		s, ok := k.AsString()
		if !ok {
			return value.Value{}, false
		}
		named[s] = true
	}
	for _, f := range pm.Fields() {
		directive := f.Key == smp.RetainKeysKey || strings.HasPrefix(f.Key, smp.DeletePrefix) ||
			strings.HasPrefix(f.Key, smp.SetOrderPrefix)
		if !directive && !f.Value.IsNull() && !named[f.Key] {
			return value.Value{}, false
		}
	}
	out := lm
	for _, f := range lm.Fields() {
		if !named[f.Key] {
			out = out.Without(f.Key)
		}
	}
	return out, true
}

// deletedOnto returns list field name of patch map pm (type t), which pm deletes from by "$deleteFromPrimitiveList"
// alone (it neither sets nor orders the list), merged into lv, the outcome's field there (held: present), as
// strategicpatch's mergeMap and deleteFromSlice decide it: the field a list of scalars the schema types so (merged as
// a set or by no strategy), no merge rule, the values deleted a list the collation accepts (refusedValues: it refuses
// the others whatever the outcome holds, where strategicpatch may read none of them); where the outcome lacks the
// field, absent, where it holds another kind (a null too), kept as it stands; where it holds a list, its items and
// the values deleted scalars of one kind (strings, integers or booleans; either may be empty), the list less every
// item equal to a value deleted. ok is false elsewhere (strategicpatch fails, or the field is another): the front-end applies the
// repeat.
func deletedOnto(pm value.Value, t *openapi.Type, name string, lv value.Value, held bool) (list value.Value, present, ok bool) {
	ft, meta := t.Child(name)
	deleted, _ := pm.Get(smp.DeletePrefix + name)
	_, set := pm.Get(name)
	_, ordered := pm.Get(smp.SetOrderPrefix + name)
	switch {
	case set || ordered || ft.Kind != openapi.KindList || ft.Item().Kind != openapi.KindPrimitive || meta.Rule != nil ||
		!deleted.IsList() || refusedValues(smp.DeletePrefix+name, deleted.Items()) != "":
		return value.Value{}, false, false
	case !held:
		return value.Value{}, false, true
	case !lv.IsList() || (lv.Len() == 0 && deleted.Len() == 0):
		return lv, true, true
	case !setOfKind(lv.Items(), deleted.Items()):
		return value.Value{}, false, false
	}
	return smp.WithoutValues(lv, deleted.Items()), true, true
}

// deletedField returns out, the outcome's map patch map pm (type t) merges into, with list field name, which pm
// deletes from by "$deleteFromPrimitiveList" alone, as deletedOnto decides it; ok is false where it does not.
func deletedField(pm value.Value, t *openapi.Type, out value.Value, name string) (value.Value, bool) {
	return withDecided(out, name, func(lv value.Value, held bool) (value.Value, bool, bool) {
		return deletedOnto(pm, t, name, lv, held)
	})
}

// withDecided returns map out with field name as decide gives it from out's field there (held: present), absent
// where decide gives none; ok is false where decide does not decide it.
func withDecided(out value.Value, name string, decide func(lv value.Value, held bool) (v value.Value, present, ok bool)) (value.Value, bool) {
	lv, held := out.Get(name)
	v, present, ok := decide(lv, held)
	if !ok {
		return value.Value{}, false
	}
	return withField(out, name, v, present), true
}

// withField returns map m with field name set to v where present, else without it.
func withField(m value.Value, name string, v value.Value, present bool) value.Value {
	if present {
		return m.With(name, v)
	}
	return m.Without(name)
}

// otherKind reports whether lv, the outcome's field a patch map's field pv merges into (held: present), is of another
// kind than pv, which is no null: a null, a scalar, a map or a list where pv is one of the others (scalars of any
// class are one kind). strategicpatch's mergeMap takes pv there as where the outcome lacks the field (less its nulls
// and directives), and so does the collation with that outcome as live: merged as onto nothing.
func otherKind(lv value.Value, held bool, pv value.Value) bool {
	kind := func(v value.Value) int {
		switch {
		case v.IsNull():
			return 0
		case v.IsMap():
			return 1
		case v.IsList():
			return 2
		}
		return 3
	}
	return held && !pv.IsNull() && kind(lv) != kind(pv)
}

// deletedBesideOnto returns set field name of patch map pm (type t), which pm sets beside a "$deleteFromPrimitiveList"
// of it and does not order, merged into lv, the outcome's field there (held: present; another kind taken as nothing:
// otherKind), as strategicpatch's mergeMap gives it whichever of the two keys it reads first (Go's map order): the
// set merged (mergedListOnto) less the values deleted, none of which pm's list holds (else which key it reads first
// decides), the set merged by no merge key and no merge rule, pm's list and lv's each naming a value once, their items
// and the values deleted scalars of one kind (setOfKind). Where the outcome lacks pm (apart), pm's list may hold values
// deleted: strategicpatch copies pm with both keys there, and the collation, ply's rule (docs/strategicpatch.md), takes
// the list less them. ok is false elsewhere: the front-end applies the repeat.
func deletedBesideOnto(pm value.Value, t *openapi.Type, name string, lv value.Value, held, apart bool) (list value.Value, present, ok bool) {
	f := orderedFieldOf(pm, t, name)
	if _, ordered := pm.Get(smp.SetOrderPrefix + name); ordered || !f.set || !f.deletes || !f.list.IsList() ||
		!f.deleted.IsList() || f.meta.Rule != nil || len(f.meta.MergeKey) > 0 || !elements.MergedList(f.t, &f.meta) {
		return value.Value{}, false, false
	}
	if otherKind(lv, held, f.list) {
		lv, held = value.Value{}, false // (taken as onto nothing)
	}
	pv, deleted := f.list.Items(), f.deleted.Items()
	inList := firstPlaces(pv, scalarKey)
	setHolds := func(d value.Value) bool { _, in := inList[scalarKey(d)]; return in }
	if (held && !lv.IsList()) || !setOfKind(append(slices.Clone(lv.Items()), pv...), deleted) ||
		len(firstPlaces(lv.Items(), scalarKey)) != lv.Len() || len(inList) != len(pv) ||
		(!apart && slices.ContainsFunc(deleted, setHolds)) {
		return value.Value{}, false, false
	}
	merged, ok := mergedListOnto(f.t, &f.meta, f.list, lv, held, deleteUnknown)
	if !ok {
		return value.Value{}, false, false
	}
	return smp.WithoutValues(merged, deleted), true, true
}

// deletesBeside reports whether patch map pm sets list field name beside a "$deleteFromPrimitiveList" of it, and does
// not order it: deletedBesideOnto reads the two together.
func deletesBeside(pm value.Value, name string) bool {
	_, set := pm.Get(name)
	_, deletes := pm.Get(smp.DeletePrefix + name)
	_, ordered := pm.Get(smp.SetOrderPrefix + name)
	return set && deletes && !ordered
}
