package visitors

import (
	"strings"

	"github.com/plyproject/ply/internal/smp"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/fieldpath"
	"github.com/plyproject/ply/pkg/value"
)

// sortedOntoLacking returns the outcome of Repeat r, outside compose mode (gate MultiFieldMergeKeys off: repeat.go's
// switch), of patch item p (a map of type t) merged into v, its key's outcome, where Phase 1 refused, without an
// outcome, a "$setElementOrder" of a list p sets that the schema merges by no strategy for what that outcome's list
// decides (r.Err the refusal, smp.OrderOfUnmerged, no Element: an empty order beside items, a
// "$deleteFromPrimitiveList" beside the list, or an order the list does not follow; collate's kubectlOrdered), or
// collated p without error (Element, where repeat.go's earlier cases do not merge it). strategicpatch's mergeMap
// applies p to v in two steps, each touching its own fields of v, which sortedOntoLacking follows where it holds:
//   - each list p orders by "$setElementOrder" (a list of scalars; the field a list of scalars the schema merges by no
//     strategy, without merge rule) is decided first (unmergedOrderOnto): p's list sorted by the order, v's list there
//     ordered by it where p leaves it out (under kubectl's order: kubectl), then less the values a
//     "$deleteFromPrimitiveList" beside it deletes;
//   - then p's other fields (none of a merge rule or named by a "$deleteFromPrimitiveList" of p), each either a null,
//     which deletes v's field, a scalar at a field the schema types as a scalar or not at all (scalarField) over v's
//     scalar or nothing, set so, or, where p's values lie within the depth limit (not r.Deep; collated without error,
//     r.Deep's maps without fields at the limit), a list of scalars the schema merges by no strategy over v's list or
//     nothing, taken as it stands, a map at a field the schema types as an object of no strategy replace over v's
//     map or nothing, merged into it so field by field (mapOnto; under kubectl's order, its merged lists as below,
//     a "$setElementOrder" of one in a map v holds as mergedOrderOnto decides it),
//     or, under kubectl's order, a list the schema merges by one key or as a set, merged into v's as mergeSlice
//     merges it (mergedListOnto, repeatmerged.go: its items' nulls, maps and merged lists merged in turn);
//   - a merged list p orders by "$setElementOrder" is decided in the first step too, beside those lists
//     (mergedOrderOnto), where p's values lie within the depth limit, under kubectl's order.
//
// p's "$retainKeys" clears the fields of v it does not name before either step (retainedOnto, repeatdirected.go), and
// a "$deleteFromPrimitiveList/<f>" of a list p neither sets nor orders deletes from v's list there (deletedOnto), one
// beside a set p sets (under kubectl's order, within the depth limit) from the set merged (deletedBesideOnto); the
// same holds in the maps mapOnto merges into maps v holds. A field p (or such a map) sets where v holds a value of
// another kind (a null, a scalar, a map, a list: otherKind) is merged as where v lacks it. A map of p (or of such a
// map) holding "$patch: delete", whatever else it holds, where v holds a map is an empty map, or with removes (gate
// PatchDeleteRemovesMap) the field removed (deletedMap, deletesMap). A "$" key the collation ignores
// (ignoredDirective) is dropped, in p or its maps; p holds no other "$" key. Where strategicpatch fails on one
// list p orders and unmergedOrderFailure (a list merged by no strategy) or mergedOrderFailure (a keyed list; under
// kubectl's order) gives the error the collation with v as live gives there (p's values within the depth limit), err
// is that error; so too where p's map at a field v holds a map for holds a "$retainKeys" both refuse, or orders a
// merged list neither holds items of (mapFailure). Where several fail so, the collation's error is the first's by
// name, as it walks p's fields (firstByName). ok is false elsewhere (strategicpatch failing otherwise, or a shape not
// read here).
func sortedOntoLacking(r elements.Repeat, p value.Value, t *openapi.Type, v value.Value, kubectl, removes bool) (out value.Value, err error, ok bool) {
	e, refused := r.Err.(*elements.Error)
	byOutcome := refused && r.Element == nil && len(e.Path) == 1 && e.Msg == smp.OrderOfUnmerged(e.Path[0].Field)
	if !(byOutcome || (r.Err == nil && r.Element != nil)) || !p.IsMap() || !v.IsMap() {
		return value.Value{}, nil, false
	}
	if out, ok = retainedOnto(p, v); !ok {
		return value.Value{}, nil, false
	}
	var failed *elements.Error // (the one list strategicpatch fails on: the collation's error there)
	for _, f := range p.Fields() {
		name, ordering := strings.CutPrefix(f.Key, smp.SetOrderPrefix)
		if list, deleting := strings.CutPrefix(f.Key, smp.DeletePrefix); deleting {
			if _, ordered := p.Get(smp.SetOrderPrefix + list); ordered || (kubectl && !r.Deep && deletesBeside(p, list)) {
				continue // (read with the order of its list, or with its list: deletedBesideOnto)
			}
			lv, held := out.Get(list)
			if e := deletedFailure(p, t, list, lv, held); e != nil {
				failed = firstByName(failed, e) // (the collation refuses the values' class there)
			} else if out, ok = deletedField(p, t, out, list); !ok {
				return value.Value{}, nil, false
			}
			continue
		} else if f.Key == smp.RetainKeysKey || ignoredDirective(t, f.Key) {
			continue // (applied first: retainedOnto; or one the collation ignores)
		}
		lv, held := out.Get(name)
		if ordering {
			list, present, failure, decided := orderedListOnto(p, t, name, lv, held, r.Deep, r.ErrRoom >= 2, kubectl, deletedRuleOf(removes))
			if !decided {
				return value.Value{}, nil, false
			}
			failed = firstByName(failed, failure)
			out = withField(out, name, list, present)
			continue
		}
		if _, ordered := p.Get(smp.SetOrderPrefix + f.Key); ordered {
			continue // (decided with its order)
		} else if failure := mapFailure(t, f, lv, held, r.Deep, kubectl); failure != nil {
			failed = firstByName(failed, failure)
			continue
		}
		var merged value.Value
		var present, decided bool
		if kubectl && !r.Deep && deletesBeside(p, f.Key) {
			merged, present, decided = deletedBesideOnto(p, t, f.Key, lv, held, false)
		} else if deletedMap(t, f, lv, held) {
			merged, present, decided = value.MustMap(), !removes, true // (an empty map; with the gate, none)
		} else {
			merged, present, decided = fieldOnto(p, t, f, lv, held, r.Deep, kubectl, deletedRuleOf(removes))
		}
		if !decided {
			return value.Value{}, nil, false
		}
		out = withField(out, f.Key, merged, present)
	}
	if failed != nil {
		return value.Value{}, failed, true
	}
	return out, nil, true
}

