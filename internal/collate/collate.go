package collate

import (
	"strconv"

	"github.com/plyproject/ply/internal/elements"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/fieldpath"
	"github.com/plyproject/ply/pkg/value"
)

// Collate builds the Element tree of one object from its three values and
// its root type (openapi.Unknown when the kind has no schema). The root of
// the tree has no Parent and an empty path.
func Collate(vals elements.Values, root *openapi.Type) (elements.Element, error) {
	if root == nil {
		root = openapi.Unknown
	}
	var c collator
	return c.node(nil, "", false, &vals, root, &openapi.Meta{})
}

// Lenient is Collate for a tree whose local value is an object the server
// holds (kubectl's conflict check diffs the last applied configuration
// with live as local). It accepts what kubectl's diff accepts there and
// Collate refuses in local: where local's kind does not fit the schema
// (an object where it wants a list, say) the node is atomic, as it is
// where live's kind differs from local's; of local items of a merged list
// that repeat a key the first is matched and the others are left out of
// the node's Items, as live's are kept out of the match. Items without
// their key, or not objects, and set values that are not scalars are
// errors still (kubectl fails on them too).
func Lenient(vals elements.Values, root *openapi.Type) (elements.Element, error) {
	if root == nil {
		root = openapi.Unknown
	}
	c := collator{lenient: true}
	return c.node(nil, "", false, &vals, root, &openapi.Meta{})
}

// collator allocates the tree's nodes from slabs: a tree of n nodes costs
// O(log n) allocations per node type instead of n.
type collator struct {
	types   []elements.TypeElement
	maps    []elements.MapElement
	lists   []elements.ListElement
	sets    []elements.SetElement
	atomics []elements.AtomicElement
	prims   []elements.PrimitiveElement
	empties []elements.EmptyElement
	// fields is a stack of the fields of the maps being collated; done
	// maps move theirs to fieldSlab.
	fields    []elements.Field
	fieldSlab []elements.Field
	// nodes counts the nodes built: the next node's ID.
	nodes int32
	// lenient makes a local value the schema rules out atomic (Lenient).
	lenient bool
}

// alloc returns a new zero T from slab, growing the slab in chunks.
func alloc[T any](slab *[]T) *T {
	if len(*slab) == cap(*slab) {
		*slab = make([]T, 0, min(max(2*cap(*slab), 4), 512))
	}
	*slab = (*slab)[:len(*slab)+1]
	return &(*slab)[len(*slab)-1]
}

// carve returns a slice of n elements from slab, with capacity n.
func carve[T any](slab *[]T, n int) []T {
	if cap(*slab)-len(*slab) < n {
		*slab = make([]T, 0, max(n, min(max(2*cap(*slab), 16), 4096)))
	}
	start := len(*slab)
	*slab = (*slab)[:start+n]
	return (*slab)[start : start+n : start+n]
}

