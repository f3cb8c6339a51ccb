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
// "$patch" of its item p (of type t) that no merge takes, reached from p through maps (the error's path all fields),
// fails so applied to v, a map: at a map holding "$patch" of an unknown value (unknownMapDirective), or at a list
// merged by key at its first item holding "$patch" of another value than "delete" or "replace" (itemDirected). A
// collation with v as live reaches that map or list without another error where, at each step of the path, that
// step's map of p holds no "$" key, the step's field is an object merged field by field (fieldByField; its last, the
// erring value, any but one a merge rule names), and the fields before it by name build without error (fitsBefore,
// v's value there taken as none where v holds no map at a step above); there it reads that "$patch" first whatever v
// holds (collate's format.ReadMap, format.ReadItem). strategicpatch refuses either where v holds maps down to it, a
// list there (handleDirectiveInMergeMap, mergeSliceWithSpecialElements), and copies it where v lacks one
// (docs/strategicpatch.md, "What stays different").
func refusedDirectiveOnto(r elements.Repeat, p value.Value, t *openapi.Type, v value.Value) bool {
	e, ok := r.Err.(*elements.Error)
	if r.Element != nil || !ok || len(e.Path) == 0 || !v.IsMap() {
		return false
	}
	for i, step := range e.Path {
		if step.Kind != fieldpath.FieldElement || !p.IsMap() || slices.ContainsFunc(p.Fields(), dollarKeyed) ||
			!fitsBefore(step.Field, p, v, t, len(e.Path)-i) {
			return false
		}
		ct, meta := t.Child(step.Field)
		if meta.Rule != nil || (i < len(e.Path)-1 && !fieldByField(ct, &meta)) {
			return false
		}
		p, _ = p.Get(step.Field)
		if v, _ = v.Get(step.Field); i < len(e.Path)-1 && !v.IsMap() {
			v = value.Null // (below, the collation takes p's maps without live, as the repeat's did)
		}
		t = ct
	}
	return unknownMapDirective(e, p) || itemDirected(e, p, v)
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
// as the repeat's collation did, and a list the schema merges by no strategy, the patch's whole whatever v holds, each
// holding no "$" key at any depth (where a repeat's collation and another part: collate's leftEmptyOrder,
// kubectlOrdered); a map onto v's map in turn (an object merged field by field, holding no "$" key), all its fields
// so, where v's fields there lie within the depth limit: p's map holds a field, which the repeat's collation checked
// at that level, or v's none, or they lie within room levels below p's fields (room: the levels from p's fields to the
// error's value, which the repeat's collation reached within the limit).
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
			!holdsDirective(f.Value):
		case f.Value.IsMap() && (f.Value.Len() > 0 || lv.Len() == 0 || room > 1) && fieldByField(ct, &meta) &&
			!slices.ContainsFunc(f.Value.Fields(), dollarKeyed) && fitsBefore(allFields, f.Value, lv, ct, room-1):
		default:
			return false
		}
	}
	return true
}
