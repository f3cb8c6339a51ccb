package collate

import (
	"strconv"
	"sync"

	"github.com/plyproject/ply/internal/elements"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/pkg/fieldpath"
	"github.com/plyproject/ply/pkg/value"
)

// Options control a collation.
type Options struct {
	// Patch, when set, says Local holds a strategic merge patch (pkg/patch)
	// whose directives Patch reads into the nodes' elements.Directives;
	// nil, Local is configuration.
	Patch Format
	// MaxDepth bounds the nesting a patch may reach (Patch only; merges
	// check their sources whole first); 0 means no bound.
	MaxDepth int
	// Gates switch ply's departures from kubectl (pkg/features).
	Gates features.Gates
	// Lenient collates an object the server holds as local (kubectl's
	// conflict check diffs the last applied configuration with live as
	// local), accepting what kubectl's diff accepts there and a
	// configuration may not hold: where local's kind does not fit the
	// schema the node is atomic, as where live's kind differs from local's;
	// of local items of a merged list that repeat a key (or a set value)
	// the first is matched and the others are left out, as live's are.
	// Items without their key, or not objects, and set values that are not
	// scalars are errors still (kubectl fails on them too).
	Lenient bool
}

// Collate builds the Element tree of one object from its values and its
// root type (openapi.Unknown when the kind has no schema). The root of the
// tree has no Parent and an empty path; nodes are numbered from 0.
func Collate(vals elements.Values, root *openapi.Type, opts Options) (elements.Element, error) {
	tree, _, err := Count(vals, root, opts)
	return tree, err
}

// Count is Collate that also returns the number of nodes built (their IDs
// are 0..n-1), so that Phase 2 can size its tables once.
func Count(vals elements.Values, root *openapi.Type, opts Options) (elements.Element, int, error) {
	c := collator{opts: opts}
	tree, err := c.collate(vals, root)
	return tree, int(c.nodes), err
}

// CountIn is Count on storage taken from a pool. Give it back with
// Arena.Release once nothing refers to the tree any more; a tree still
// referred to (an error, lazy change paths) is simply not released, and
// the garbage collector takes it.
func CountIn(vals elements.Values, root *openapi.Type, opts Options) (elements.Element, int, *Arena, error) {
	c := collators.Get().(*collator)
	c.opts = opts
	tree, err := c.collate(vals, root)
	return tree, int(c.nodes), &Arena{c: c}, err
}

// Arena is the storage of one tree built by CountIn.
type Arena struct{ c *collator }

// collators keeps released collators, their slabs emptied and cleared.
var collators = sync.Pool{New: func() any { return new(collator) }}

// Release clears the tree's storage (it must keep no input alive) and
// returns it to the pool. The tree must not be used afterwards: its nodes
// are reused by the next CountIn. A second Release does nothing.
func (a *Arena) Release() {
	c := a.c
	if c == nil {
		return
	}
	a.c = nil
	*c = collator{
		types: reuse(c.types), maps: reuse(c.maps), lists: reuse(c.lists), sets: reuse(c.sets),
		atomics: reuse(c.atomics), prims: reuse(c.prims), empties: reuse(c.empties),
		fields: reuse(c.fields[:cap(c.fields)]), fieldSlab: reuse(c.fieldSlab), itemSlab: reuse(c.itemSlab),
	}
	collators.Put(c)
}

// reuse zeroes what a slab holds and empties it.
func reuse[T any](slab []T) []T {
	clear(slab)
	return slab[:0]
}

// collate builds the tree of vals.
func (c *collator) collate(vals elements.Values, root *openapi.Type) (elements.Element, error) {
	if root == nil {
		root = openapi.Unknown
	}
	if c.opts.Patch != nil {
		return c.patchNode(spot{vals: vals, t: root}, 0)
	}
	return c.node(nil, "", false, &vals, root, &openapi.Meta{})
}

// collator allocates the tree's nodes from slabs: a tree of n nodes costs
// O(log n) allocations per node type instead of n.
type collator struct {
	opts    Options
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
	// itemSlab holds the members of the lists and sets (Items), each
	// list's carved at its largest possible length.
	itemSlab []elements.Item
	// nodes counts the nodes built: the next node's ID.
	nodes int32
	// spare is the node the patch format is handed (scratch).
	spare elements.Node
}

