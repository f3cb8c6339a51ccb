// Package visitors holds Phase 2 of an apply: one elements.Visitor per built-in merge rule (Replace, Merge, Merge
// with Retain for retainKeys, Ordered), each computing the Outcome (the updated value) of the elements pkg/strategy
// hands it. A program's rule (pkg/elements.Rule) may embed or call them. They share the presence rule for nodes local does
// not set: removed when local nulls them, or omits them and recorded had them (deleted since the last apply); else
// live's value stays (another writer's). Null values never reach a result map: an explicit null in local means
// "remove", and JSON null and absence are the same thing to the API server. A patch's list naming a merge key twice is
// applied as the API server applies it, each later item in turn (repeat.go); where the tree does not decide a later
// item, the walk asks its question (InTurn), which the front-end answers (Answers): a visitor never collates or calls
// a front-end.
package visitors

import (
	"slices"

	"github.com/plyproject/ply/internal/order"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/value"
)

// Replace decides every element as one atomic value: local's when local sets it, else the presence rule. It
// is the visitor of primitives, atomic lists and strategy replace fields, and the others' base for leaves.
type Replace struct {
	// Compose (pkg/patch.Compose) decides a leaf local has, null included, as local's value as it stands.
	Compose bool
}

// Visit implements elements.Visitor: Replace decides an element of any kind, built-in or not, whole.
func (r Replace) Visit(e elements.Element) (elements.Outcome, error) {
	if a, ok := e.(*elements.AtomicElement); ok {
		return r.VisitAtomic(a)
	}
	return Decide(e.Base()), nil
}

// VisitAtomic decides a leaf: under Compose a leaf local has is local's as it stands, else Decide.
func (r Replace) VisitAtomic(e *elements.AtomicElement) (elements.Outcome, error) {
	if r.Compose && e.HasLocal {
		return elements.Keep(e.Local), nil
	}
	return Decide(&e.Node), nil
}

// VisitMap decides the map whole.
func (Replace) VisitMap(e *elements.MapElement) (elements.Outcome, error) {
	return Decide(&e.Node), nil
}

// VisitList decides the list whole.
func (Replace) VisitList(e *elements.ListElement) (elements.Outcome, error) {
	return Decide(&e.Node), nil
}

// VisitSet decides the list whole.
func (Replace) VisitSet(e *elements.SetElement) (elements.Outcome, error) {
	return Decide(&e.Node), nil
}

// Decide is a node's outcome taken whole: local's value without null map fields when local sets it, else the
// presence rule; a patch's "$deleteFromPrimitiveList" then removes its values from a list.
func Decide(n *elements.Node) elements.Outcome {
	var out value.Value
	switch {
	case n.LocalSet():
		out = StripNulls(n.Local)
		if n.HasLive && value.Identical(out, n.Live) {
			out = n.Live // the same JSON: live's own, which the merge can share
		}
	case n.HasLocal || n.HasRecorded || !n.HasLive:
		return elements.Absent
	default:
		out = n.Live
	}
	if d := n.Dirs; d != nil && d.HasDeleteFromList && out.IsList() {
		del := make(map[value.ScalarKey]bool, d.DeleteFromList.Len())
		for _, v := range d.DeleteFromList.Items() {
			if k, ok := elements.SetKey(v, true); ok {
				del[k] = true
			}
		}
		out = value.List(slices.DeleteFunc(slices.Clone(out.Items()), func(it value.Value) bool {
			k, ok := elements.SetKey(it, true)
			return ok && del[k]
		}))
	}
	return elements.Keep(out)
}