// orderedListOnto returns list field name of patch map p (type t), which p orders by "$setElementOrder", merged into
// lv, the outcome's field there (held: present), as sortedOntoLacking decides it: a list the schema merges as
// mergedOrderOnto decides it (under kubectl's order, and p's values within the depth limit: not deep; its items'
// "$patch: delete" maps as del says), another as
// unmergedOrderOnto does. Where neither decides it, failure is the error a collation with the outcome as live gives
// there (mergedOrderFailure; unmergedOrderFailure, not deep or, where the list's items lie within the limit (roomy:
// two levels below p) and the patch's list and the outcome's hold scalars alone, deep too: scalarLists; nullOrdered,
// not deep, where the outcome holds a null there) and present is false. ok is false where the list is neither decided nor known to fail, and where a
// "$deleteFromPrimitiveList" beside the order deletes values the collation refuses (refusedValues).
func orderedListOnto(p value.Value, t *openapi.Type, name string, lv value.Value, held, deep, roomy, kubectl bool, del deletedRule) (list value.Value, present bool, failure *elements.Error, ok bool) {
	if deleted, deletes := p.Get(smp.DeletePrefix + name); deletes && refusedValues("", deleted.Items()) != "" {
		return value.Value{}, false, nil, false // (the collation refuses the values deleted beside it first)
	} else if failure = nullOrdered(p, t, name, lv, held); failure != nil && !deep {
		return value.Value{}, false, failure, true
	} else if ft, meta := t.Child(name); elements.MergedList(ft, &meta) {
		if deep || !kubectl {
			return value.Value{}, false, nil, false
		} else if failure = orderWithoutItems(p, t, name, lv, held); failure != nil {
			return value.Value{}, false, failure, true
		}
		if list, present, ok = mergedOrderOnto(p, t, name, lv, held, del); ok {
			return list, present, nil, true
		}
		failure = mergedOrderFailure(p, t, name, lv, held)
	} else {
		if list, present, ok = unmergedOrderOnto(p, t, name, lv, held, kubectl); ok {
			return list, present, nil, true
		} else if deep && !(roomy && scalarLists(p, name, lv, held)) {
			return value.Value{}, false, nil, false
		}
		failure = unmergedOrderFailure(p, t, name, lv, held)
	}
	return value.Value{}, false, failure, failure != nil
}