// alloc returns a new zero T from slab, growing the slab in chunks. (A
// slab is zero beyond its length: fresh, or cleared by Arena.Release.)
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

// spot is where a node goes and what it holds: the data every Element's
// Node starts from.
type spot struct {
	parent elements.Element
	name   string
	vals   elements.Values
	t      *openapi.Type
	meta   openapi.Meta
	dirs   *elements.Directives
}

// fill sets n from s, numbering it.
func (c *collator) fill(n *elements.Node, s *spot) {
	n.Parent, n.Name, n.Values, n.Type, n.Meta, n.Dirs, n.ID = s.parent, s.name, s.vals, s.t, s.meta, s.dirs, c.nextID()
}

// nextID numbers a new node.
func (c *collator) nextID() int32 {
	c.nodes++
	return c.nodes - 1
}

// atomic is the AtomicElement of s.
func (c *collator) atomic(s *spot) *elements.AtomicElement {
	e := alloc(&c.atomics)
	c.fill(&e.Node, s)
	return e
}

// node builds the Element for one node of a merge. Each element is filled
// in place in its slab: nodes are large, and copying them (with the GC's
// write barriers) would cost more than deciding what they are.
func (c *collator) node(parent elements.Element, name string, item bool, vals *elements.Values, t *openapi.Type, meta *openapi.Meta) (elements.Element, error) {
	s := spot{parent: parent, name: name, vals: *vals, t: t, meta: *meta}
	if !vals.LocalSet() {
		if !nonNull(vals.Recorded, vals.HasRecorded) && !nonNull(vals.Live, vals.HasLive) {
			e := alloc(&c.empties)
			c.fill(&e.Node, &s)
			return e, nil
		}
		return c.atomic(&s), nil
	}
	local := vals.Local
	// A list item all three sources agree on is atomic: its outcome is
	// local's value, which is live's; nothing below needs deciding. (It is
	// checked for items only: higher up, comparing whole subtrees at every
	// level would rescan them once per level.)
	same := item && vals.HasLive && value.Equal(local, vals.Live) &&
		(!vals.HasRecorded || value.Equal(vals.Recorded, local))
	if err := kindFits(&s, elements.Local); err != nil {
		if !c.opts.Lenient {
			return nil, err
		}
		return c.atomic(&s), nil
	}
	switch local.Kind() {
	case value.KindMap:
		if same || meta.Strategy.Has(openapi.StrategyReplace) || (nonNull(vals.Live, vals.HasLive) && !vals.Live.IsMap()) {
			break
		}
		return c.fieldsNode(&s, local.Fields(), nil, 0)
	case value.KindList:
		if same || !merged(t, meta) || (nonNull(vals.Live, vals.HasLive) && !vals.Live.IsList()) {
			break
		}
		return c.listNode(&s)
	default:
		if !same {
			e := alloc(&c.prims)
			c.fill(&e.Node, &s)
			return e, nil
		}
	}
	return c.atomic(&s), nil
}

// merged reports whether a list of type t with metadata meta merges.
func merged(t *openapi.Type, meta *openapi.Meta) bool {
	return t.Kind == openapi.KindList && meta.Strategy.Has(openapi.StrategyMerge)
}

// listNode builds a merged list local sets: a set of scalars, or a list of
// maps keyed by merge key (a list of maps without a key is atomic).
func (c *collator) listNode(s *spot) (elements.Element, error) {
	elem := s.t.Item()
	if elem.Kind == openapi.KindPrimitive || c.setOfMaps(s) {
		e := alloc(&c.sets)
		c.fill(&e.Node, s)
		return e, c.setItems(e)
	}
	mk := s.meta.MergeKey
	if len(mk) == 0 || elem.Kind == openapi.KindList {
		return c.atomic(s), nil
	}
	if err := keyFits(s, c.local()); err != nil {
		return nil, err
	}
	e := alloc(&c.lists)
	c.fill(&e.Node, s)
	return e, c.keyedItems(e, elem)
}

// setOfMaps reports a set of maps merged as a set (features.SetOfMaps:
// without the gate, child took its merge strategy away).
func (c *collator) setOfMaps(s *spot) bool { return elements.SetOfMaps(s.t, &s.meta) }

