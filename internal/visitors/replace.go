// Package visitors holds Phase 2 of an apply: one elements.Visitor per merge
// strategy, each computing the Outcome (the updated value) of the elements
// internal/strategy hands it.
//
//	Replace     the value is atomic: local's value wins whole
//	Merge       maps and structs merge field by field; with Retain (rule
//	            RetainKeys) fields local leaves out are cleared (unions)
//	Ordered     lists merged by key (maps) or by value (primitives), and
//	            ordered by the seed rule or exactly as kubectl orders them
//
// Every visitor shares the presence rule for nodes local does not set: a
// node local nulls is removed; a node local omits is removed when recorded
// had it (local deleted it since the last apply) and keeps its live value
// otherwise (it belongs to the server or another writer).
//
// Null values never reach a result map: an explicit null in local means
// "remove", and JSON null and absence are the same thing to the API server.
package visitors

import (
	"github.com/plyproject/ply/internal/elements"
	"github.com/plyproject/ply/pkg/value"
)

// Replace decides every element as one atomic value: local's value when
// local sets it, else the presence rule. It is the visitor for primitives,
// atomic lists and fields with strategy replace, and the base the other
// visitors embed for their leaves.
type Replace struct{}

// VisitPrimitive implements elements.Visitor.
func (Replace) VisitPrimitive(e *elements.PrimitiveElement) (elements.Outcome, error) {
	return Decide(&e.Node), nil
}

// VisitAtomic implements elements.Visitor.
func (Replace) VisitAtomic(e *elements.AtomicElement) (elements.Outcome, error) {
	return Decide(&e.Node), nil
}

// VisitMap implements elements.Visitor: the map is replaced whole.
func (Replace) VisitMap(e *elements.MapElement) (elements.Outcome, error) {
	return Decide(&e.Node), nil
}

// VisitType implements elements.Visitor: the struct is replaced whole.
func (Replace) VisitType(e *elements.TypeElement) (elements.Outcome, error) {
	return Decide(&e.Node), nil
}

// VisitList implements elements.Visitor: the list is replaced whole.
func (Replace) VisitList(e *elements.ListElement) (elements.Outcome, error) {
	return Decide(&e.Node), nil
}

// VisitSet implements elements.Visitor: the list is replaced whole.
func (Replace) VisitSet(e *elements.SetElement) (elements.Outcome, error) {
	return Decide(&e.Node), nil
}

// VisitEmpty implements elements.Visitor.
func (Replace) VisitEmpty(e *elements.EmptyElement) (elements.Outcome, error) {
	return Decide(&e.Node), nil
}

// Decide is the outcome of a node taken whole: local's value (without null
// map fields) when local sets it; absent when local nulls it or when
// recorded had it and local omits it; else live's value, as it is. A
// patch's "$deleteFromPrimitiveList" then removes its values from a list.
func Decide(n *elements.Node) elements.Outcome {
	var out value.Value
	switch {
	case n.HasLocal:
		if n.Local.IsNull() {
			return elements.Absent
		}
		out = StripNulls(n.Local)
		if n.HasLive && value.Identical(out, n.Live) {
			out = n.Live // the same JSON: live's own, which the merge can share
		}
	case n.HasRecorded || !n.HasLive:
		return elements.Absent
	default:
		out = n.Live
	}
	if n.Dirs != nil && n.Dirs.HasDeleteFromList && out.IsList() {
		out = without(out, n.Dirs.DeleteFromList)
	}
	return elements.Keep(out)
}

// without returns list without the items equal to a value of drop.
func without(list, drop value.Value) value.Value {
	del := make(map[value.ScalarKey]bool, drop.Len())
	for _, d := range drop.Items() {
		if k, ok := elements.SetKey(d, true); ok {
			del[k] = true
		}
	}
	items := make([]value.Value, 0, list.Len())
	for _, it := range list.Items() {
		if k, ok := elements.SetKey(it, true); ok && del[k] {
			continue
		}
		items = append(items, it)
	}
	return value.List(items)
}

// StripNulls returns v without map fields whose value is null, at any
// depth. It returns v itself (no copy) when there are none: a map or list
// is copied from its first changed member on, in one pass.
func StripNulls(v value.Value) value.Value {
	switch v.Kind() {
	case value.KindMap:
		var fs []value.Field // nil while every field is v's own
		for i, f := range v.Fields() {
			cv := StripNulls(f.Value)
			if fs == nil && !cv.IsNull() && cv == f.Value {
				continue
			}
			if fs == nil {
				fs = append(make([]value.Field, 0, v.Len()), v.Fields()[:i]...)
			}
			if !cv.IsNull() {
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
			if items == nil && cv == it {
				continue
			}
			if items == nil {
				items = append(make([]value.Value, 0, v.Len()), v.Items()[:i]...)
			}
			items = append(items, cv)
		}
		if items != nil {
			return value.List(items)
		}
	}
	return v
}