// fieldOnto returns field f of patch map p (type t), not one p orders, merged into lv, the outcome's field there
// (held: present), as strategicpatch's mergeMap merges it where that is decided here (sortedOntoLacking): present is
// false where the outcome lacks the field after. deep says p's values may reach the depth limit: then only scalars
// and nulls are decided; kubectl says merged lists are ordered as kubectl orders them (else merged lists are not).
// ok is false for a "$" key, a field of a merge rule, or a list a "$deleteFromPrimitiveList" of p names.
func fieldOnto(p value.Value, t *openapi.Type, f value.Field, lv value.Value, held, deep, kubectl bool, del deletedRule) (out value.Value, present, ok bool) {
	ft, meta := t.Child(f.Key)
	if _, deletes := p.Get(smp.DeletePrefix + f.Key); deletes || strings.HasPrefix(f.Key, "$") || meta.Rule != nil {
		return value.Value{}, false, false
	} else if !deep && undeclaredOver(t, f, lv, held) {
		_, directed := f.Value.Get(smp.DirectiveKey) // (mergeMap replaces it so, its kind differing or v lacking it)
		return cleanedWhole(f.Value), !(f.Value.IsMap() && directed), true
	}
	return valueOnto(ft, &meta, f.Value, lv, held, deep, kubectl, del)
}

// valueOnto returns pv, a patch map's value at a field of type t (metadata meta) that no directive and no merge rule
// decides, merged into lv, the outcome's field there (held: present), as strategicpatch's mergeMap merges it; lv of
// another kind is merged onto as nothing (otherKind). A null deletes the field; a scalar at a field the schema types as
// a scalar (scalarField) is set; then, unless deep (p's values may reach the depth limit), a list of scalars merged by
// no strategy (unmergedScalars) over a list is set, a map of an object field (fieldByField) over a map is merged into
// it field by field (mapOnto), over nothing dropped where it holds "$patch: replace" or "delete" (replacesOrDeletes),
// over a map taken less the directive, cleaned as the collation takes a value whole (cleanedWhole; strategicpatch takes
// it as it stands), where it holds "$patch: replace" (replacesMap), over a map an empty map, or the field removed,
// where it holds "$patch: delete" (deletesMap, as del says: not decided where deleteUnknown), and, with lists (under
// kubectl's order), a merged list is merged as mergeSlice merges it (listOnto). ok is false elsewhere.
func valueOnto(t *openapi.Type, meta *openapi.Meta, pv, lv value.Value, held, deep, lists bool, del deletedRule) (out value.Value, present, ok bool) {
	if otherKind(lv, held, pv) {
		lv, held = value.Value{}, false // (taken as onto nothing)
	}
	switch {
	case pv.IsNull():
		return value.Value{}, false, true // (a null deletes the field, held or not)
	case scalarField(t) && pv.IsScalar() && (!held || lv.IsScalar()):
		return pv, true, true
	case deep:
		return value.Value{}, false, false
	case pv.IsList() && unmergedScalars(t, meta, pv) && (!held || lv.IsList()):
		return pv, true, true // (replaced, as the patch holds it)
	case pv.IsMap() && fieldByField(t, meta) && !held && replacesOrDeletes(pv):
		return value.Value{}, false, true // (mergeMap's removeDirectives drops it)
	case pv.IsMap() && fieldByField(t, meta) && lv.IsMap() && del != deleteUnknown && deletesMap(pv):
		return value.MustMap(), del == deleteEmpties, true // (handleDirectiveInMergeMap: an empty map; the gate: none)
	case pv.IsMap() && fieldByField(t, meta) && lv.IsMap() && replacesMap(pv):
		return cleanedWhole(pv.Without(smp.DirectiveKey)), true, true // (handleDirectiveInMergeMap: the patch's map)
	case pv.IsMap() && fieldByField(t, meta) && (!held || lv.IsMap()):
		m, merged := mapOnto(pv, lv, t, lists, del)
		return m, merged, merged
	case lists && pv.IsList() && elements.MergedList(t, meta):
		l, merged := listOnto(t, meta, pv, lv, held, del)
		return l, merged, merged
	}
	return value.Value{}, false, false
}