// child resolves the type and merge metadata of field key of t, as the
// gates have them: without SetOfMaps a set of maps has no merge strategy
// and is replaced whole.
func (c *collator) child(t *openapi.Type, key string) (*openapi.Type, openapi.Meta) {
	ct, cm := t.Child(key)
	if cm.Set && !c.opts.Gates.Enabled(features.SetOfMaps) && elements.SetOfMaps(ct, &cm) {
		cm.Strategy &^= openapi.StrategyMerge
	}
	return ct, cm
}

// keyFits refuses a merge key of more fields than an identity holds.
func keyFits(s *spot, src elements.Source) error {
	if n := len(s.meta.MergeKey); n > elements.MaxKeyFields {
		return failAt(s, src, "schema declares a merge key of "+strconv.Itoa(n)+" fields; at most "+strconv.Itoa(elements.MaxKeyFields)+" are supported")
	}
	return nil
}

// fieldsNode builds a struct (TypeElement) or free-form map (MapElement)
// local (or the patch) sets to a map: its children are the sorted union of
// data (local's fields), recorded's and live's where they are maps, and
// the fields a patch gives directives (byField). depth is a patch node's
// nesting.
func (c *collator) fieldsNode(s *spot, data []value.Field, byField []FieldDirectives, depth int) (elements.Element, error) {
	var self elements.Element
	var n *elements.Node
	if s.t.Kind == openapi.KindStruct {
		e := alloc(&c.types)
		self, n = e, &e.Node
	} else {
		e := alloc(&c.maps)
		self, n = e, &e.Node
	}
	c.fill(n, s)
	var rf, vf []value.Field
	if n.HasRecorded && n.Recorded.IsMap() {
		rf = n.Recorded.Fields()
	}
	if n.HasLive && n.Live.IsMap() {
		vf = n.Live.Fields()
	}
	fs, err := c.union(data, rf, vf, byField, func(key string, cv elements.Values, cd *elements.Directives) (elements.Element, error) {
		ct, cm := c.child(n.Type, key)
		if c.opts.Patch != nil {
			return c.patchNode(spot{parent: self, name: key, vals: cv, t: ct, meta: cm, dirs: cd}, depth+1)
		}
		if len(key) > 0 && key[0] == '$' && cv.HasLocal && n.Type.Field(key) == nil {
			return nil, n.Errorf(elements.Local, strconv.Quote(key)+" is a strategic merge patch directive, not configuration: a configuration cannot hold it (apply the patch with ply patch apply)")
		}
		return c.node(self, key, false, &cv, ct, &cm)
	})
	switch e := self.(type) {
	case *elements.TypeElement:
		e.Fields = fs
	case *elements.MapElement:
		e.Fields = fs
	}
	return self, err
}

func nonNull(v value.Value, has bool) bool { return has && !v.IsNull() }

// local is the source Local holds: the patch in a patch tree.
func (c *collator) local() elements.Source {
	if c.opts.Patch != nil {
		return elements.Patch
	}
	return elements.Local
}

// failAt is an *elements.Error at the node of s (built for the message
// only: errors are rare, paths are materialised lazily).
func failAt(s *spot, src elements.Source, msg string) error {
	n := &elements.Node{Parent: s.parent, Name: s.name, Values: s.vals, Type: s.t, Meta: s.meta}
	return n.Errorf(src, msg)
}

// kindFits refuses a value of src whose kind the schema rules out (an
// object where the schema wants a list, and so on).
func kindFits(s *spot, src elements.Source) error {
	t := s.t
	v := s.vals.Local
	switch {
	case t.Kind == openapi.KindUnknown:
		return nil
	case v.IsMap():
		if t.Kind == openapi.KindStruct || t.Kind == openapi.KindMap {
			return nil
		}
	case v.IsList():
		if t.Kind == openapi.KindList {
			return nil
		}
	case t.Kind == openapi.KindPrimitive:
		return nil
	}
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
	return failAt(s, src, "expected "+want+name+", got "+v.Kind().String())
}

