package visitors

import (
	"slices"
	"strconv"
	"strings"

	"github.com/plyproject/ply/internal/smp"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/fieldpath"
	"github.com/plyproject/ply/pkg/value"
)

// refusedDirectiveOnto reports whether apply mode's repeat r, whose own collation failed (Err, no Element) at a
// directive of its item p (of type t) that reads the patch alone, at p's own map or reached from p through maps (the
// error's path all fields), fails so applied to v, a map: at a map holding "$patch" of an unknown value
// (unknownMapDirective); at a list merged by key at its first item holding "$patch" of another value than "delete" or
// "replace" (itemDirected); at a list whose "$deleteFromPrimitiveList" deletes values not of one class, or whose
// "$setElementOrder" the patch's value or the schema refuses (listDirsRefused); at a map whose directive keys
// format.ReadMap refuses (malformedMap: a "$retainKeys" not a list of strings, or not naming a field the map sets, a
// "$setElementOrder/<f>" not a list, without kubectl a "$deleteFromPrimitiveList/<f>" not a list). A collation with v
// as live reaches that value without another error where, at each step of the path, that step's map of p holds no
// "$" key but lists ordering or deleting from fields after the step's (or, at the last step, from the erring value's
// own: directivesAfter), the step's field is an object merged field by field (fieldByField; its last, the erring
// value, any but one a merge rule names), and the fields before it by name build without error (fitsBefore, within
// the levels the depth limit lets through, Repeat.ErrRoom, or those down to the erring value, v's value there taken as
// none where v holds no map at a step above); there it reads that directive first whatever v holds
// (collate's format.ReadMap, format.ReadItem, format.CheckDirs). kubectl says gate MultiFieldMergeKeys is off.
// strategicpatch refuses an unknown "$patch" where v holds maps down to it, a list there (handleDirectiveInMergeMap,
// mergeSliceWithSpecialElements), and copies it where v lacks one (docs/strategicpatch.md, "What stays different").
func refusedDirectiveOnto(r elements.Repeat, p value.Value, t *openapi.Type, v value.Value, kubectl bool) bool {
	e, ok := r.Err.(*elements.Error)
	if r.Element != nil || !ok || !v.IsMap() {
		return false
	}
	var parent value.Value // (the map holding the erring value)
	pt := t
	for i := 0; i < len(e.Path); i++ {
		step, last := e.Path[i], i == len(e.Path)-1
		room := max(len(e.Path), r.ErrRoom) - i
		if step.Kind != fieldpath.FieldElement || !p.IsMap() || !directivesAfter(p, t, step.Field, last, v, room) ||
			!fitsBefore(step.Field, withoutDollars(p), v, t, room) {
			return false
		}
		ct, meta := t.Child(step.Field)
		keyed := !last && e.Path[i+1].Kind == fieldpath.KeyElement
		if meta.Rule != nil || (!last && !keyed && !fieldByField(ct, &meta)) {
			return false
		}
		parent, pt = p, t
		p, _ = p.Get(step.Field)
		v, _ = v.Get(step.Field)
		t = ct
		if keyed {
			if p, v, ok = itemOnto(p, v, e.Path[i+1], ct, &meta, room); !ok {
				return false
			}
			t, i = ct.Item(), i+1
		} else if !last && !v.IsMap() {
			v = value.Null // (below, the collation takes p's maps without live, as the repeat's did)
		}
	}
	if n := len(e.Path); n > 0 && e.Path[n-1].Kind == fieldpath.FieldElement && (unknownMapDirective(e, p) ||
		itemDirected(e, p, v) || listDirsRefused(e, parent, e.Path[n-1].Field, pt, kubectl)) {
		return true
	}
	return malformedMap(e, p, t, kubectl)
}

// itemOnto returns the item of patch list pl (at a field of type t, metadata meta) that key step names, and lv's item
// of its key (null for none; lv is live's value there), where a collation with lv as live reaches that item's map
// without another error, as the repeat's collation without live did: t a list merged by one key (no merge rule, no
// strategy retainKeys, not a set of maps), lv a list or none; each item of pl a map holding the key as a scalar (not
// null) and no "$patch" but items deleting a key no other item names (deletedApart; collate's matchKeyed reads each
// item's key and "$patch", and live's items, before any item's map); the item the first of its key; where lv is a list, the items before it plain keyed maps merging onto
// lv's without error (plainKeyedOnto, within room levels from the list's: collate's keyedMembers builds the patch's
// items in its order, the first of each key, before live's others). Items and keys match as the error's path names them.
func itemOnto(pl, lv value.Value, step fieldpath.Element, t *openapi.Type, meta *openapi.Meta,
	room int) (value.Value, value.Value, bool) {
	key := soleMergeKey(meta)
	if key == "" || meta.Rule != nil || meta.Strategy.Has(openapi.StrategyRetainKeys) || !elements.MergedList(t, meta) ||
		elements.SetOfMaps(t, meta) || !pl.IsList() || !(lv.IsList() || lv.IsNull()) {
		return value.Value{}, value.Value{}, false
	}
	names := func(it value.Value) bool {
		return fieldpath.Path{step}.Equal(fieldpath.Path{fieldpath.Key(elements.KeyFields(it, meta.MergeKey, t.Item()))})
	}
	deleting := func(it value.Value) bool { d, _ := smp.MapDirective(it); return d == smp.DeleteValue && it.Len() == 2 }
	for _, it := range pl.Items() {
		k, keyed := it.Get(key)
		if _, directed := it.Get(smp.DirectiveKey); !it.IsMap() || !keyed || !k.IsScalar() || k.IsNull() ||
			(directed && !deleting(it)) {
			return value.Value{}, value.Value{}, false
		}
	}
	at := slices.IndexFunc(pl.Items(), func(it value.Value) bool { return names(it) && !deleting(it) })
	if _, apart := deletedApart(pl, key, t.Item()); at < 0 || !apart || (lv.IsList() && !plainKeyedOnto(value.List(pl.Items()[:at]), lv, t, meta, room)) {
		return value.Value{}, value.Value{}, false
	}
	if i := slices.IndexFunc(lv.Items(), names); i >= 0 {
		return pl.Items()[at], lv.Items()[i], true
	}
	return pl.Items()[at], value.Null, true
}