// scalarField reports whether the schema types a field as t types it as a scalar, or gives it no schema (an
// int-or-string, say): strategicpatch sets a scalar there over a scalar or nothing.
func scalarField(t *openapi.Type) bool {
	return t.Kind == openapi.KindPrimitive || t.Kind == openapi.KindUnknown
}

// unmergedScalars reports whether pv, a list at a field of type t (metadata meta), is one the schema merges by no
// strategy and no merge rule that holds scalars alone (none null): strategicpatch takes it as it stands, over a list
// or nothing.
func unmergedScalars(t *openapi.Type, meta *openapi.Meta, pv value.Value) bool {
	return t.Kind == openapi.KindList && t.Item().Kind == openapi.KindPrimitive && !elements.MergedList(t, meta) &&
		meta.Rule == nil && allScalars(pv.Items())
}

// fieldByField reports whether a map at a field of type t (metadata meta) merges field by field: the schema types it as
// an object (a struct or a map), of no strategy replace (strategicpatch's mergeMapHandler takes such a map whole) and
// no merge rule.
func fieldByField(t *openapi.Type, meta *openapi.Meta) bool {
	return (t.Kind == openapi.KindStruct || t.Kind == openapi.KindMap) && !meta.Strategy.Has(openapi.StrategyReplace) &&
		meta.Rule == nil
}

// mapOnto returns patch map pm (of type t) merged into lm, the outcome's map there (or nothing), as strategicpatch's
// mergeMap merges it (where the outcome lacks the map, it takes pm less its nulls, the same): a null deletes the field,
// a scalar at a field the schema types as a scalar over a scalar or nothing is set, a list of scalars merged by no
// strategy over a list or nothing replaces it, a map so merged in turn over a map or nothing (a "$patch: delete" map
// over a map as del says: valueOnto), and, with lists (under kubectl's order), a list the schema merges over a list or
// nothing merged as mergeSlice merges it (mergedListOnto, its items' maps and lists in turn), and, with lists, a merged
// list pm orders by "$setElementOrder" as mergePatchIntoOriginal decides it (orderedFieldOnto; where the outcome lacks
// the map, as the collation applies the order there, the list naming each value or key once: namedOnce); where the
// outcome holds the map, pm's "$retainKeys" clears its fields first (retainedOnto), and a
// "$deleteFromPrimitiveList/<f>" deletes from its list there (deletedOnto), with lists one beside a set pm sets from
// the set merged (deletedBesideOnto); where it lacks the map, a "$retainKeys" naming every field pm sets and a
// "$deleteFromPrimitiveList/<f>" of a list pm neither sets nor orders are dropped, as the collation drops them; a "$"
// key the collation ignores (ignoredDirective) is dropped. ok is false for any other field of pm (other "$" keys and
// fields of merge rules among them).
func mapOnto(pm, lm value.Value, t *openapi.Type, lists bool, del deletedRule) (out value.Value, ok bool) {
	if out = lm; !lm.IsMap() {
		out = value.MustMap()
	} else if out, ok = retainedOnto(pm, lm); !ok {
		return value.Value{}, false
	}
	for _, f := range pm.Fields() {
		ft, meta := t.Child(f.Key)
		_, ordered := pm.Get(smp.SetOrderPrefix + f.Key)
		list, deleting := strings.CutPrefix(f.Key, smp.DeletePrefix)
		switch {
		case lm.IsMap() && f.Key == smp.RetainKeysKey:
			continue // (applied first: retainedOnto)
		case f.Key == smp.RetainKeysKey:
			if _, ok = retainedOnto(pm, value.MustMap()); !ok {
				return value.Value{}, false // (one the collation refuses, or may)
			}
		case ignoredDirective(t, f.Key):
			continue
		case lists && deleting && deletesBeside(pm, list):
			continue // (read with its list)
		case deleting:
			if out, ok = deletedField(pm, t, out, list); !ok {
				return value.Value{}, false
			}
		case lists && deletesBeside(pm, f.Key):
			if out, ok = withDecided(out, f.Key, func(lv value.Value, held bool) (value.Value, bool, bool) {
				return deletedBesideOnto(pm, t, f.Key, lv, held, !lm.IsMap())
			}); !ok {
				return value.Value{}, false
			}
		case lists && strings.HasPrefix(f.Key, smp.SetOrderPrefix):
			if !lm.IsMap() && !namedOnce(pm, t, f.Key) {
				return value.Value{}, false // (the collation keeps such a list as it stands there)
			}
			if out, ok = orderedFieldOnto(pm, out, t, f.Key, del); !ok {
				return value.Value{}, false
			}
		case lists && ordered:
			continue // (decided with its order)
		case strings.HasPrefix(f.Key, "$") || meta.Rule != nil:
			return value.Value{}, false
		default:
			lv, held := out.Get(f.Key)
			v, present, merged := valueOnto(ft, &meta, f.Value, lv, held, false, lists, del)
			if !merged {
				return value.Value{}, false
			}
			out = withField(out, f.Key, v, present)
		}
	}
	return out, true
}