// union calls child for each key of the sorted union of the fields of
// local, recorded and live and of the names dirs gives directives for (a
// patch's parallel lists), in key order, with the key's values and
// directives, and returns the children.
func (c *collator) union(lf, rf, vf []value.Field, dirs []FieldDirectives, child func(string, elements.Values, *elements.Directives) (elements.Element, error)) (elements.Fields, error) {
	base := len(c.fields)
	defer func() { c.fields = c.fields[:base] }()
	i, j, k, d := 0, 0, 0, 0
	for i < len(lf) || j < len(rf) || k < len(vf) || d < len(dirs) {
		// The smallest key among the heads.
		var key string
		have := false
		if i < len(lf) {
			key, have = lf[i].Key, true
		}
		if j < len(rf) && (!have || rf[j].Key < key) {
			key, have = rf[j].Key, true
		}
		if k < len(vf) && (!have || vf[k].Key < key) {
			key, have = vf[k].Key, true
		}
		if d < len(dirs) && (!have || dirs[d].Name < key) {
			key = dirs[d].Name
		}
		var cv elements.Values
		var cd *elements.Directives
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
		if d < len(dirs) && dirs[d].Name == key {
			cd = dirs[d].Dirs
			d++
		}
		ch, err := child(key, cv, cd)
		if err != nil {
			return nil, err
		}
		c.fields = append(c.fields, elements.Field{Name: key, Element: ch})
	}
	out := carve(&c.fieldSlab, len(c.fields)-base)
	copy(out, c.fields[base:])
	return out, nil
}

// item returns a list member at the given positions (-1: not in that
// source), named by no "$setElementOrder".
func item(recorded, local, live, of int) elements.Item {
	return elements.Item{RecordedIndex: recorded, LocalIndex: local, LiveIndex: live, Of: of, OrderIndex: -1}
}

// keyedItems collates a list of maps merged by merge key.
func (c *collator) keyedItems(e *elements.ListElement, itemType *openapi.Type) error {
	n := &e.Node
	mk := n.Meta.MergeKey
	recorded, local, live := n.Lists()
	index := elements.NewIndex(len(mk), max(len(local), len(live)))
	items := carve(&c.itemSlab, len(local)+len(live))[:0]
	for i, it := range local {
		k, err := localKey(n, i, it, itemType, elements.Local)
		if err != nil {
			return err
		}
		if pos, fresh := index.ID(&k); !fresh {
			if c.opts.Lenient {
				continue
			}
			return duplicateKey(n, items[pos].LocalIndex, i, it, itemType, elements.Local)
		}
		items = append(items, item(-1, i, -1, -1))
	}
	var extra []elements.Item
	for i, it := range live {
		k, missing, _ := elements.KeyOf(it, mk, itemType)
		if !it.IsMap() || missing != "" {
			extra = append(extra, item(-1, -1, i, -1))
			continue
		}
		pos, fresh := index.ID(&k)
		switch {
		case fresh:
			items = append(items, item(-1, -1, i, -1))
		case items[pos].LiveIndex < 0:
			items[pos].LiveIndex = i
		default:
			extra = append(extra, item(-1, -1, i, pos))
		}
	}
	for i, it := range recorded {
		k, missing, _ := elements.KeyOf(it, mk, itemType)
		if !it.IsMap() || missing != "" {
			continue
		}
		pos, fresh := index.ID(&k)
		switch {
		case fresh:
			items = append(items, item(i, -1, -1, -1))
		case items[pos].RecordedIndex < 0:
			items[pos].RecordedIndex = i
		}
	}
	// Items of a merge,retainKeys list clear the fields local leaves out.
	itemMeta := openapi.Meta{Strategy: n.Meta.Strategy & openapi.StrategyRetainKeys}
	for p := range items {
		it := &items[p]
		cv := itemValues(it, recorded, local, live)
		child, err := c.node(e, "", true, &cv, itemType, &itemMeta)
		if err != nil {
			return err
		}
		it.Element = child
	}
	for p := range extra {
		extra[p].Element = c.atomic(&spot{parent: e, t: itemType, vals: elements.Values{Live: live[extra[p].LiveIndex], HasLive: true}})
	}
	e.Items = items
	e.LiveExtra = extra
	return nil
}

