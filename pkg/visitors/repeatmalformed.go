package visitors

import (
	"slices"
	"strings"

	"github.com/plyproject/ply/internal/smp"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/fieldpath"
	"github.com/plyproject/ply/pkg/value"
)

// malformedMap reports whether error e is the one collate's format.ReadMap gives reading patch map p (of type t) for
// its directive keys whatever live holds there (smp.MalformedMap, the read ReadMap makes): ReadMap reads p's "$" keys
// the type does not declare before anything below p, and those failures read p alone.
func malformedMap(e *elements.Error, p value.Value, t *openapi.Type, kubectl bool) bool {
	msg := smp.MalformedMap(p, t, kubectl)
	return msg != "" && msg == e.Msg
}

// directivesAfter reports whether the "$" keys of patch map pm (of type t), a map on the path a collation with v's map
// as live takes down to an erring value at its field name (last: the erring value itself), leave that path as the
// repeat's collation without live took it: none but "$setElementOrder/<f>" and "$deleteFromPrimitiveList/<f>" lists
// (format.ReadMap reads them alike whatever live holds; a deletion not a list reads live's field) of fields after name
// (their nodes built after it), or, where name is the erring value, of name itself where v holds no other kind than a
// list there (the collation refuses an order of live's other kind before it checks the directives), or of fields
// before name that v's map lacks (read there as without live, where they built), or orders of fields before name that
// v holds, lists merged by key an order reads without error (orderedKeyedOnto, within room levels from the list's);
// each order of a field t declares as a list strategicpatch's look-up finds (collate's orderOfNoField checks those
// onto live's map before any field).
func directivesAfter(pm value.Value, t *openapi.Type, name string, last bool, v value.Value, room int) bool {
	for _, f := range pm.Fields() {
		if !strings.HasPrefix(f.Key, "$") || t.Field(f.Key) != nil {
			continue
		}
		order, ordered := strings.CutPrefix(f.Key, smp.SetOrderPrefix)
		field, deletes := strings.CutPrefix(f.Key, smp.DeletePrefix)
		if ordered {
			field = order
		}
		lf, held := v.Get(name)
		_, holds := v.Get(field)
		switch {
		case !(ordered || deletes) || !f.Value.IsList():
			return false
		case ordered && (t.Kind == openapi.KindStruct || t.Kind == openapi.KindMap) &&
			(t.Field(field) == nil || t.Field(field).NotAList != ""):
			return false
		case field > name:
		case field < name && ((!holds && (deletes || nonEmptyOrder(pm, field))) ||
			(holds && ordered && orderedKeyedOnto(pm, field, t, v, room))):
		case field < name || !last || (ordered && held && !lf.IsList()):
			return false
		}
	}
	return true
}

// orderedKeyedOnto reports whether patch map pm's "$setElementOrder/<field>" (a list), where v's map holds field, orders
// it without error: field a list merged by one merge key, the patch's list (pm's field, a list, or none) merging onto
// live's (plainKeyedOnto, within room levels from the list's), one of the two holding items. Where pm sets field, the
// repeat's collation without live read the order's entries against the patch's list; where it does not, that
// collation had no list to order, and here each entry is a map holding the merge key alone as a scalar, no two alike.
func orderedKeyedOnto(pm value.Value, field string, t *openapi.Type, v value.Value, room int) bool {
	pl, sets := pm.Get(field)
	order, _ := pm.Get(smp.SetOrderPrefix + field)
	lv, _ := v.Get(field)
	ct, meta := t.Child(field)
	if !sets {
		pl = value.List(nil)
		if !distinctKeyEntries(order, soleMergeKey(&meta)) {
			return false
		}
	}
	return pl.IsList() && ct != nil && pl.Len()+lv.Len() > 0 && plainKeyedOnto(pl, lv, ct, &meta, room)
}