// unknownMapDirective reports whether error e is the collation's of patch map p holding "$patch" of an unknown value
// (smp.UnknownDirective), which it reads before anything else of p and of live's value there.
func unknownMapDirective(e *elements.Error, p value.Value) bool {
	_, directed := smp.MapDirective(p)
	return directed && smp.IsUnknownDirective(e.Msg)
}

// itemDirected reports whether error e is the collation's of patch list p, merged by key, at its first item holding
// "$patch" of another value than "delete" or "replace" (format.ReadItem; collate reads the patch's items, each on its
// own, before live's), where lv, live's value there, is no list or a list of maps (whose class, a list of maps, the
// collation checks first, as of the patch's items).
func itemDirected(e *elements.Error, p, lv value.Value) bool {
	if !p.IsList() || (lv.IsList() && slices.ContainsFunc(lv.Items(), func(it value.Value) bool { return !it.IsMap() })) {
		return false
	}
	i := slices.IndexFunc(p.Items(), func(it value.Value) bool {
		d, directed := smp.MapDirective(it)
		return directed && d != smp.DeleteValue && d != smp.ReplaceValue
	})
	return i >= 0 && strings.HasPrefix(e.Msg, "item "+strconv.Itoa(i)+": ")
}

// allFields, as fitsBefore's name, stands after every field: a key holding valid UTF-8 does not start with 0xff.
const allFields = "\xff"

// fitsBefore reports whether a collation of patch map p (of type t, holding no "$" key) with v's map as live, where the
// repeat's collation without live built p, builds p's fields before name (by name) and v's without error, no merge rule
// naming one of them: a scalar or a null; a value v lacks, or a map where v holds another kind, collated without live
// as the repeat's collation did, holding no "$" key at any depth (where a repeat's collation and another part:
// collate's leftEmptyOrder, kubectlOrdered); a list the schema merges by no strategy, the patch's whole whatever v
// holds, cleaned of its "$" keys and "$patch" maps as the repeat's collation cleaned it where v holds a list there or
// nothing (else holding none); a list merged by key onto v's list, both of plain keyed maps (plainKeyedOnto); a "$patch: delete"
// map, a "$patch: replace" map nesting within room levels or where v lacks the field, a "$patch: merge" map where v
// lacks it (directedMapAlone); a map onto v's map in turn (an object merged field by field, holding no "$" key), all
// its fields so, where v's fields there lie within the depth limit: p's map holds a field, which the repeat's
// collation checked at that level, or v's none, or they lie within room levels below p's fields (room: the levels from
// p's fields the limit lets through, p's fields one; at least those down to the error's value, which the repeat's
// collation reached within the limit).
func fitsBefore(name string, p, v value.Value, t *openapi.Type, room int) bool {
	for _, f := range v.Fields() {
		if _, meta := t.Child(f.Key); f.Key < name && meta.Rule != nil {
			return false
		}
	}
	for _, f := range p.Fields() {
		if f.Key >= name {
			continue
		}
		ct, meta := t.Child(f.Key)
		lv, held := v.Get(f.Key)
		switch {
		case meta.Rule != nil:
			return false
		case !(f.Value.IsMap() || f.Value.IsList()):
		case (!held || (f.Value.IsMap() && !lv.IsMap())) && !holdsDirective(f.Value):
		case f.Value.IsList() && ct != nil && ct.Kind == openapi.KindList && !elements.MergedList(ct, &meta) &&
			(!holdsDirective(f.Value) || !held || lv.IsList()):
		case f.Value.IsList() && plainKeyedOnto(f.Value, lv, ct, &meta, room):
		case directedMapAlone(f.Value, lv, held, ct, &meta, room):
		case f.Value.IsMap() && (f.Value.Len() > 0 || lv.Len() == 0 || room > 1) && fieldByField(ct, &meta) &&
			!slices.ContainsFunc(f.Value.Fields(), dollarKeyed) && fitsBefore(allFields, f.Value, lv, ct, room-1):
		default:
			return false
		}
	}
	return true
}
