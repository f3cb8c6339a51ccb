package visitors

import (
	"slices"

	"github.com/plyproject/ply/internal/smp"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/value"
)

// cleanedBeyond returns the error a collation with v as live gives at field f of a map of compose mode's Repeat r's
// tree, the patch's value there pv a map where lv, v's field, is none (v lacks the field or holds another kind):
// that collation takes pv whole, less its maps holding "$patch" (collate's whole and clean), walking its maps and lists
// by the depth limit, and fails at f where one of them lies beyond it, more than r.Room levels below the item's map
// (elements.Repeat.Room; the limit r.Room+r.Depth). Phase 1, collating the repeat onto a skeleton of its maps, walked
// each of them but the maps of strategy replace it built whole (a "$patch" map in them or not) and their values. Nil
// elsewhere, and where no value of the repeat lies at the limit (not r.Deep); known is false where r is Deep without
// Room, which Phase 1 records for an item within the limit.
func cleanedBeyond(f elements.Field, pv, lv value.Value, r *elements.Repeat) (known bool, err error) {
	switch {
	case !r.Deep || !pv.IsMap() || lv.IsMap():
		return true, nil
	case r.Room < 1:
		return false, nil
	case !walksBeyond(pv, f.Element.Base().Depth(), r.Room):
		return true, nil
	}
	return true, f.Element.Base().Errorf(elements.Patch, elements.DepthLimitMsg(r.Room+r.Depth))
}

// walksBeyond reports whether cleaning v, a patch's value depth levels below a repeat's item, walks a map or a list
// more than room levels below it: the clean walks each map and list, stopping at a map holding "$patch" (dropped,
// its own depth checked), as collate's clean does.
func walksBeyond(v value.Value, depth, room int) bool {
	switch {
	case !v.IsMap() && !v.IsList():
		return false
	case depth > room:
		return true
	case v.IsList():
		return slices.ContainsFunc(v.Items(), func(it value.Value) bool { return walksBeyond(it, depth+1, room) })
	}
	if _, directed := v.Get(smp.DirectiveKey); directed {
		return false
	}
	return slices.ContainsFunc(v.Fields(), func(f value.Field) bool { return walksBeyond(f.Value, depth+1, room) })
}