// node builds the Element for one node.
func (c *collator) node(parent elements.Element, name string, item bool, vals *elements.Values, t *openapi.Type, meta *openapi.Meta) (elements.Element, error) {
	// Each element is filled in place in its slab: nodes are large, and
	// copying them (with the GC's write barriers) would cost more than
	// deciding what they are.
	fill := func(n *elements.Node) {
		n.Parent, n.Name, n.Values, n.Type, n.Meta, n.ID = parent, name, *vals, t, *meta, c.nextID()
	}
	fail := func() *elements.Node {
		n := &elements.Node{}
		fill(n)
		return n
	}
	leaf := func() (elements.Element, error) {
		e := alloc(&c.atomics)
		fill(&e.Node)
		return e, nil
	}
	if !vals.LocalSet() {
		if !nonNull(vals.Recorded, vals.HasRecorded) && !nonNull(vals.Live, vals.HasLive) {
			e := alloc(&c.empties)
			fill(&e.Node)
			return e, nil
		}
		return leaf()
	}
	local := vals.Local
	atomic := item && vals.HasLive && value.Equal(local, vals.Live) &&
		(!vals.HasRecorded || value.Equal(vals.Recorded, local))
	// (atomic: a list item all three sources agree on: its outcome is
	// local's value, which is live's; nothing below needs deciding. It is
	// checked for items only: higher up, comparing whole subtrees at every
	// level would rescan them once per level.)
	switch local.Kind() {
	case value.KindMap:
		if t.Kind != openapi.KindStruct && t.Kind != openapi.KindMap && t.Kind != openapi.KindUnknown {
			if !c.lenient {
				return nil, mismatch(fail(), t, local)
			}
			break
		}
		if atomic || meta.Strategy.Has(openapi.StrategyReplace) || (nonNull(vals.Live, vals.HasLive) && !vals.Live.IsMap()) {
			break
		}
		if t.Kind == openapi.KindStruct {
			e := alloc(&c.types)
			fill(&e.Node)
			fs, err := c.collectFields(e, &e.Node)
			e.Fields = fs
			return e, err
		}
		e := alloc(&c.maps)
		fill(&e.Node)
		fs, err := c.collectFields(e, &e.Node)
		e.Fields = fs
		return e, err
	case value.KindList:
		if t.Kind != openapi.KindList && t.Kind != openapi.KindUnknown {
			if !c.lenient {
				return nil, mismatch(fail(), t, local)
			}
			break
		}
		if atomic || t.Kind != openapi.KindList || !meta.Strategy.Has(openapi.StrategyMerge) ||
			(nonNull(vals.Live, vals.HasLive) && !vals.Live.IsList()) {
			break
		}
		elem := t.Item()
		if elem.Kind == openapi.KindPrimitive {
			e := alloc(&c.sets)
			fill(&e.Node)
			items, err := c.setItems(e, &e.Node, elem)
			e.Items = items
			return e, err
		}
		if len(meta.MergeKey) == 0 || elem.Kind == openapi.KindList {
			break
		}
		if len(meta.MergeKey) > elements.MaxKeyFields {
			return nil, fail().Errorf(elements.Local, "schema declares a merge key of "+strconv.Itoa(len(meta.MergeKey))+" fields; at most "+strconv.Itoa(elements.MaxKeyFields)+" are supported")
		}
		e := alloc(&c.lists)
		fill(&e.Node)
		err := c.keyedItems(e, elem)
		return e, err
	default:
		if t.Kind != openapi.KindPrimitive && t.Kind != openapi.KindUnknown {
			if !c.lenient {
				return nil, mismatch(fail(), t, local)
			}
			break
		}
		if !atomic {
			e := alloc(&c.prims)
			fill(&e.Node)
			return e, nil
		}
	}
	return leaf()
}

func nonNull(v value.Value, has bool) bool { return has && !v.IsNull() }

func (c *collator) atomic(n *elements.Node) *elements.AtomicElement {
	e := alloc(&c.atomics)
	e.Node = *n
	e.ID = c.nextID()
	return e
}

// nextID numbers a new node.
func (c *collator) nextID() int32 {
	c.nodes++
	return c.nodes - 1
}

// mismatch is the error for a local value whose kind the schema rules out.
func mismatch(n *elements.Node, t *openapi.Type, got value.Value) error {
	want := "a " + t.Kind.String()
	switch t.Kind {
	case openapi.KindStruct, openapi.KindMap:
		want = "an object"
	case openapi.KindList:
		want = "a list"
	case openapi.KindPrimitive:
		want = "a scalar"
		switch t.Primitive {
		case "":
		case "integer":
			want = "an integer"
		default:
			want = "a " + t.Primitive
		}
	}
	name := ""
	if t.Name != "" {
		name = " (" + t.Name + ")"
	}
	return n.Errorf(elements.Local, "expected "+want+name+", got "+got.Kind().String())
}

