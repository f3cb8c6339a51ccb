package smp

import (
	"github.com/plyproject/ply/internal/elements"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/fieldpath"
	"github.com/plyproject/ply/pkg/value"
)

// Directive keys and values of the strategic merge patch format.
const (
	DirectiveKey   = "$patch"
	DeleteValue    = "delete"
	ReplaceValue   = "replace"
	MergeValue     = "merge"
	RetainKeysKey  = "$retainKeys"
	SetOrderPrefix = "$setElementOrder/"
	DeletePrefix   = "$deleteFromPrimitiveList/"
)

// ThreeWayEntries returns the entries kubectl's three-way patch holds for
// node e (the union of the live->local delta and the recorded->local
// deletions) as a patch value, and whether there are any. Parallel
// $setElementOrder lists are left out: they order, they never conflict.
func ThreeWayEntries(e elements.Element) (value.Value, bool) {
	n := e.Base()
	if !n.HasLocal {
		if n.HasRecorded {
			return value.Null, true
		}
		return value.Value{}, false
	}
	if n.Local.IsNull() {
		if DeltaTouches(e) {
			return value.Null, true
		}
		return value.Value{}, false
	}
	if !n.HasLive || n.Live.IsNull() || !SameJSONType(n.Local, n.Live) {
		return n.Local, true
	}
	switch e := e.(type) {
	case *elements.TypeElement:
		return fieldEntries(n, e.Fields)
	case *elements.MapElement:
		return fieldEntries(n, e.Fields)
	case *elements.ListElement:
		return itemEntries(e)
	case *elements.SetElement:
		return addedValues(e)
	case *elements.AtomicElement:
		if n.Meta.Strategy.Has(openapi.StrategyReplace) && n.Local.IsMap() {
			return n.Local, true
		}
	}
	if value.Equal(n.Local, n.Live) {
		return value.Value{}, false
	}
	return n.Local, true
}

// fieldEntries is the patch of a map both local and live hold: one entry
// per child with entries, a $deleteFromPrimitiveList list per set child
// that drops values, and $retainKeys for a retainKeys map that changes.
func fieldEntries(n *elements.Node, fields elements.Fields) (value.Value, bool) {
	var out []value.Field
	for _, f := range fields {
		if v, ok := ThreeWayEntries(f.Element); ok {
			out = append(out, value.Field{Key: f.Name, Value: v})
		}
		if set, ok := f.Element.(*elements.SetElement); ok && set.LocalSet() {
			if dels := removedValues(set); len(dels) > 0 {
				out = append(out, value.Field{Key: DeletePrefix + f.Name, Value: value.List(dels)})
			}
		}
	}
	if n.Meta.Strategy.Has(openapi.StrategyRetainKeys) && (len(out) > 0 || extraNonNull(fields, elements.Live) || extraNonNull(fields, elements.Recorded)) {
		keys := make([]value.Value, 0, len(fields))
		for _, f := range fields {
			if f.Element.Base().LocalSet() {
				keys = append(keys, value.String(f.Name))
			}
		}
		// kubectl sends no $retainKeys for a map local gives no field.
		if len(keys) > 0 {
			out = append(out, value.Field{Key: RetainKeysKey, Value: value.List(keys)})
		}
	}
	if len(out) == 0 {
		return value.Value{}, false
	}
	m, _, _ := value.NewMap(out)
	return m, true
}

// extraNonNull reports whether source s holds a non-null field local lacks.
func extraNonNull(fields elements.Fields, s elements.Source) bool {
	for _, f := range fields {
		c := f.Element.Base()
		if v, ok := c.Get(s); ok && !v.IsNull() && !c.HasLocal {
			return true
		}
	}
	return false
}

// itemEntries is the patch of a merged list of maps: local items new to
// live whole, changed items as their own patch plus merge key, and a delete
// directive per item local dropped since recorded.
func itemEntries(e *elements.ListElement) (value.Value, bool) {
	var out []value.Value
	for i := range e.Items {
		it := &e.Items[i]
		c := it.Element.Base()
		switch {
		case it.LocalIndex >= 0 && it.LiveIndex < 0:
			out = append(out, c.Local)
		case it.LocalIndex >= 0:
			v, ok := ThreeWayEntries(it.Element)
			if ok && v.IsMap() {
				out = append(out, withKey(v, c.PathElement().Key))
			}
		case it.RecordedIndex >= 0:
			out = append(out, withKey(value.MustMap(value.Field{Key: DirectiveKey, Value: value.String(DeleteValue)}), c.PathElement().Key))
		}
	}
	if len(out) == 0 {
		return value.Value{}, false
	}
	return value.List(out), true
}

// withKey adds the merge-key fields to an item patch.
func withKey(m value.Value, key []fieldpath.KeyField) value.Value {
	for _, kf := range key {
		m = m.With(kf.Name, kf.Value)
	}
	return m
}

// addedValues is the patch of a merged set: local's values live lacks.
func addedValues(e *elements.SetElement) (value.Value, bool) {
	var out []value.Value
	for i := range e.Items {
		it := &e.Items[i]
		if it.LocalIndex >= 0 && it.LiveIndex < 0 {
			out = append(out, it.Element.Base().Local)
		}
	}
	if len(out) == 0 {
		return value.Value{}, false
	}
	return value.List(out), true
}

// removedValues lists the values local dropped from a set since recorded.
func removedValues(e *elements.SetElement) []value.Value {
	if !e.HasRecorded || e.Recorded.Len() == 0 {
		return nil
	}
	var out []value.Value
	for i := range e.Items {
		if e.Items[i].RemovedSinceRecorded() {
			out = append(out, e.Items[i].Element.Base().Recorded)
		}
	}
	return out
}