// StripNulls returns v without map fields whose value is null, at any depth. It returns v itself (no copy)
// when there are none: a map or list is copied from its first changed member on, in one pass.
func StripNulls(v value.Value) value.Value {
	switch v.Kind() {
	case value.KindMap:
		var fs []value.Field // nil while every field is v's own
		for i, f := range v.Fields() {
			cv := StripNulls(f.Value)
			if fs == nil && (cv.IsNull() || cv != f.Value) {
				fs = append(make([]value.Field, 0, v.Len()), v.Fields()[:i]...)
			}
			if fs != nil && !cv.IsNull() {
				fs = append(fs, value.Field{Key: f.Key, Value: cv})
			}
		}
		if fs != nil {
			return value.MapFromSorted(fs)
		}
	case value.KindList:
		var items []value.Value // nil while every item is v's own
		for i, it := range v.Items() {
			cv := StripNulls(it)
			if items == nil && cv != it {
				items = append(make([]value.Value, 0, v.Len()), v.Items()[:i]...)
			}
			if items != nil {
				items = append(items, cv)
			}
		}
		if items != nil {
			return value.List(items)
		}
	}
	return v
}

// Merge merges maps and structs field by field, each by its own strategy's visitor (through Walker); leaves as Replace.
type Merge struct {
	Walker elements.Walker
	// Retain makes it rule RetainKeys' visitor: it clears the live fields the node does not keep, so switching a union
	// member (a Deployment strategy from RollingUpdate to Recreate, a volume's source) removes the old one.
	Retain bool
	// Memory, when set, holds the maps the merge builds: the result is valid until its Reset (nil: memory of their own).
	Memory  *Memory
	Replace // (last: it packs with Retain)
}

// Visit implements elements.Visitor: Merge decides maps (MapElement); another kind is an error.
func (m Merge) Visit(e elements.Element) (elements.Outcome, error) {
	if me, ok := e.(*elements.MapElement); ok {
		return m.VisitMap(me)
	}
	return elements.Absent, elements.Unsupported(m, e)
}

// VisitMap decides a map: a node local sets to a map gets each child's outcome, in key order; with
// Retain, children the node does not keep are cleared unwalked. It keeps the fields a patch's "$retainKeys" lists,
// else those local sets (none cleared when local sets none: kubectl sends no $retainKeys then).
func (m Merge) VisitMap(e *elements.MapElement) (elements.Outcome, error) {
	n, fields := &e.Node, e.Fields
	if !n.LocalSet() || !n.Local.IsMap() {
		return Decide(n), nil
	}
	listed := n.Dirs != nil && n.Dirs.HasRetainKeys
	localSet := func(f elements.Field) bool { return f.Element.Base().LocalSet() }
	retain := m.Retain && (listed || slices.ContainsFunc(fields, localSet))
	// Until a field's outcome is not live's own field (see asLive), out stays nil and same counts live's
	// fields matched: a map whose fields all come out as live has them is live's map, shared, not copied.
	var out []value.Field
	live, same := n.Live.Fields(), 0
	for _, f := range fields {
		if retain && listed {
			if _, kept := slices.BinarySearch(n.Dirs.RetainKeys, f.Name); !kept {
				continue
			}
		} else if retain && !localSet(f) {
			continue
		}
		o, err := m.Walker.Walk(f.Element)
		if err != nil {
			return elements.Absent, err
		}
		// An outcome that is null is live's null, untouched: kept.
		switch {
		case !o.Present:
		case out == nil && same < len(live) && live[same].Key == f.Name && asLive(o.Value, live[same].Value):
			same++
		default:
			if out == nil {
				out = append(m.Memory.fieldsOf(len(fields))[:0], live[:same]...)
			}
			out = append(out, value.Field{Key: f.Name, Value: o.Value})
		}
	}
	if out == nil {
		if same == len(live) && n.HasLive && n.Live.IsMap() {
			return elements.Keep(n.Live), nil
		}
		// A prefix of live's fields: shared as well (values are immutable).
		out = live[:same:same]
	}
	return elements.Keep(value.MapFromSorted(out)), nil
}

// asLive reports whether outcome o can be given as live's value v: v itself (a shared subtree, or a bool or
// number of v's kind and bits: -0 is not 0), or a string equal to it.
func asLive(o, v value.Value) bool {
	return o == v || (o.Kind() == value.KindString && v.Kind() == value.KindString && value.Equal(o, v))
}