// fields collates the children of a map-like node whose local value is a
// map: the sorted union of the keys of local, and of recorded and live where
// they are maps.
func (c *collator) collectFields(self elements.Element, n *elements.Node) (elements.Fields, error) {
	lf := n.Local.Fields()
	var rf, vf []value.Field
	if n.HasRecorded && n.Recorded.IsMap() {
		rf = n.Recorded.Fields()
	}
	if n.HasLive && n.Live.IsMap() {
		vf = n.Live.Fields()
	}
	base := len(c.fields)
	defer func() { c.fields = c.fields[:base] }()
	i, j, k := 0, 0, 0
	for i < len(lf) || j < len(rf) || k < len(vf) {
		// The smallest key among the three heads.
		var key string
		have := false
		if i < len(lf) {
			key, have = lf[i].Key, true
		}
		if j < len(rf) && (!have || rf[j].Key < key) {
			key, have = rf[j].Key, true
		}
		if k < len(vf) && (!have || vf[k].Key < key) {
			key = vf[k].Key
		}
		var cv elements.Values
		if i < len(lf) && lf[i].Key == key {
			cv.Local, cv.HasLocal = lf[i].Value, true
			i++
		}
		if j < len(rf) && rf[j].Key == key {
			cv.Recorded, cv.HasRecorded = rf[j].Value, true
			j++
		}
		if k < len(vf) && vf[k].Key == key {
			cv.Live, cv.HasLive = vf[k].Value, true
			k++
		}
		ct, cm := n.Type.Child(key)
		child, err := c.node(self, key, false, &cv, ct, &cm)
		if err != nil {
			return nil, err
		}
		c.fields = append(c.fields, elements.Field{Name: key, Element: child})
	}
	out := carve(&c.fieldSlab, len(c.fields)-base)
	copy(out, c.fields[base:])
	return out, nil
}

// keyedItems collates a list of maps merged by merge key.
func (c *collator) keyedItems(e *elements.ListElement, itemType *openapi.Type) error {
	n := &e.Node
	mk := n.Meta.MergeKey
	local := n.Local.Items()
	var live, recorded []value.Value
	if n.HasLive && n.Live.IsList() {
		live = n.Live.Items()
	}
	if n.HasRecorded && n.Recorded.IsList() {
		recorded = n.Recorded.Items()
	}
	index := elements.NewIndex(len(mk), max(len(local), len(live)))
	items := make([]elements.Item, 0, len(local)+len(live))
	for i, it := range local {
		if !it.IsMap() {
			return n.Errorf(elements.Local, "item "+strconv.Itoa(i)+": expected an object with merge key "+keyNames(mk)+", got "+it.Kind().String())
		}
		k, missing, bad := elements.KeyOf(it, mk, itemType)
		if missing != "" {
			msg := "item " + strconv.Itoa(i) + " has no merge key field \"" + missing + "\" (the merge key is " + keyNames(mk) + ")"
			if bad {
				msg = "item " + strconv.Itoa(i) + ": merge key field \"" + missing + "\" must be a string, number or boolean"
			}
			return n.Errorf(elements.Local, msg)
		}
		if pos, fresh := index.ID(&k); !fresh {
			if c.lenient {
				continue
			}
			at := n.Path().Child(fieldpath.Key(elements.KeyFields(it, mk, itemType)))
			path := at.String()
			return &elements.Error{Source: elements.Local, Path: at,
				Msg: "duplicate merge key: items " + strconv.Itoa(items[pos].LocalIndex) + " and " + strconv.Itoa(i) + " are both " + path}
		}
		items = append(items, elements.Item{RecordedIndex: -1, LocalIndex: i, LiveIndex: -1, Of: -1})
	}
	var extra []elements.Item
	for i, it := range live {
		if !it.IsMap() {
			extra = append(extra, elements.Item{RecordedIndex: -1, LocalIndex: -1, LiveIndex: i, Of: -1})
			continue
		}
		k, missing, _ := elements.KeyOf(it, mk, itemType)
		if missing != "" {
			extra = append(extra, elements.Item{RecordedIndex: -1, LocalIndex: -1, LiveIndex: i, Of: -1})
			continue
		}
		pos, fresh := index.ID(&k)
		switch {
		case fresh:
			items = append(items, elements.Item{RecordedIndex: -1, LocalIndex: -1, LiveIndex: i, Of: -1})
		case items[pos].LiveIndex < 0:
			items[pos].LiveIndex = i
		default:
			extra = append(extra, elements.Item{RecordedIndex: -1, LocalIndex: -1, LiveIndex: i, Of: pos})
		}
	}
	for i, it := range recorded {
		if !it.IsMap() {
			continue
		}
		k, missing, _ := elements.KeyOf(it, mk, itemType)
		if missing != "" {
			continue
		}
		pos, fresh := index.ID(&k)
		switch {
		case fresh:
			items = append(items, elements.Item{RecordedIndex: i, LocalIndex: -1, LiveIndex: -1, Of: -1})
		case items[pos].RecordedIndex < 0:
			items[pos].RecordedIndex = i
		}
	}
	// Items of a merge,retainKeys list clear the fields local leaves out.
	itemMeta := openapi.Meta{Strategy: n.Meta.Strategy & openapi.StrategyRetainKeys}
	for p := range items {
		it := &items[p]
		var cv elements.Values
		if it.LocalIndex >= 0 {
			cv.Local, cv.HasLocal = local[it.LocalIndex], true
		}
		if it.LiveIndex >= 0 {
			cv.Live, cv.HasLive = live[it.LiveIndex], true
		}
		if it.RecordedIndex >= 0 {
			cv.Recorded, cv.HasRecorded = recorded[it.RecordedIndex], true
		}
		child, err := c.node(e, "", true, &cv, itemType, &itemMeta)
		if err != nil {
			return err
		}
		it.Element = child
	}
	for p := range extra {
		it := &extra[p]
		it.Element = c.atomic(&elements.Node{
			Parent: e, Type: itemType,
			Values: elements.Values{Live: live[it.LiveIndex], HasLive: true},
		})
	}
	e.Items = items
	e.LiveExtra = extra
	return nil
}