// unmergedOrderOnto returns list field name of patch map p (type t), which p orders by "$setElementOrder", merged into
// lv, the outcome's field there (held: present), as strategicpatch's mergePatchIntoOriginal and then, for a
// "$deleteFromPrimitiveList" beside it, mergeSlice decide it: the field a list of scalars the schema merges by no
// strategy and no merge rule, the order a list of scalars. Where p sets the list (non-empty, or empty over v's items),
// following the order (smp.FollowsOrder; any list follows an empty one), the list, its items and v's scalars of one
// class: sorted by the order (normalizeSliceOrder: smp.SortedBy), or, where the order is empty, every item an other, by
// v's list (every comparison true where v lacks it). Where p leaves it out and v holds scalars of one class there: v's
// items ordered by it (reordered), where kubectl says lists are ordered as kubectl orders them (under gate
// SeedOrdering's order the collation orders them otherwise). Where both lack it: absent (present false), the deletion
// not read. A "$deleteFromPrimitiveList" beside it, a list of scalars of the list's class or empty, then deletes its
// values (deleteFromSlice: smp.WithoutValues). ok is false elsewhere: strategicpatch fails there, or may.
func unmergedOrderOnto(p value.Value, t *openapi.Type, name string, lv value.Value, held, kubectl bool) (list value.Value, present, ok bool) {
	f := orderedFieldOf(p, t, name)
	ft, meta, order, pv, set, deleted, deletes := f.t, f.meta, f.order, f.list, f.set, f.deleted, f.deletes
	if ft.Kind != openapi.KindList || ft.Item().Kind != openapi.KindPrimitive || elements.MergedList(ft, &meta) ||
		meta.Rule != nil || !order.IsList() || !allScalars(order.Items()) || (deletes && !deleted.IsList()) ||
		(held && !lv.IsList()) || (set && !pv.IsList()) {
		return value.Value{}, false, false
	}
	switch {
	case !set && !held:
		return value.Value{}, false, true
	case !set:
		if !kubectl || !smp.ScalarsOfOneClass(lv.Items(), nil) {
			return value.Value{}, false, false
		}
		list = reordered(lv, order.Items(), "")
	case !smp.ScalarsOfOneClass(lv.Items(), pv.Items()) || !smp.FollowsOrder(pv.Items(), order.Items()):
		return value.Value{}, false, false
	case order.Len() == 0:
		list = smp.SortedBy(pv.Items(), lv.Items())
	default:
		list = smp.SortedBy(pv.Items(), order.Items())
	}
	if !deletes || (list.Len() == 0 && deleted.Len() == 0) {
		return list, true, true
	}
	if !smp.ScalarsOfOneClass(list.Items(), deleted.Items()) {
		return value.Value{}, false, false
	}
	return smp.WithoutValues(list, deleted.Items()), true, true
}