// Ordered merges lists of strategy merge, maps matched by merge key (ListElement), primitives as sets (SetElement):
// items local names merge (through Walker), the others follow the presence rule; Ordering orders the result.
type Ordered struct {
	Walker elements.Walker
	// Ordering selects the order of the result.
	Ordering order.Ordering
	// Patch says the tree is a patch's: lists are ordered as it orders them, members it deletes dropped.
	Patch   bool
	Replace // (here: it packs with Patch)
	// Answers holds the front-end's answers to the walk's questions (InTurn): a list's Repeat merged in turn into its
	// member's outcome where onto cannot decide it from the repeat's own tree and its chained lists (repeat.go,
	// chain.go). Nil: no answers, each such repeat ending the walk with its question.
	Answers *Answers
	// Memory, when set, holds the lists the merge builds and its members' outcomes: the result is valid until its
	// Reset (nil: memory of their own).
	Memory *Memory
	// UnmergedOrderRefused says gate MultiFieldMergeKeys is on: the collation refuses a "$setElementOrder" of a list
	// the schema merges by no strategy (format.CheckDirs), which compose mode's repeats decide by (orderFails).
	UnmergedOrderRefused bool
	// DeleteRemovesMap says gate PatchDeleteRemovesMap is on: a "$patch: delete" map removes its field rather than
	// leaving an empty map, which apply mode's repeats onto an outcome holding that map decide by (deletedMapOnto).
	DeleteRemovesMap bool
	// parentLive says the list's parent holds a map in live though its node has none: a repeat's list that its
	// member's outcome lacks, merged onto that outcome's map (repeat.go).
	parentLive bool
	// listLive says the list's live, which its node lacks, is a list: a repeat's "$patch: replace" list naming a key
	// twice, merged onto a member's outcome holding a list there (repeat.go).
	listLive bool
	// unplaced says the list's repeats keep their places in the patch though its parent holds live: a compose repeat's
	// list applied to nothing, its parent a map of the skeleton Phase 1 collated it onto (repeat.go, Ordered.alone).
	unplaced bool
	// directed holds the nodes of the repeat being merged onto its member's outcome that its directive maps are where that
	// outcome holds a map (elements.Repeat.Onto; repeat.go).
	directed map[int32]elements.Element
	// cleaned holds the IDs of the leaves of compose mode's repeat being merged onto its member's outcome that Phase 1
	// built less the patch's maps holding "$patch" (elements.Repeat.Cleaned; repeat.go).
	cleaned []int32
	// laid holds, by node ID, the layout of the outcome of each chained list of a repeat merged onto its base's outcome
	// so far (chain.go): a later repeat's list chained to it finds its items there.
	laid map[int32]layout
	// failingEmpty says ontoFits is asked of a repeat failing where it holds empty a list it orders (repeat.go): such a
	// list fits where the outcome holds no items there.
	failingEmpty bool
	// mergedMember says ontoFailure is asked of a repeat whose key's first item merged into live's item of that key
	// (repeat.go): keysOnto then checks the outcome's items below a keyed list the repeat holds empty.
	mergedMember bool
}

// Visit implements elements.Visitor: Ordered decides merged lists (ListElement, SetElement); another kind is an error.
func (o Ordered) Visit(e elements.Element) (elements.Outcome, error) {
	switch e := e.(type) {
	case *elements.ListElement:
		return o.visit(e, e.Items, e.LiveExtra)
	case *elements.SetElement:
		return o.visit(e, e.Items, nil)
	}
	return elements.Absent, elements.Unsupported(o, e)
}

// VisitList decides a list of maps merged by key.
func (o Ordered) VisitList(e *elements.ListElement) (elements.Outcome, error) {
	return o.visit(e, e.Items, e.LiveExtra)
}

// VisitSet decides a set.
func (o Ordered) VisitSet(e *elements.SetElement) (elements.Outcome, error) {
	return o.visit(e, e.Items, nil)
}