func keyNames(mk []string) string {
	s := ""
	for i, k := range mk {
		if i > 0 {
			s += ","
		}
		s += k
	}
	return s
}

// setItems collates a list of primitives merged as a set. Duplicate values
// collapse into one item (the first occurrence of each source).
func (c *collator) setItems(self elements.Element, n *elements.Node, itemType *openapi.Type) ([]elements.Item, error) {
	local := n.Local.Items()
	var live, recorded []value.Value
	if n.HasLive && n.Live.IsList() {
		live = n.Live.Items()
	}
	if n.HasRecorded && n.Recorded.IsList() {
		recorded = n.Recorded.Items()
	}
	index := make(map[value.ScalarKey]int, len(local)+len(live))
	items := make([]elements.Item, 0, len(local)+len(live))
	for i, v := range local {
		k, ok := v.Key()
		if !ok {
			return nil, n.Errorf(elements.Local, "item "+strconv.Itoa(i)+": expected a scalar in a set list, got "+v.Kind().String())
		}
		if _, dup := index[k]; dup {
			continue
		}
		index[k] = len(items)
		items = append(items, elements.Item{RecordedIndex: -1, LocalIndex: i, LiveIndex: -1, Of: -1})
	}
	add := func(list []value.Value, live bool) {
		for i, v := range list {
			k, ok := v.Key()
			if !ok {
				continue
			}
			pos, found := index[k]
			if !found {
				pos = len(items)
				index[k] = pos
				items = append(items, elements.Item{RecordedIndex: -1, LocalIndex: -1, LiveIndex: -1, Of: -1})
			}
			it := &items[pos]
			if live && it.LiveIndex < 0 {
				it.LiveIndex = i
			} else if !live && it.RecordedIndex < 0 {
				it.RecordedIndex = i
			}
		}
	}
	add(live, true)
	add(recorded, false)
	for p := range items {
		it := &items[p]
		var cv elements.Values
		var v value.Value
		if it.LocalIndex >= 0 {
			v = local[it.LocalIndex]
			cv.Local, cv.HasLocal = v, true
		}
		if it.LiveIndex >= 0 {
			v = live[it.LiveIndex]
			cv.Live, cv.HasLive = v, true
		}
		if it.RecordedIndex >= 0 {
			if it.LocalIndex < 0 && it.LiveIndex < 0 {
				v = recorded[it.RecordedIndex]
			}
			cv.Recorded, cv.HasRecorded = recorded[it.RecordedIndex], true
		}
		if it.LocalIndex >= 0 {
			v = local[it.LocalIndex]
		}
		pe := alloc(&c.prims)
		pe.Node = elements.Node{Parent: self, Values: cv, Type: itemType, ID: c.nextID()}
		it.Element = pe
	}
	return items, nil
}
