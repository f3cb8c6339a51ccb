package visitors

import (
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/value"
)

// Onto is o's merge of a repeat's tree e onto v (repeat.go); fits is false, and nothing walked, where ontoFits refuses,
// or where a map of e without fields meets a map of v with fields: e is a tree collated alone, so where its maps lie
// against the depth limit is not known (elements.Repeat.Limit), and each such map is taken as one at it.
func Onto(o Ordered, e elements.Element, v value.Value) (out elements.Outcome, fits bool, err error) {
	limit := emptyMaps(e, nil)
	if !o.ontoFits(e, v) || o.ontoFailure(e, v, limit) != nil {
		return elements.Absent, false, nil
	}
	out, err = o.onto(e.(*elements.MapElement), v)
	return out, true, err
}

// emptyMaps records in limit each map of e's tree without fields, with an error at its path, as Phase 1 records those
// at the depth limit.
func emptyMaps(e elements.Element, limit map[int32]*elements.Error) map[int32]*elements.Error {
	switch e := e.(type) {
	case *elements.MapElement:
		if len(e.Fields) == 0 {
			if limit == nil {
				limit = map[int32]*elements.Error{}
			}
			limit[e.ID] = e.Errorf(elements.Patch, "at the depth limit")
		}
		for _, f := range e.Fields {
			limit = emptyMaps(f.Element, limit)
		}
	case *elements.ListElement:
		for _, it := range e.Items {
			limit = emptyMaps(it.Element, limit)
		}
	}
	return limit
}
