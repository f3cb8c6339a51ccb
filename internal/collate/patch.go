package collate

import (
	"strconv"

	"github.com/plyproject/ply/internal/elements"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/pkg/value"
)

// Format is the strategic merge patch format as the collator needs it:
// pkg/patch implements it and owns the directives' syntax and rejection
// rules (design documents 000-002); the collator matches items and builds
// nodes from what it reads. A node passed to a method is complete but for
// its children and ID, and valid only during the call.
type Format interface {
	// Map reads patch map n.Local: data is its data fields, sorted; dirs
	// the node's directives ("$patch", "$retainKeys", added to n.Dirs);
	// byField those it gives its fields, sorted by name.
	Map(n *elements.Node) (data []value.Field, dirs *elements.Directives, byField []FieldDirectives, err error)
	// Item reads the "$patch" directive of item i of merged list of maps
	// n: "", "delete" or "replace".
	Item(n *elements.Node, i int, item value.Value) (string, error)
	// Whole returns a patch value of n taken whole (a replaced map or
	// list, a list without merge strategy) as data.
	Whole(n *elements.Node, v value.Value) (value.Value, error)
	// Check applies the rules relating the directives a parent gives node
	// n (n.Dirs) to n's values.
	Check(n *elements.Node) error
	// List says what merged list n holds, or why it cannot be merged.
	List(n *elements.Node) (ListKind, error)
	// Order checks n's "$setElementOrder" against the patch's list: seq
	// holds the identities (elements.Index numbers) of the patch's items
	// in order, -1 for a "$patch: replace" item; order those it lists.
	Order(n *elements.Node, seq, order []int) error
}

// ListKind is what a patch's merged list holds.
type ListKind uint8

// The kinds of merged list: no items in the patch or in live; scalars,
// merged as a set; objects, merged by merge key (or as a set of maps).
const (
	ListEmpty ListKind = iota
	ListScalars
	ListObjects
)

// FieldDirectives are the directives a patch map gives its field Name.
type FieldDirectives struct {
	Name string
	Dirs *elements.Directives
}

// patchNode builds the Element of one node of a patch tree (the patch's
// value in Local, s.Dirs what its parent gives it). Every node the patch
// sets is built and checked; nodes it leaves out are live's, whole.
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

// scratch is s in the collator's one spare node, for the format's methods
// (which do not keep it): handing them s itself would move s to the heap.
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
	directive := dirs != nil && dirs.Directive != ""
	if directive && !hasLive {
		// A directive map for a field live lacks is dropped (the field
		// stays absent), as strategicpatch does.
		s.Local = value.Null
		return c.atomic(s), nil
	}
	s.Dirs = dirs
	switch {
	case directive && dirs.Directive == "delete":
		// Document 001: the map is deleted; without the gate, an empty map
		// stays, as strategicpatch leaves it.
		s.Local = value.Null
		if !c.opts.Gates.Enabled(features.PatchDeleteRemovesMap) {
			s.Local = value.MapFromSorted(nil)
		}
	case directive || (s.Meta.Strategy.Has(openapi.StrategyReplace) && hasLive):
		// A "$patch: replace" map, or a map of strategy replace, is the
		// patch's, whole.
		if err := c.whole(s, value.MapFromSorted(data)); err != nil {
			return nil, err
		}
	default:
		if !hasLive {
			s.Live, s.HasLive = value.Value{}, false
		}
		return c.fieldsNode(s, data, byField, depth)
	}
	return c.atomic(s), nil
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
