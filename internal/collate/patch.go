package collate

import (
	"strconv"

	"github.com/plyproject/ply/internal/elements"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/pkg/value"
)

// Format is the strategic merge patch format as the collator needs it to
// build the tree of a patch: pkg/patch implements it and owns the
// directives' syntax and the rejection rules of design documents 000, 001
// and 002; the collator matches items and builds nodes from what it reads.
// A node passed to a method is complete but for its children and ID, and
// valid only during the call.
type Format interface {
	// Map reads patch map n.Local (live's value beside it): data holds the
	// map's data fields, sorted (for a "$patch" map, its fields but that); dirs the node's directives ("$patch",
	// "$retainKeys", on top of those its parent gives it, n.Dirs); byField
	// those it gives its fields ("$setElementOrder/<f>",
	// "$deleteFromPrimitiveList/<f>"), sorted by name.
	Map(n *elements.Node) (data []value.Field, dirs *elements.Directives, byField []FieldDirectives, err error)
	// Item reads the "$patch" directive of item i of merged list of maps
	// n: "" for a data item, else the directive ("delete", with the item's
	// merge key, or "replace").
	Item(n *elements.Node, i int, item value.Value) (string, error)
	// Whole returns a patch value of n taken whole (a replaced map or
	// list, a list without merge strategy) as data.
	Whole(n *elements.Node, v value.Value) (value.Value, error)
	// Check applies the rules relating the directives a parent gives node
	// n (n.Dirs) to n's values, the patch's and live's.
	Check(n *elements.Node) error
	// List says what merged list n holds, by the patch's items and
	// live's, or why they cannot be merged.
	List(n *elements.Node) (ListKind, error)
	// Order applies the rules relating n's "$setElementOrder" to the
	// patch's list: seq holds the identities (numbers, as elements.Index
	// gives them) of the patch's items in patch order, -1 for a "$patch:
	// replace" item; order those of the order list.
	Order(n *elements.Node, seq, order []int) error
}

// ListKind is what a patch's merged list holds.
type ListKind uint8

// The kinds of merged list.
const (
	// ListEmpty: no items, in the patch or in live.
	ListEmpty ListKind = iota
	// ListScalars: strings, numbers or booleans, merged as a set.
	ListScalars
	// ListObjects: objects, merged by merge key (or as a set of maps).
	ListObjects
)

// FieldDirectives are the directives a patch map gives its field Name.
type FieldDirectives struct {
	Name string
	Dirs *elements.Directives
}

// patchNode builds the Element of one node of a patch tree: s.Values holds
// the patch's value (Local) and live's; s.Dirs the directives its parent
// gives it. Every node the patch sets is built and checked, also where
// live lacks it; nodes the patch leaves out are live's, whole.
func (c *collator) patchNode(s elements.Node, depth int) (elements.Element, error) {
	if s.Type == nil {
		s.Type = openapi.Unknown
	}
	if c.opts.MaxDepth > 0 && depth > c.opts.MaxDepth {
		return nil, s.Errorf(elements.Patch, "nesting is deeper than the limit of "+strconv.Itoa(c.opts.MaxDepth)+" levels of maps and lists")
	}
	if s.Dirs != nil {
		if err := c.opts.Patch.Check(c.scratch(&s)); err != nil {
			return nil, err
		}
	}
	v := &s.Values
	switch {
	case !v.HasLocal:
		// "$setElementOrder/<field>" for a list the patch leaves out
		// reorders live's list.
		if s.Dirs != nil && s.Dirs.HasSetOrder && v.HasLive && v.Live.IsList() {
			return c.patchList(&s, depth)
		}
	case v.Local.IsMap():
		return c.patchMap(&s, depth)
	case v.Local.IsList():
		return c.patchList(&s, depth)
	}
	return c.atomic(&s), nil
}

// scratch is a node of s for the format's methods and errors: one node of
// the collator's, overwritten by the next call (Format's methods read it
// and do not keep it; an error they make holds its path, computed then).
func (c *collator) scratch(s *elements.Node) *elements.Node {
	c.spare = *s
	return &c.spare
}

// whole replaces the patch value of s by the format's data for it.
func (c *collator) whole(s *elements.Node, v value.Value) error {
	d, err := c.opts.Patch.Whole(c.scratch(s), v)
	s.Local = d
	return err
}

// patchMap builds the node of a patch map.
func (c *collator) patchMap(s *elements.Node, depth int) (elements.Element, error) {
	if err := kindFits(s, elements.Patch); err != nil {
		return nil, err
	}
	data, dirs, byField, err := c.opts.Patch.Map(c.scratch(s))
	if err != nil {
		return nil, err
	}
	hasLive := s.HasLive && s.Live.IsMap()
	if dirs != nil && dirs.Directive != "" {
		switch {
		case !hasLive:
			// A directive map for a field live lacks is dropped (the field
			// stays absent), as strategicpatch does.
			s.Local = value.Null
		case dirs.Directive == "delete":
			// Document 001: the map is deleted; without the gate, an empty
			// map stays, as strategicpatch leaves it.
			s.Dirs, s.Local = dirs, value.Null
			if !c.opts.Gates.Enabled(features.PatchDeleteRemovesMap) {
				s.Local = value.MapFromSorted(nil)
			}
		default:
			s.Dirs = dirs
			if err := c.whole(s, value.MapFromSorted(data)); err != nil {
				return nil, err
			}
		}
		return c.atomic(s), nil
	}
	s.Dirs = dirs
	if s.Meta.Strategy.Has(openapi.StrategyReplace) && hasLive {
		// A map whose schema strategy is replace is the patch's, whole.
		if err := c.whole(s, value.MapFromSorted(data)); err != nil {
			return nil, err
		}
		return c.atomic(s), nil
	}
	if !hasLive {
		s.Live, s.HasLive = value.Value{}, false
	}
	return c.fieldsNode(s, data, byField, depth)
}

// patchList builds the node of a list the patch sets, or of a live list
// "$setElementOrder/<field>" reorders while the patch leaves it out.
func (c *collator) patchList(s *elements.Node, depth int) (elements.Element, error) {
	if s.HasLocal {
		if err := kindFits(s, elements.Patch); err != nil {
			return nil, err
		}
	}
	if !merged(s.Type, &s.Meta) {
		// The patch's list replaces live's whole.
		if err := c.whole(s, s.Local); err != nil {
			return nil, err
		}
		return c.atomic(s), nil
	}
	switch kind, err := c.opts.Patch.List(c.scratch(s)); {
	case err != nil:
		return nil, err
	case kind == ListEmpty:
		// Nothing to merge or order: the patch's empty list, or live's.
		return c.atomic(s), nil
	case kind == ListScalars || elements.SetOfMaps(s.Type, &s.Meta):
		return c.setNode(s)
	case len(s.Meta.MergeKey) == 0:
		return nil, s.Errorf(elements.Patch, "the schema gives this merged list of objects no merge key, so its items cannot be matched")
	}
	return c.keyedNode(s, depth)
}
