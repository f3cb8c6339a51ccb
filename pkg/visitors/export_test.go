package visitors

import (
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/value"
)

// Onto is o's merge of a repeat's tree e onto v (repeat.go); fits is false, and nothing walked, where ontoFits refuses.
func Onto(o Ordered, e elements.Element, v value.Value) (out elements.Outcome, fits bool, err error) {
	if !o.ontoFits(e, v, true) { // (a tree collated alone: where its maps are, the depth limit is not known)
		return elements.Absent, false, nil
	}
	out, err = o.onto(e.(*elements.MapElement), v)
	return out, true, err
}
