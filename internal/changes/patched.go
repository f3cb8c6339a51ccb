package changes

import (
	"slices"
	"strings"

	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/fieldpath"
	"github.com/plyproject/ply/pkg/value"
)

// Patches is what a walk that decided some nodes by their outcome trees (elements.Patched) tells Collect of them:
// strategy.Walker. There the tree below the node does not hold the outcome's structure, so Collect compares live's value
// with the outcome as values (between): maps field by field, lists merged by key item by item (an item's i-th
// occurrence of its key in one paired with its i-th in the other, as kubectl pairs repeated keys), sets value by value
// (so paired too), a list whose items are unchanged but reordered replaced, other values replaced when they differ. An
// Add or Replace is Local's; a Remove is Recorded's, as local's list named the item no more since the last apply.
type Patches interface {
	Patched(*elements.Node) *elements.Patched
}

// between appends the changes from live value lv (liveOK: set, not null) to outcome ov (present: set, not null) at
// path at, of type t and metadata meta (see Patches).
func between(out []Change, at fieldpath.Path, lv, ov value.Value, liveOK, present bool, t *openapi.Type, meta openapi.Meta) []Change {
	switch {
	case !liveOK && !present:
		return out
	case !liveOK:
		return append(out, changeAt(at, Add, elements.Local))
	case !present:
		return append(out, changeAt(at, Remove, elements.Recorded))
	case value.Equal(lv, ov):
		return out
	}
	before := len(out)
	switch {
	case lv.IsMap() && ov.IsMap() && !meta.Strategy.Has(openapi.StrategyReplace):
		return betweenMaps(out, at, lv, ov, t)
	case lv.IsList() && ov.IsList() && elements.MergedList(t, &meta):
		out = betweenLists(out, at, lv.Items(), ov.Items(), t, meta)
	}
	if len(out) == before {
		out = append(out, changeAt(at, Replace, elements.Local))
	}
	return out
}

// betweenMaps appends the changes of maps lv and ov at path at, field by field in key order.
func betweenMaps(out []Change, at fieldpath.Path, lv, ov value.Value, t *openapi.Type) []Change {
	keys := make([]string, 0, lv.Len()+ov.Len())
	for _, m := range [...]value.Value{lv, ov} {
		for _, f := range m.Fields() {
			keys = append(keys, f.Key)
		}
	}
	slices.SortFunc(keys, strings.Compare)
	for _, k := range slices.Compact(keys) {
		l, lok := lv.Get(k)
		o, ook := ov.Get(k)
		ct, cm := t.Child(k)
		out = between(out, at.Child(fieldpath.Field(k)), l, o, lok && !l.IsNull(), ook && !o.IsNull(), ct, cm)
	}
	return out
}

// betweenLists appends the changes of merged lists live and outcome at path at: items paired by identity and rank,
// the outcome's in its order, then live's it lacks. Items without identity (no key, not a scalar) leave the list to be
// compared whole.
func betweenLists(out []Change, at fieldpath.Path, live, outcome []value.Value, t *openapi.Type, meta openapi.Meta) []Change {
	itemType := t.Item()
	keyed := len(meta.MergeKey) > 0 && itemType.Kind != openapi.KindPrimitive && !elements.SetOfMaps(t, &meta)
	step := func(v value.Value) (fieldpath.Element, bool) {
		if !keyed {
			_, ok := elements.SetKey(v, elements.SetOfMaps(t, &meta))
			return fieldpath.Val(v), ok
		}
		_, missing, _ := elements.KeyOf(v, meta.MergeKey, itemType)
		return fieldpath.Key(elements.KeyFields(v, meta.MergeKey, itemType)), v.IsMap() && missing == ""
	}
	type ranked struct {
		id   string
		rank int
	}
	identities := func(items []value.Value) ([]ranked, bool) {
		ids, seen := make([]ranked, len(items)), map[string]int{}
		for i, v := range items {
			e, ok := step(v)
			if !ok {
				return nil, false
			}
			id := e.String()
			ids[i] = ranked{id, seen[id]}
			seen[id]++
		}
		return ids, true
	}
	lids, lok := identities(live)
	oids, ook := identities(outcome)
	if !lok || !ook {
		return out
	}
	inLive := make(map[ranked]int, len(live))
	for i, id := range lids {
		inLive[id] = i
	}
	paired := make([]bool, len(live))
	for i, v := range outcome {
		e, _ := step(v)
		if j, ok := inLive[oids[i]]; ok {
			paired[j] = true
			out = between(out, at.Child(e), live[j], v, !live[j].IsNull(), !v.IsNull(), itemType, openapi.Meta{})
			continue
		}
		out = append(out, changeAt(at.Child(e), Add, elements.Local))
	}
	for j, v := range live {
		if !paired[j] {
			e, _ := step(v)
			out = append(out, changeAt(at.Child(e), Remove, elements.Recorded))
		}
	}
	return out
}

// changeAt is a change of op decided by src at path at, materialised (it refers to no node).
func changeAt(at fieldpath.Path, op Op, src elements.Source) Change {
	return Change{Op: op, Source: src, path: &segment{elems: slices.Clip(at)}}
}
