package visitors

import (
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/value"
)

// listOnNothing returns keyed list pv, of a patch item applied in apply mode, whose items are of type t, where the
// outcome lacks the list, as strategicpatch's mergeMap takes a field the original lacks: pv less its nulls at any depth
// (discardNullValuesFromPatch: StripNulls), its items otherwise as they stand, a key named twice too. ok where each
// item is one mapOnto merges onto nothing (no "$" key at any depth, fields the schema types as the item holds them,
// lists merged onto nothing so in turn): the collation reads such items, without live, as the same values.
func listOnNothing(t *openapi.Type, pv value.Value) (value.Value, bool) {
	for _, it := range pv.Items() {
		if _, ok := mapOnto(it, value.MustMap(), t, true); !ok {
			return value.Value{}, false
		}
	}
	return StripNulls(pv), true
}

// appendedPlain reports whether each of data, a patch item's keyed list (items of type t) merged into held, the
// outcome's list there, whose key neither held nor an earlier item of data names (keyOf), is appended as it stands
// (strategicpatch's mergeSliceWithoutSpecialElements appends it so, its nulls kept) the same as a collation with held as
// live builds it: mapOnto merges it onto nothing and leaves it as it is (no null, no "$" key at any depth; a set or a
// keyed list inside it as it stands, naming a value or key twice too). The collation drops the nulls of content live
// lacks (docs/strategicpatch.md, "What stays different"): an appended item holding one is left to the front-end.
func appendedPlain(t *openapi.Type, held, data []value.Value, keyOf func(value.Value) value.ScalarKey) bool {
	named := firstPlaces(held, keyOf)
	for _, it := range data {
		if _, merged := named[keyOf(it)]; merged {
			continue
		}
		named[keyOf(it)] = 0
		if m, ok := mapOnto(it, value.MustMap(), t, true); !ok || !value.Equal(m, it) {
			return false
		}
	}
	return true
}

// orderedPlain reports whether pv, a patch item's list it orders by "$setElementOrder" (mergedOrderOnto), merged by
// merge key key ("": a set), names each key or value once, and, where the outcome lacks the list (held false), holds
// no null and no "$" key at any depth (plainData): strategicpatch's mergePatchIntoOriginal takes such a list as it
// stands, nulls kept, where the collation drops them.
func orderedPlain(pv value.Value, key string, held bool) bool {
	if firsts := firstPlaces(pv.Items(), keyOfItems(key)); len(firsts) != pv.Len() {
		return false
	}
	return held || plainData(pv)
}
