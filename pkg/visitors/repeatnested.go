package visitors

import (
	"slices"

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

// appendedCleaned returns data, a patch item's keyed list (items of type t) merged into held, the outcome's list
// there, with each item whose key neither held nor an earlier item of data names (keyOf) as a collation with held as
// live builds it: merged onto nothing (mapOnto), its nulls dropped at any depth, the collation dropping the nulls of
// content live lacks (docs/strategicpatch.md, "What stays different": strategicpatch's
// mergeSliceWithoutSpecialElements appends it as it stands, its nulls kept), a set or a keyed list inside it as it
// stands, naming a value or key twice too. A later item of such a key is merged into that one as the collation
// merges it. ok is false where mapOnto does not merge one so (a "$" key at any depth, a field of another kind than
// the schema's): the front-end applies the repeat.
func appendedCleaned(t *openapi.Type, held, data []value.Value, keyOf func(value.Value) value.ScalarKey) ([]value.Value, bool) {
	named := firstPlaces(held, keyOf)
	out := slices.Clone(data)
	for i, it := range data {
		if _, merged := named[keyOf(it)]; merged {
			continue
		}
		named[keyOf(it)] = 0
		m, ok := mapOnto(it, value.MustMap(), t, true)
		if !ok {
			return nil, false
		}
		out[i] = m
	}
	return out, true
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