// itemValues are a list member's values, from its positions in the
// sources' lists.
func itemValues(it *elements.Item, recorded, local, live []value.Value) elements.Values {
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
	return cv
}

// localKey is the identity of item i of local's (or the patch's) list of
// n, or the error for an item without one.
func localKey(n *elements.Node, i int, it value.Value, itemType *openapi.Type, src elements.Source) (elements.Key, error) {
	mk := n.Meta.MergeKey
	if !it.IsMap() {
		return elements.Key{}, n.Errorf(src, "item "+strconv.Itoa(i)+": expected an object with merge key "+keyNames(mk)+", got "+it.Kind().String())
	}
	k, missing, bad := elements.KeyOf(it, mk, itemType)
	if missing == "" {
		return k, nil
	}
	return k, n.Errorf(src, KeyMessage("item", i, missing, bad, mk))
}

// KeyMessage is the message for item i (what names it) whose merge key
// field missing is absent, or not a scalar (bad).
func KeyMessage(what string, i int, missing string, bad bool, mk []string) string {
	if bad {
		return what + " " + strconv.Itoa(i) + ": merge key field \"" + missing + "\" must be a string, number or boolean"
	}
	return what + " " + strconv.Itoa(i) + " has no merge key field \"" + missing + "\" (the merge key is " + keyNames(mk) + ")"
}

// duplicateKey is the error for items first and then of src that share
// a merge key.
func duplicateKey(n *elements.Node, first, then int, it value.Value, itemType *openapi.Type, src elements.Source) error {
	if src == elements.Patch {
		return n.Errorf(src, "items "+strconv.Itoa(first)+" and "+strconv.Itoa(then)+" have the same merge key "+keyNames(n.Meta.MergeKey)+"; a patch names each item once")
	}
	at := n.Path().Child(fieldpath.Key(elements.KeyFields(it, n.Meta.MergeKey, itemType)))
	return &elements.Error{Source: src, Path: at,
		Msg: "duplicate merge key: items " + strconv.Itoa(first) + " and " + strconv.Itoa(then) + " are both " + at.String()}
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

// setItems collates a list merged as a set: of primitives, or of maps
// (features.SetOfMaps) whose items are atomic, identity the whole item
// (elements.SetKey). A value local repeats is an error (a set holds each
// value once; a patch's collapse); values live or recorded repeat collapse
// into their first occurrence.
func (c *collator) setItems(e *elements.SetElement) error {
	n := &e.Node
	recorded, local, live := n.Lists()
	index := make(map[value.ScalarKey]int, len(local)+len(live))
	items := carve(&c.itemSlab, len(local)+len(live))[:0]
	src := c.local()
	objects := c.setOfMaps(&spot{t: n.Type, meta: n.Meta})
	for i, v := range local {
		k, ok := elements.SetKey(v, objects)
		if !ok {
			what := "a scalar"
			if objects {
				what = "an object"
			}
			return n.Errorf(src, "item "+strconv.Itoa(i)+": expected "+what+" in a set list, got "+v.Kind().String())
		}
		if pos, dup := index[k]; dup {
			if src == elements.Patch || c.opts.Lenient {
				continue
			}
			return n.Errorf(src, "items "+strconv.Itoa(items[pos].LocalIndex)+" and "+strconv.Itoa(i)+" are both "+fieldpath.Show(v)+"; a set lists each value once")
		}
		index[k] = len(items)
		items = append(items, item(-1, i, -1, -1))
	}
	add := func(list []value.Value, live bool) {
		for i, v := range list {
			k, ok := elements.SetKey(v, objects)
			if !ok {
				continue
			}
			pos, found := index[k]
			if !found {
				pos = len(items)
				index[k] = pos
				items = append(items, item(-1, -1, -1, -1))
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
	e.Items = items
	if err := c.setOrder(e, index, objects); err != nil {
		return err
	}
	for p := range items {
		it := &items[p]
		cv := itemValues(it, recorded, local, live)
		is := spot{parent: e, vals: cv, t: n.Type.Item()}
		if objects {
			it.Element = c.atomic(&is)
			continue
		}
		pe := alloc(&c.prims)
		c.fill(&pe.Node, &is)
		it.Element = pe
	}
	return nil
}