// visit decides a merged list's members (Items, then live's repeats of a key) and lists the present outcomes
// in order; members a patch deletes, and live repeats of a key local deleted, are absent, unwalked.
func (o Ordered) visit(e elements.Element, items, extra []elements.Item) (elements.Outcome, error) {
	n := e.Base()
	if !o.Patch && (!n.LocalSet() || !n.Local.IsList()) {
		return Decide(n), nil
	}
	if o.Patch && !n.HasLocal && !n.HasLive { // (a repeat's list its patch only orders: Phase 1's, for its base)
		return elements.Absent, nil
	}
	outs := o.Memory.outcomesOf(len(items) + len(extra))
	var err error
	id := 0 // items' IDs, then extra's
	for _, list := range [...][]elements.Item{items, extra} {
		for p := range list {
			if it := &list[p]; !it.Deleted && (it.Of < 0 || !items[it.Of].RemovedSinceRecorded()) {
				if outs[id], err = o.Walker.Walk(it.Element); err != nil {
					return elements.Absent, err
				}
			}
			id++
		}
	}
	ord := order.List(e, items, extra, o.Ordering, o.Patch, o.Compose, o.Memory.intsOf())
	if l, _ := e.(*elements.ListElement); l != nil && l.Repeats != nil { // a patch's list naming a key twice
		if order.RepeatsApart(l) {
			return o.apart(l, outs, ord)
		}
		// In patch order: each merges into its member's outcome in turn.
		o.laying()
		for _, r := range l.Repeats {
			if outs[r.ID], err = o.repeat(l, r, outs[r.ID].Value); err != nil {
				return elements.Absent, err
			}
		}
	}
	// As in Merge.VisitMap, list stays nil while the present outcomes are live's first items one for one (asLive).
	var list []value.Value
	live, same := n.Live.Items(), 0
	for _, id := range ord {
		switch out := &outs[id]; {
		case !out.Present:
		case list == nil && same < len(live) && asLive(out.Value, live[same]):
			same++
		default:
			if list == nil {
				list = append(o.Memory.itemsOf(len(ord))[:0], live[:same]...)
			}
			list = append(list, out.Value)
		}
	}
	if list == nil {
		if same == len(live) && n.HasLive && n.Live.IsList() {
			return elements.Keep(n.Live), nil
		}
		list = live[:same:same] // a prefix of live's items: shared as well
	}
	return elements.Keep(value.List(list)), nil
}

// apart lists the members of patch list e (their outcomes outs, in order ord) and its Repeats apart
// (order.RepeatsApart), each applied to nothing, in the order order.Apart gives.
func (o Ordered) apart(e *elements.ListElement, outs []elements.Outcome, ord []int) (elements.Outcome, error) {
	var list []value.Value
	entries := order.Apart(e, ord)
	if o.parentLive || o.unplaced {
		entries = order.ApartIn(e, ord, o.parentLive)
	}
	if o.listLive {
		entries = order.ApartOnto(e, ord)
	}
	var owner []int // (where o records layouts: repeat.go)
	for _, r := range entries {
		out := outs[r.ID]
		if r.Pos >= 0 {
			var err error
			if out, err = o.repeat(e, r, value.Null); err != nil {
				return elements.Absent, err
			}
		}
		if out.Present {
			list, owner = append(list, out.Value), append(owner, r.ID)
		}
	}
	if o.laid != nil {
		o.laid[e.ID] = layout{list: value.List(list), owner: owner}
	}
	return elements.Keep(value.List(list)), nil
}

// KeepLive decides a field another writer owns, of any element kind, as live holds it: live's value, or absent when
// live has none (the field stays unset until its owner sets it); an object created now (its root has no live) takes
// the manifest's value by Decide, as there is no owner's yet. It walks no children. Rules of fields left to other
// writers (pkg/elements.Rule with PatchLeavesLive) use it.
type KeepLive struct{}

// Visit implements elements.Visitor.
func (KeepLive) Visit(e elements.Element) (elements.Outcome, error) {
	switch n := e.Base(); {
	case n.HasLive && !n.Live.IsNull():
		return elements.Keep(n.Live), nil
	case !n.Root().HasLive:
		return Decide(n), nil
	}
	return elements.Absent, nil
}
