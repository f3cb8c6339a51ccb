package patch

import (
	"github.com/plyproject/ply/internal/elements"
	"github.com/plyproject/ply/pkg/value"
)

// Visitor is the elements.Visitor of a patch tree: it computes each node's
// Outcome from the patch (Values.Local), live (Values.Live) and the node's
// directives (Node.Patch), recursing through Walker. internal/strategy hands it
// every element of a patch tree (strategy.Options.Patch).
//
// Its rules: a node the patch sets to null is removed; a node the patch
// leaves out keeps live's value; a scalar, or a value the collator took
// whole (replaced maps and lists, lists without merge strategy), is the
// patch's; maps merge field by field, clearing the fields "$retainKeys"
// does not list; merged lists are assembled in their Layout. Null map
// fields never reach the result.
type Visitor struct {
	// Walker decides the children.
	Walker elements.Walker
}

// VisitPrimitive implements elements.Visitor.
func (v *Visitor) VisitPrimitive(e *elements.PrimitiveElement) (elements.Outcome, error) {
	return leaf(&e.Node), nil
}

// VisitAtomic implements elements.Visitor.
func (v *Visitor) VisitAtomic(e *elements.AtomicElement) (elements.Outcome, error) {
	return leaf(&e.Node), nil
}

// VisitEmpty implements elements.Visitor.
func (v *Visitor) VisitEmpty(e *elements.EmptyElement) (elements.Outcome, error) {
	return leaf(&e.Node), nil
}

// VisitMap implements elements.Visitor.
func (v *Visitor) VisitMap(e *elements.MapElement) (elements.Outcome, error) {
	return v.fields(&e.Node, e.Fields)
}

// VisitType implements elements.Visitor.
func (v *Visitor) VisitType(e *elements.TypeElement) (elements.Outcome, error) {
	return v.fields(&e.Node, e.Fields)
}

// VisitList implements elements.Visitor.
func (v *Visitor) VisitList(e *elements.ListElement) (elements.Outcome, error) {
	return v.members(&e.Node, e.Items, e.LiveExtra)
}

// VisitSet implements elements.Visitor.
func (v *Visitor) VisitSet(e *elements.SetElement) (elements.Outcome, error) {
	return v.members(&e.Node, e.Items, nil)
}

// leaf is the outcome of a node taken whole: the patch's value (null
// removes), else live's; "$deleteFromPrimitiveList" filters a list.
func leaf(n *elements.Node) elements.Outcome {
	var out value.Value
	switch {
	case n.HasLocal:
		out = n.Local
	case n.HasLive:
		out = n.Live
	default:
		return elements.Absent
	}
	if out.IsNull() {
		return elements.Absent
	}
	if n.Patch != nil && n.Patch.HasDeleteFromList && out.IsList() {
		out = without(out, n.Patch.DeleteFromList)
	}
	return elements.Keep(out)
}

// without returns list without the items equal to a value of drop.
func without(list, drop value.Value) value.Value {
	del := make(map[value.ScalarKey]bool, drop.Len())
	for _, d := range drop.Items() {
		if k, ok := d.Key(); ok {
			del[k] = true
		}
	}
	items := list.Items()
	out := make([]value.Value, 0, len(items))
	for _, it := range items {
		if k, ok := it.Key(); ok && del[k] {
			continue
		}
		out = append(out, it)
	}
	return value.List(out)
}

// fields merges a map: each child decided by the walker, in key order;
// with "$retainKeys", children it does not list are cleared unwalked.
func (v *Visitor) fields(n *elements.Node, fields elements.Fields) (elements.Outcome, error) {
	var retain []string
	hasRetain := n.Patch != nil && n.Patch.HasRetainKeys
	if hasRetain {
		retain = n.Patch.RetainKeys
	}
	out := make([]value.Field, 0, len(fields))
	r := 0
	for _, f := range fields {
		if hasRetain {
			for r < len(retain) && retain[r] < f.Name {
				r++
			}
			if r == len(retain) || retain[r] != f.Name {
				continue
			}
		}
		o, err := v.Walker.Walk(f.Element)
		if err != nil {
			return elements.Absent, err
		}
		if o.Present && !o.Value.IsNull() {
			out = append(out, value.Field{Key: f.Name, Value: o.Value})
		}
	}
	return elements.Keep(value.MapFromSorted(out)), nil
}

// members assembles a merged list: every member walked, the present ones
// placed in the node's Layout.
func (v *Visitor) members(n *elements.Node, items, extra []elements.Item) (elements.Outcome, error) {
	outs := make([]elements.Outcome, len(items)+len(extra))
	for i := range items {
		o, err := v.Walker.Walk(items[i].Element)
		if err != nil {
			return elements.Absent, err
		}
		outs[i] = o
	}
	for j := range extra {
		o, err := v.Walker.Walk(extra[j].Element)
		if err != nil {
			return elements.Absent, err
		}
		outs[len(items)+j] = o
	}
	var layout []int
	if n.Patch != nil {
		layout = n.Patch.Layout
	}
	list := make([]value.Value, 0, len(layout))
	for _, id := range layout {
		if outs[id].Present {
			list = append(list, outs[id].Value)
		}
	}
	return elements.Keep(value.List(list)), nil
}
