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

// patchNode builds the Element of one node of a patch tree: s.vals holds
// the patch's value (Local) and live's; s.dirs the directives its parent
// gives it. Every node the patch sets is built and checked, also where
// live lacks it; nodes the patch leaves out are live's, whole.
func (c *collator) patchNode(s spot, depth int) (elements.Element, error) {
	if s.t == nil {
		s.t = openapi.Unknown
	}
	if c.opts.MaxDepth > 0 && depth > c.opts.MaxDepth {
		return nil, failAt(&s, elements.Patch, "nesting is deeper than the limit of "+strconv.Itoa(c.opts.MaxDepth)+" levels of maps and lists")
	}
	if s.dirs != nil {
		if err := c.opts.Patch.Check(c.scratch(&s)); err != nil {
			return nil, err
		}
	}
	v := &s.vals
	switch {
	case !v.HasLocal:
		// "$setElementOrder/<field>" for a list the patch leaves out
		// reorders live's list.
		if s.dirs != nil && s.dirs.HasSetOrder && v.HasLive && v.Live.IsList() {
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
func (c *collator) scratch(s *spot) *elements.Node {
	c.spare = elements.Node{Parent: s.parent, Name: s.name, Values: s.vals, Type: s.t, Meta: s.meta, Dirs: s.dirs}
	return &c.spare
}

// whole replaces the patch value of s by the format's data for it.
func (c *collator) whole(s *spot, v value.Value) error {
	d, err := c.opts.Patch.Whole(c.scratch(s), v)
	s.vals.Local = d
	return err
}

// patchMap builds the node of a patch map.
func (c *collator) patchMap(s *spot, depth int) (elements.Element, error) {
	if err := kindFits(s, elements.Patch); err != nil {
		return nil, err
	}
	data, dirs, byField, err := c.opts.Patch.Map(c.scratch(s))
	if err != nil {
		return nil, err
	}
	hasLive := s.vals.HasLive && s.vals.Live.IsMap()
	if dirs != nil && dirs.Directive != "" {
		switch {
		case !hasLive:
			// A directive map for a field live lacks is dropped (the field
			// stays absent), as strategicpatch does.
			s.vals.Local = value.Null
		case dirs.Directive == "delete":
			// Document 001: the map is deleted; without the gate, an empty
			// map stays, as strategicpatch leaves it.
			s.dirs, s.vals.Local = dirs, value.Null
			if !c.opts.Gates.Enabled(features.PatchDeleteRemovesMap) {
				s.vals.Local = value.MapFromSorted(nil)
			}
		default:
			s.dirs = dirs
			if err := c.whole(s, value.MapFromSorted(data)); err != nil {
				return nil, err
			}
		}
		return c.atomic(s), nil
	}
	s.dirs = dirs
	if s.meta.Strategy.Has(openapi.StrategyReplace) && hasLive {
		// A map whose schema strategy is replace is the patch's, whole.
		if err := c.whole(s, value.MapFromSorted(data)); err != nil {
			return nil, err
		}
		return c.atomic(s), nil
	}
	if !hasLive {
		s.vals.Live, s.vals.HasLive = value.Value{}, false
	}
	return c.fieldsNode(s, data, byField, depth)
}

// patchList builds the node of a list the patch sets, or of a live list
// "$setElementOrder/<field>" reorders while the patch leaves it out.
func (c *collator) patchList(s *spot, depth int) (elements.Element, error) {
	if s.vals.HasLocal {
		if err := kindFits(s, elements.Patch); err != nil {
			return nil, err
		}
	}
	if !merged(s.t, &s.meta) {
		// The patch's list replaces live's whole.
		if err := c.whole(s, s.vals.Local); err != nil {
			return nil, err
		}
		return c.atomic(s), nil
	}
	_, pItems, live := s.vals.Lists()
	kind, err := c.opts.Patch.List(c.scratch(s))
	switch {
	case err != nil:
		return nil, err
	case kind == ListEmpty:
		// Nothing to merge or order: the patch's empty list, or live's.
		return c.atomic(s), nil
	case kind == ListObjects && c.setOfMaps(s):
	case kind == ListObjects:
		if len(s.meta.MergeKey) == 0 {
			return nil, failAt(s, elements.Patch, "the schema gives this merged list of objects no merge key, so its items cannot be matched")
		}
		if err := keyFits(s, elements.Patch); err != nil {
			return nil, err
		}
		e := alloc(&c.lists)
		c.fill(&e.Node, s)
		return e, c.patchItems(e, pItems, live, depth)
	}
	e := alloc(&c.sets)
	c.fill(&e.Node, s)
	return e, c.setItems(e)
}

// patchItems collates a merged list of maps of a patch: the patch's data
// items, matched to live's by identity, then live's other items, then
// live's repeats of a key (LiveExtra). Live items whose key a "$patch:
// delete" item names are left out; a "$patch: replace" item makes the data
// items replace live's (live's items stay members, Deleted, for the order
// of the server's view).
func (c *collator) patchItems(e *elements.ListElement, pItems, live []value.Value, depth int) error {
	n := &e.Node
	itemType := n.Type.Item()
	kx := elements.NewIndex(len(n.Meta.MergeKey), len(pItems)+len(live))
	size := len(pItems) + len(live)
	gone := make([]bool, 0, size) // by key ID: deleted by a "$patch: delete" item
	replace := false
	items := carve(&c.itemSlab, len(pItems)+len(live))[:0]
	itemKey := make([]int, 0, size)    // by Item: its key ID
	firstOf := make([]int, 0, size)    // by key ID: its Item, -1 when none yet
	seq := make([]int, 0, len(pItems)) // the patch's items but deletions: key IDs, -1 for replace
	keyID := func(k *elements.Key) int {
		id, fresh := kx.ID(k)
		if fresh {
			gone = append(gone, false)
			firstOf = append(firstOf, -1)
		}
		return id
	}
	for i, it := range pItems {
		d, err := c.opts.Patch.Item(n, i, it)
		if err != nil {
			return err
		}
		if d == "replace" {
			replace = true
			seq = append(seq, -1)
			continue
		}
		k, err := localKey(n, i, it, itemType, elements.Patch)
		if err != nil {
			return err
		}
		id := keyID(&k)
		if d == "delete" {
			gone[id] = true
			continue
		}
		if at := firstOf[id]; at >= 0 {
			return duplicateKey(n, items[at].LocalIndex, i, it, itemType, elements.Patch)
		}
		seq = append(seq, id)
		firstOf[id] = len(items)
		items = append(items, item(-1, i, -1, -1))
		itemKey = append(itemKey, id)
	}
	var extra []elements.Item
	for i, it := range live {
		k, err := localKey(n, i, it, itemType, elements.Live)
		if err != nil {
			return err
		}
		id := keyID(&k)
		switch at := firstOf[id]; {
		case gone[id]:
		case at < 0:
			firstOf[id] = len(items)
			items = append(items, item(-1, -1, i, -1))
			items[len(items)-1].Deleted = replace
			itemKey = append(itemKey, id)
		case items[at].LiveIndex < 0:
			// The first live item of a key the patch names.
			items[at].LiveIndex = i
		default:
			x := item(-1, -1, i, at)
			x.Deleted = replace
			extra = append(extra, x)
		}
	}
	if err := c.keyedOrder(n, items, itemKey, seq, keyID); err != nil {
		return err
	}
	if replace {
		if n.Dirs == nil {
			n.Dirs = &elements.Directives{}
		}
		n.Dirs.ReplaceList = true
	}
	e.Items, e.LiveExtra = items, extra
	return c.patchMembers(e, pItems, live, depth)
}

// patchMembers builds the elements of a patched list's members: a data
// item merges with live's item of its key (or, in a replaced list, is the
// patch's, whole); live's other items are live's, whole.
func (c *collator) patchMembers(e *elements.ListElement, pItems, live []value.Value, depth int) error {
	itemType := e.Type.Item()
	for p := range e.Items {
		it := &e.Items[p]
		cs := spot{parent: e, t: itemType}
		switch {
		case it.LocalIndex < 0:
			cs.vals = elements.Values{Live: live[it.LiveIndex], HasLive: true}
		case e.Dirs != nil && e.Dirs.ReplaceList:
			cs.vals = elements.Values{Local: pItems[it.LocalIndex], HasLocal: true}
			if err := c.whole(&cs, cs.vals.Local); err != nil {
				return err
			}
		default:
			cs.vals = elements.Values{Local: pItems[it.LocalIndex], HasLocal: true}
			if it.LiveIndex >= 0 {
				cs.vals.Live, cs.vals.HasLive = live[it.LiveIndex], true
			}
			child, err := c.patchNode(cs, depth+1)
			if err != nil {
				return err
			}
			it.Element = child
			continue
		}
		it.Element = c.atomic(&cs)
	}
	for j := range e.LiveExtra {
		e.LiveExtra[j].Element = c.atomic(&spot{parent: e, t: itemType, vals: elements.Values{Live: live[e.LiveExtra[j].LiveIndex], HasLive: true}})
	}
	return nil
}

// keyedOrder sets each Item's OrderIndex from the "$setElementOrder" list
// of n, whose entries are objects holding the merge key, and has the
// format check it against seq, the patch's items.
func (c *collator) keyedOrder(n *elements.Node, items []elements.Item, itemKey, seq []int, keyID func(*elements.Key) int) error {
	if n.Dirs == nil || !n.Dirs.HasSetOrder {
		return nil
	}
	name := "$setElementOrder/" + n.Name
	posOf := make([]int, 0, len(itemKey)+n.Dirs.SetOrder.Len()) // by key ID
	order := make([]int, 0, n.Dirs.SetOrder.Len())
	for i, it := range n.Dirs.SetOrder.Items() {
		if !it.IsMap() {
			return n.Errorf(elements.Patch, name+" item "+strconv.Itoa(i)+": expected an object holding the merge key ("+keyNames(n.Meta.MergeKey)+"), got "+it.Kind().String())
		}
		k, missing, bad := elements.KeyOf(it, n.Meta.MergeKey, n.Type.Item())
		if missing != "" {
			return n.Errorf(elements.Patch, KeyMessage(name+" item", i, missing, bad, n.Meta.MergeKey))
		}
		id := keyID(&k)
		order = append(order, id)
		for len(posOf) <= id {
			posOf = append(posOf, -1)
		}
		if posOf[id] < 0 {
			posOf[id] = i
		}
	}
	for p := range items {
		if id := itemKey[p]; id < len(posOf) {
			items[p].OrderIndex = int32(posOf[id])
		}
	}
	return c.opts.Patch.Order(n, seq, order)
}

// setOrder marks the items of a patch's merged set: OrderIndex from the
// "$setElementOrder" list (scalars), Deleted for the values
// "$deleteFromPrimitiveList" names. index maps values to items.
func (c *collator) setOrder(e *elements.SetElement, index map[value.ScalarKey]int, objects bool) error {
	d := e.Dirs
	if d == nil {
		return nil
	}
	if d.HasSetOrder {
		order := make([]int, d.SetOrder.Len())
		for i, v := range d.SetOrder.Items() {
			k, ok := elements.SetKey(v, objects)
			if !ok || v.IsNull() {
				return e.Errorf(elements.Patch, "$setElementOrder/"+e.Name+" item "+strconv.Itoa(i)+": expected a scalar (the list holds scalars), got "+v.Kind().String())
			}
			p, found := index[k]
			if !found {
				p = len(index)
				index[k] = p
			}
			if order[i] = p; p < len(e.Items) && e.Items[p].OrderIndex < 0 {
				e.Items[p].OrderIndex = int32(i)
			}
		}
		seq := make([]int, 0, e.Local.Len())
		for _, v := range e.Local.Items() {
			k, _ := elements.SetKey(v, objects)
			seq = append(seq, index[k])
		}
		if err := c.opts.Patch.Order(&e.Node, seq, order); err != nil {
			return err
		}
	}
	if d.HasDeleteFromList {
		for _, v := range d.DeleteFromList.Items() {
			if k, ok := elements.SetKey(v, objects); ok {
				if p, found := index[k]; found && p < len(e.Items) {
					e.Items[p].Deleted = true
				}
			}
		}
	}
	return nil
}