// nonEmptyOrder reports whether patch map pm's "$setElementOrder/<field>" names items and pm sets field to a list with
// items or not at all: a merged list the repeat holds empty and orders, or orders empty, its collation without live
// leaves to the outcome's list (emptyOrdersHeld), which fails where the outcome lacks one.
func nonEmptyOrder(pm value.Value, field string) bool {
	order, _ := pm.Get(smp.SetOrderPrefix + field)
	pl, sets := pm.Get(field)
	return order.Len() > 0 && (!sets || (pl.IsList() && pl.Len() > 0))
}

// distinctKeyEntries reports whether each entry of order is a map holding key alone as a scalar, not null, no two
// entries naming the same value.
func distinctKeyEntries(order value.Value, key string) bool {
	entries := order.Items()
	for i, e := range entries {
		k, keyed := e.Get(key)
		if key == "" || !e.IsMap() || e.Len() != 1 || !keyed || !k.IsScalar() || k.IsNull() ||
			slices.ContainsFunc(entries[:i], func(o value.Value) bool { ok, _ := o.Get(key); return value.Equal(ok, k) }) {
			return false
		}
	}
	return true
}

// withoutDollars returns patch map pm less its "$" keys.
func withoutDollars(pm value.Value) value.Value {
	for _, f := range pm.Fields() {
		if strings.HasPrefix(f.Key, "$") {
			pm = pm.Without(f.Key)
		}
	}
	return pm
}

// listDirsRefused reports whether error e is the one collate's format.CheckDirs gives for field name of patch map pm
// (of type pt) whatever live holds there: the values its "$deleteFromPrimitiveList/<name>" deletes not of one class
// (read before anything of live's); where pm sets name, its "$setElementOrder/<name>" refused for the patch's value or
// the schema's (smp.OrderOfPatch, OrderOfOtherKind; OrderOfUnmerged for a list of no schema, or merged by no strategy
// where gate MultiFieldMergeKeys is on, kubectl false, or the order or the patch's list is one strategicpatch cannot
// order whatever live holds: unorderedPatch; else collate's kubectlOrdered orders it as live's list tells it). The
// directives then read the patch's value alone, but for an empty list's order, which live's items decide.
func listDirsRefused(e *elements.Error, pm value.Value, name string, pt *openapi.Type, kubectl bool) bool {
	if del, deletes := pm.Get(smp.DeletePrefix + name); deletes && del.IsList() {
		if _, msg := smp.ItemClass(del.Items()); msg != "" {
			return e.Msg == smp.DeletePrefix+name+": "+msg
		}
	}
	set, sets := pm.Get(name)
	order, ordered := pm.Get(smp.SetOrderPrefix + name)
	if !sets || !ordered {
		return false
	}
	switch t, meta := pt.Child(name); {
	case !set.IsList():
		return e.Msg == smp.OrderOfPatch(name, set.Kind())
	case elements.MergedList(t, &meta):
		return false
	case t.Kind == openapi.KindList:
		return e.Msg == smp.OrderOfUnmerged(name) && (!kubectl || unorderedPatch(set, order))
	case t.Kind == openapi.KindUnknown:
		return e.Msg == smp.OrderOfUnmerged(name)
	default:
		return e.Msg == smp.OrderOfOtherKind(name, elements.KindPhrase(t))
	}
}

// plainKeyedOnto reports whether patch list pl, at a field of type t and metadata meta, merges onto lv, live's list
// there, without error: t a list merged by one merge key (not a set of maps), pl's items and lv's plain keyed maps
// (plainKeyed), pl's besides items deleting a key (deletedApart). Each patch item merges into live's of its key, or is
// appended, a later item of a key kept for Phase 2; a deleting item drops live's of its key, if any. The depth limit
// lets through room levels from the list's (its items one level below, their fields two): live's items nest no deeper
// than pl's, which the repeat's collation built, or than the limit lets through.
func plainKeyedOnto(pl, lv value.Value, t *openapi.Type, meta *openapi.Meta, room int) bool {
	key := soleMergeKey(meta)
	if key == "" || meta.Rule != nil || !elements.MergedList(t, meta) || elements.SetOfMaps(t, meta) || !lv.IsList() {
		return false
	}
	data, apart := deletedApart(pl, key, t.Item())
	if !apart {
		return false
	}
	built, okPatch := plainKeyed(data, key, t.Item())
	held, okLive := plainKeyed(lv, key, t.Item())
	return okPatch && okLive && (held <= built || held < room)
}