// unmergedOrderFailure returns the error a collation of patch map p (type t) with the outcome as live gives at list
// field name, which p orders by "$setElementOrder" and unmergedOrderOnto does not decide, lv the outcome's field there
// (held: present), where strategicpatch fails on it too (mergePatchIntoOriginal): the field a list of scalars the
// schema merges by no strategy and no merge rule, the order a list of scalars or nulls (a null naming no item), p's
// field a list or left out; where lv is another kind than a list (not null), or lv's items and p's there are not
// scalars of one class (none among them, too), the collation refuses the order (collate's kubectlOrdered:
// smp.OrderOfUnmerged), and where p's list, no "$deleteFromPrimitiveList" beside it, does not follow a non-empty
// order within its items before its first value named again (distinctPrefix), it checks it as a set's order and fails
// there (orderMismatch; strategicpatch's validatePatchWithSetOrderList fails too). Nil elsewhere.
func unmergedOrderFailure(p value.Value, t *openapi.Type, name string, lv value.Value, held bool) *elements.Error {
	f := orderedFieldOf(p, t, name)
	ft, meta, order, pv, set, deletes := f.t, f.meta, f.order, f.list, f.set, f.deletes
	at := fieldpath.Path{fieldpath.Field(name)}
	switch {
	case ft.Kind != openapi.KindList || ft.Item().Kind != openapi.KindPrimitive || elements.MergedList(ft, &meta) ||
		meta.Rule != nil || !order.IsList() || !scalarsOrNulls(order.Items()) || (set && !pv.IsList()) ||
		(held && lv.IsNull()) || (!set && !held):
		return nil
	case (held && !lv.IsList()) || !smp.ScalarsOfOneClass(lv.Items(), pv.Items()):
		return &elements.Error{Source: elements.Patch, Path: at, Msg: smp.OrderOfUnmerged(name)}
	case set && !deletes && order.Len() > 0:
		if msg := orderMismatch(name, distinctPrefix(pv.Items()), order.Items()); msg != "" {
			return &elements.Error{Source: elements.Patch, Path: at, Msg: msg}
		}
	}
	return nil
}

// scalarLists reports whether patch map p sets field name to a list of scalars (no null) and lv, the outcome's field
// there (held: present), is absent or such a list too: values nesting no deeper than their items.
func scalarLists(p value.Value, name string, lv value.Value, held bool) bool {
	pv, set := p.Get(name)
	return set && pv.IsList() && allScalars(pv.Items()) && (!held || (lv.IsList() && allScalars(lv.Items())))
}

// distinctPrefix returns scalar items up to the first naming a value an earlier one names: the collation numbers a
// set's items by value, and its check of the order walks these as orderMismatch walks them, so a mismatch among them
// is its error whatever the items after them.
func distinctPrefix(items []value.Value) []value.Value {
	seen := make(map[value.ScalarKey]bool, len(items))
	for i, it := range items {
		if k := scalarKey(it); seen[k] {
			return items[:i]
		} else {
			seen[k] = true
		}
	}
	return items
}

// sortedCheck holds sortedOntoLacking's answer for a repeat onto an outcome (repeat.go's switch): the outcome, or
// the error applying the repeat gives.
type sortedCheck struct {
	kubectl bool // (merged lists ordered as kubectl orders them: order.OrderKubectl)
	removes bool // (gate PatchDeleteRemovesMap: a "$patch: delete" map removes its field)
	out     value.Value
	err     error
}

// of reports whether sortedOntoLacking decides Repeat r of item p (type t) merged into v, keeping its answer.
func (s *sortedCheck) of(r elements.Repeat, p value.Value, t *openapi.Type, v value.Value) bool {
	out, err, ok := sortedOntoLacking(r, p, t, v, s.kubectl, s.removes)
	s.out, s.err = out, err
	return ok
}

// firstByName returns whichever of errors a and b (either nil) lies at the earlier field of a patch map by name (their
// paths' first field): a collation walks a map's fields in name order, and fails at the first field that fails.
func firstByName(a, b *elements.Error) *elements.Error {
	if a == nil || (b != nil && b.Path[0].Field < a.Path[0].Field) {
		return b
	}
	return a
}