// deletedApart returns patch list pl (of item type t) less its items deleting a key: maps holding "$patch: delete" and
// key as a scalar (not null), nothing else, which collate's format.ReadItem reads alone; apart is false where such an
// item's key is another item's too, or t declares "$patch".
func deletedApart(pl value.Value, key string, t *openapi.Type) (data value.Value, apart bool) {
	deletes := func(it value.Value) bool {
		d, directed := smp.MapDirective(it)
		k, keyed := it.Get(key)
		return directed && d == smp.DeleteValue && keyed && k.IsScalar() && !k.IsNull() && it.Len() == 2
	}
	if !slices.ContainsFunc(pl.Items(), deletes) {
		return pl, true
	}
	if t.Field(smp.DirectiveKey) != nil {
		return value.Value{}, false
	}
	var kept []value.Value
	for i, it := range pl.Items() {
		if !deletes(it) {
			kept = append(kept, it)
			continue
		}
		k, _ := it.Get(key)
		for j, other := range pl.Items() {
			if ok, keyed := other.Get(key); j != i && keyed && value.Equal(ok, k) {
				return value.Value{}, false
			}
		}
	}
	return value.List(kept), true
}

// plainKeyed reports whether each item of list l (of item type t) is a map holding key as a scalar (not null), its
// other fields plain trees (elements.PlainTree: scalars, nulls, maps of such), and how many levels its items nest (an
// item of scalars: 2; none: 0).
func plainKeyed(l value.Value, key string, t *openapi.Type) (int, bool) {
	levels := 0
	for _, it := range l.Items() {
		if k, keyed := it.Get(key); !it.IsMap() || !keyed || !k.IsScalar() || k.IsNull() {
			return 0, false
		}
		for _, f := range it.Fields() {
			if strings.HasPrefix(f.Key, "$") || !elements.PlainTree(f.Value, t, f.Key, -1) {
				return 0, false
			}
		}
		levels = max(levels, nesting(it))
	}
	return levels, true
}

// nesting is how many levels plain tree v nests: a scalar, a null or an empty map 1, a map one more than its fields.
func nesting(v value.Value) int {
	n := 0
	for _, f := range v.Fields() {
		n = max(n, nesting(f.Value))
	}
	return n + 1
}

// unorderedPatch reports whether strategicpatch's order of a list merged by no strategy fails whatever live holds there
// (collate's kubectlOrdered refuses it): an entry of order is a map or a list, or the patch's list pl holds items that
// are not scalars of one class (an object, a list, a null, two classes), which live's items cannot make so.
func unorderedPatch(pl, order value.Value) bool {
	if slices.ContainsFunc(order.Items(), func(e value.Value) bool { return e.IsMap() || e.IsList() }) {
		return true
	}
	return pl.Len() > 0 && !smp.ScalarsOfOneClass(nil, pl.Items())
}

// directedMapAlone reports whether patch value pv, at a field of type t (an object merged field by field, metadata
// meta) room levels from the erring value (the field itself: 1), where live holds lv (held: any value), is a map
// holding "$patch" that collate's format.ReadMap reads alone, whatever else the map holds, and that a collation builds
// without error: "delete" whatever live holds (an empty map or, with gate PatchDeleteRemovesMap, none where live holds
// a map; nothing elsewhere); "replace" or "merge" where live lacks the field (the map dropped, as the repeat's
// collation without live dropped it); "replace" where live holds a map and pv nests maps and lists no more than room
// levels, itself one (the map's data taken whole, cleaned, its maps and lists checked against the depth limit, which
// the erring value's level met).
func directedMapAlone(pv, lv value.Value, held bool, t *openapi.Type, meta *openapi.Meta, room int) bool {
	d, directed := smp.MapDirective(pv)
	if !directed || t.Field(smp.DirectiveKey) != nil || !fieldByField(t, meta) {
		return false
	}
	switch d {
	case smp.DeleteValue:
		return true
	case smp.ReplaceValue:
		return !held || (lv.IsMap() && levels(pv) <= room)
	case smp.MergeValue:
		return !held
	}
	return false
}

// levels is how many levels of maps and lists v nests: a scalar or a null 0, a map or a list one more than its deepest
// field or item.
func levels(v value.Value) int {
	n := 0
	for _, f := range v.Fields() {
		n = max(n, levels(f.Value))
	}
	for _, it := range v.Items() {
		n = max(n, levels(it))
	}
	if v.IsMap() || v.IsList() {
		n++
	}
	return n
}

// mergeDirectedBefore returns the error a collation of apply mode's repeat r's patch item p (of type t) with v, its
// key's outcome, as live gives first where r's own collation failed (Err, no Element) at a field of p after (by name)
// one holding a map of "$patch: merge" that v holds a map for (an object merged field by field): without live, that
// map was dropped; onto v's map, collate's format.ReadMap refuses the directive (mergeDirective), at that field,
// which a collation with v reaches where p's fields before it fit (fitsBefore, within the levels the depth limit lets
// through, Repeat.ErrRoom, or r's collation reached) and p's "$" keys are orders and deletions of fields after it
// (directivesAfter). Nil elsewhere.
func mergeDirectedBefore(r elements.Repeat, p value.Value, t *openapi.Type, v value.Value) error {
	e, ok := r.Err.(*elements.Error)
	if r.Element != nil || !ok || len(e.Path) == 0 || e.Path[0].Kind != fieldpath.FieldElement || !p.IsMap() ||
		!v.IsMap() {
		return nil
	}
	for _, f := range p.Fields() {
		if f.Key >= e.Path[0].Field {
			return nil
		}
		d, directed := smp.MapDirective(f.Value)
		lv, _ := v.Get(f.Key)
		ct, meta := t.Child(f.Key)
		if strings.HasPrefix(f.Key, "$") || !directed || d != smp.MergeValue || !lv.IsMap() ||
			ct.Field(smp.DirectiveKey) != nil || !fieldByField(ct, &meta) {
			continue
		}
		room := max(len(e.Path), r.ErrRoom)
		if !directivesAfter(p, t, f.Key, false, v, room) || !fitsBefore(f.Key, withoutDollars(p), v, t, room) {
			return nil
		}
		return &elements.Error{Source: elements.Patch, Path: fieldpath.Path{fieldpath.Field(f.Key)}, Msg: mergeDirective}
	}
	return nil
}

// deletionBesideSet returns the error a collation of apply mode's repeat item p (of type t) with v, its key's outcome,
// as live gives first where v is a map, gate MultiFieldMergeKeys off (kubectl): format.ReadMap reads p's map before
// anything below it, and where its directive keys read without error (smp.ReadMapDirectives), a
// "$deleteFromPrimitiveList/<f>" not a list among them, read as strategicpatch's merge reads it (as the field f), of a
// field p sets too fails there whatever v holds at f (smp.DeletionBesideSet). The repeat's own collation, without
// live, read no such key so. Nil elsewhere, and where p holds a "$patch" directive (read alone).
func deletionBesideSet(p value.Value, t *openapi.Type, v value.Value, kubectl bool) error {
	_, directed := p.Get(smp.DirectiveKey)
	if !kubectl || !p.IsMap() || !v.IsMap() || (directed && smp.Directive(t, smp.DirectiveKey)) {
		return nil
	}
	if r, msg := smp.ReadMapDirectives(p.Fields(), t, false, true); msg != "" || !r.ReadsLive {
		return nil
	}
	if msg := smp.DeletionBesideSet(p, t); msg != "" {
		return &elements.Error{Source: elements.Patch, Msg: msg}
	}
	return nil
}
