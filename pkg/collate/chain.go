package collate

import (
	"github.com/plyproject/ply/internal/order"
	"math"
	"slices"
	"strings"

	"github.com/plyproject/ply/internal/probe"
	"github.com/plyproject/ply/internal/smp"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/collate/internal/format"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/pkg/fieldpath"
	"github.com/plyproject/ply/pkg/value"
)

// A layer is a tree the outcome a repeat is applied to is built from: its member's, or an earlier repeat's of its key
// (repeat), merged in turn onto the ones before it. A list of a repeat's layer is a base whose outcome Phase 2 lays out
// only where it merged that repeat from its tree (elements.Chain.Laid): that repeat may have been applied otherwise.
// onto is that repeat's elements.Repeat.Onto: the nodes its directive maps are where the outcome holds a map there.
type layer struct {
	e      elements.Element
	repeat bool
	onto   map[int32]elements.Element
}

// chain pairs the merged lists of repeat tree r with their places in base, the tree of the member r is applied to
// (elements.Chain), as a collation of r with base's outcome as live would pair them: through maps by field name, and
// through the items a chained keyed list pairs by key. A node of base a merge rule decides is not paired: its outcome
// need not be its children's.
func chain(r, base elements.Element) { chainOnto(r, []layer{{e: base}}) }

// chainOnto is chain for r applied to the outcome of layers (oldest first): each merged list of r is paired with the
// newest layer's list at its place, found through maps by field name (fieldLayers).
func chainOnto(r elements.Element, layers []layer) {
	top := layers[len(layers)-1]
	if top.e.Base().Ruled {
		return
	}
	switch r := r.(type) {
	case *elements.MapElement:
		for _, f := range r.Fields {
			if sub := fieldLayers(layers, f.Name); len(sub) > 0 {
				chainOnto(f.Element, sub)
			}
		}
	case *elements.ListElement:
		chainKeyed(r, top)
	case *elements.SetElement:
		chainSet(r, top)
	}
}

// fieldLayers returns the layers of field name of maps layers (oldest first): the field's node in the newest layer
// holding it, and below it those of older layers, while each newer one is a map its older ones merge under (no rule, no
// "$retainKeys" leaving name out). A layer that is no such map ends the search: the outcome there is its. A layer whose
// outcome is a map value whole (wholeMap: live's map the member leaves as it is, or the patch's map taken whole, a
// "$patch: replace" map among them) gives the field's value in it as a node of live's value, the outcome there
// (heldIn: of no repeat's, as a list there is laid out from that value, visitors' liveLayout, however the layer was
// applied), and ends the search too. A repeat's directive map is the node it is onto a map (layer.onto: ontoField).
func fieldLayers(layers []layer, name string) []layer {
	var sub []layer
	for i := len(layers) - 1; i >= 0; i-- {
		if whole, ok := wholeMap(layers[i].e); ok {
			if held := heldIn(layers[i].e, whole, name); held != nil {
				sub = append(sub, layer{e: held}) // (a value, laid out from itself whoever applied its layer)
			}
			break
		}
		m, _ := layers[i].e.(*elements.MapElement)
		if m == nil || m.Ruled {
			break
		}
		if j, found := slices.BinarySearchFunc(m.Fields, name, byName); found {
			f := ontoField(layers[i], m.Fields[j].Element)
			sub = append(sub, f)
			if _, isMap := f.e.(*elements.MapElement); !isMap {
				break
			}
		} else if m.Dirs != nil && m.Dirs.HasRetainKeys && !slices.Contains(m.Dirs.RetainKeys, name) {
			break
		}
	}
	slices.Reverse(sub)
	return sub
}

// ontoField returns the layer field node e of layer l is: for a repeat's "$patch: replace" map, the node Phase 1 built
// for it onto a map (elements.Repeat.Onto: the patch's data whole, a wholeMap, whose lists are laid out from that
// value as live's where the outcome holds them so: visitors' liveLayout), else e.
func ontoField(l layer, e elements.Element) layer {
	if onto, ok := l.onto[e.Base().ID]; ok && l.repeat {
		e = onto
	}
	return layer{e: e, repeat: l.repeat, onto: l.onto}
}

// wholeMap returns the map value that is the outcome of atomic node e of a layer, where Phase 2 walks it so (Decide):
// the patch's map (data taken whole), or live's map where the patch leaves the field out and says nothing of it (and no
// last apply held it); ok is false for another node, or one a merge rule decides.
func wholeMap(e elements.Element) (value.Value, bool) {
	a, _ := e.(*elements.AtomicElement)
	switch {
	case a == nil || a.Ruled || a.Dirs != nil:
		return value.Value{}, false
	case a.HasLocal:
		return a.Local, a.Local.IsMap()
	}
	return a.Live, a.HasLive && !a.HasRecorded && a.Live.IsMap()
}

// heldIn returns, for field name of map whole, the outcome of atomic node parent (wholeMap), a node holding the field's
// value as live's and nothing of the patch's (takenFromLive for a list: a chain base laid out from that value), of the
// field's type; nil where whole lacks the field.
func heldIn(parent elements.Element, whole value.Value, name string) elements.Element {
	v, found := whole.Get(name)
	if !found {
		return nil
	}
	t, meta := parent.Base().Type.Child(name)
	return &elements.AtomicElement{Node: elements.Node{Parent: parent, Name: name, Type: t, Meta: meta,
		Values: elements.Values{Live: v, HasLive: true}, ID: -1}}
}

// orderedLeftOut gives each field of repeat tree r, through its maps, that r's patch leaves out but orders by
// "$setElementOrder" or deletes from by "$deleteFromPrimitiveList" alone (an atomic node without a value, as the
// repeat's tree without live builds it), where layers, the trees of the outcome r is applied to (fieldLayers), hold a
// merged list there of baseValues' kinds (a keyed list, a set of scalars, live's list of maps or of scalars taken
// whole, live's scalars less those deleted by "$deleteFromPrimitiveList" alone), the list node a collation of r with that outcome as live builds: a list without items of the patch, paired
// with the newest layer's (elements.Chain, its Named from the order, its Deleted from the values deleted). Entries or
// values a collation with live would refuse leave the node as it is.
func (c *collator) orderedLeftOut(r elements.Element, layers []layer) {
	m, _ := r.(*elements.MapElement)
	if m == nil {
		return
	}
	for i, f := range m.Fields {
		sub := fieldLayers(layers, f.Name)
		if len(sub) == 0 {
			continue
		}
		if a, _ := f.Element.(*elements.AtomicElement); a != nil {
			if l := c.orderedList(a, sub[len(sub)-1]); l != nil {
				m.Fields[i].Element = l
			}
		} else {
			c.orderedLeftOut(f.Element, sub)
		}
	}
}

// orderedList returns the list node of orderedLeftOut for atomic node a, paired with base, or nil where a is not a
// merged list left out and ordered alone, base holds no list of a's kind (keyed, or a set of scalars; taken from live
// or deleted from alone, its items all maps or all scalars, as the collation with live classes them), or an entry of the order is not one a
// collation with live accepts.
func (c *collator) orderedList(a *elements.AtomicElement, base layer) elements.Element {
	if (a.HasLocal && !elements.EmptyOrdered(&a.Node)) || a.Dirs == nil || !ordersOrDeletesOnly(a.Dirs) || a.Ruled ||
		!elements.MergedList(a.Type, &a.Meta) {
		return nil
	}
	s := a.Node
	s.Values = elements.Values{Local: a.Local, HasLocal: a.HasLocal}
	keyed := false
	switch b := base.e.(type) {
	case *elements.ListElement:
		keyed = true
	case *elements.SetElement:
	case *elements.AtomicElement: // (a list the member takes from live: of maps keyed, of scalars a set)
		items := b.Live.Items()
		maps := slices.ContainsFunc(items, value.Value.IsMap)
		if !(takenFromLive(b) || deletedFromLive(b)) || len(items) == 0 || (maps && slices.ContainsFunc(items, func(v value.Value) bool { return !v.IsMap() })) ||
			(!maps && slices.ContainsFunc(items, func(v value.Value) bool { return !v.IsScalar() || v.IsNull() })) {
			return nil
		}
		keyed = maps
	default:
		return nil
	}
	switch {
	case keyed:
		if len(s.Meta.MergeKey) == 0 || elements.SetOfMaps(s.Type, &s.Meta) || s.Dirs.HasDeleteFromList || !keyedOrder(&s) {
			return nil
		}
		l := build(c, &c.lists, &s)
		if chainKeyed(l, base); l.Chain == nil {
			return nil
		}
		return l
	default: // (scalars in a list merged by key: the collation with them as live refuses them, visitors' orderRefused)
		if elements.SetOfMaps(s.Type, &s.Meta) || len(s.Meta.MergeKey) > 0 || slices.ContainsFunc(s.Dirs.SetOrder.Items(), func(v value.Value) bool { return !v.IsScalar() && !v.IsNull() }) ||
			(s.Dirs.HasDeleteFromList && !deletesFrom(base, s.Dirs.DeleteFromList)) {
			return nil
		}
		l := build(c, &c.sets, &s)
		if chainSet(l, base); l.Chain == nil {
			return nil
		}
		return l
	}
}

// keyedOrder reports whether each entry of keyed list n's "$setElementOrder" is a map holding its merge key.
func keyedOrder(n *elements.Node) bool {
	return !slices.ContainsFunc(n.Dirs.SetOrder.Items(), func(v value.Value) bool {
		_, err := localKey(n, "", 0, v, n.Type.Item(), elements.Patch, false)
		return err != nil
	})
}

// ontoMap records in the Repeat being collated, if any (elements.Repeat.Onto), for directive map s of its tree, which
// live lacks and which the tree holds as node dropped, the node it is where the outcome the repeat is applied to holds
// a map there, as a collation with that outcome as live builds it: a "$patch: replace" map the patch's data whole, a
// "$patch: delete" map an empty map (with gate PatchDeleteRemovesMap, a null: the field removed). Where building it
// fails (its data nesting beyond the depth limit), none is recorded and the Repeat is Deep: that error is the
// front-end's to report, applying the repeat again. A "$patch: merge" map is recorded in the Repeat's Merges.
func (c *collator) ontoMap(s *elements.Node, dropped int32, data []value.Field, directive string, depth int) {
	if c.repeat != nil && directive == smp.MergeValue {
		c.repeat.Merges = append(c.repeat.Merges, dropped)
	}
	if c.repeat == nil || (directive != smp.ReplaceValue && directive != smp.DeleteValue) {
		return
	}
	var onto elements.Element
	switch {
	case directive == smp.ReplaceValue:
		var err error
		if onto, err = c.whole(s, value.MapFromSorted(format.Own(s.Local, data)), depth, true); err != nil {
			c.repeat.Deep = true // (its data nests beyond the depth limit: clean's only error)
			return
		}
	case c.opts.Gates.Enabled(features.PatchDeleteRemovesMap):
		local := s.Local
		s.Local = value.Null
		onto = build(c, &c.atomics, s)
		s.Local = local
	default:
		s.Local = value.MapFromSorted(nil)
		onto = build(c, &c.atomics, s)
	}
	if c.repeat.Onto == nil {
		c.repeat.Onto = map[int32]elements.Element{}
	}
	c.repeat.Onto[dropped] = onto
}

// replacedOnto records in the Repeat being collated, if any (elements.Repeat.Onto), for map s of strategy replace of
// its tree, which live lacks and which the tree holds as node built, field by field, the node it is where the outcome
// the repeat is applied to holds a map there, as a collation with that outcome as live builds it: the patch's data
// whole, cleaned (null fields, directive keys and maps holding "$patch" dropped: collator.whole). Where building it
// fails, none is recorded: that error is the front-end's to report, applying the repeat again.
func (c *collator) replacedOnto(s *elements.Node, built int32, data []value.Field, depth int) {
	if c.repeat == nil || !s.Meta.Strategy.Has(openapi.StrategyReplace) {
		return
	}
	whole := *s
	onto, err := c.whole(&whole, value.MapFromSorted(format.Own(s.Local, data)), depth, true)
	if err != nil {
		return
	}
	if c.repeat.Onto == nil {
		c.repeat.Onto = map[int32]elements.Element{}
	}
	c.repeat.Onto[built] = onto
}

func byName(f elements.Field, name string) int { return strings.Compare(f.Name, name) }

// chainKeyed pairs keyed list r of a repeat's tree with base by key, and each item paired with a member of base with
// that member, unless base names that member's key again; base's items of a key r's "$patch: delete" items name are
// Gone (a data item of that key is new, as the collator leaves live's out), and with r's "$patch: replace" item every
// other is Deleted. Where r has no directive but "$setElementOrder" and "$patch: replace" (then no repeated key), and
// base is one of baseValues', naming each key once but for live's list taken as it stands, whose later items of a key
// are one more of the first (visitors' liveLayout lays them so).
func chainKeyed(r *elements.ListElement, base layer) {
	if d := r.Dirs; (d != nil && (d.HasRetainKeys || d.HasDeleteFromList || (d.ReplaceList && len(r.Repeats) > 0))) || r.Ranked {
		return
	}
	mk, t := r.Meta.MergeKey, r.Type.Item()
	values, left, ok := baseValues(base)
	if l, _ := base.e.(*elements.ListElement); !ok || (l != nil && !slices.Equal(l.Meta.MergeKey, mk)) {
		return
	}
	_, fromLive := base.e.(*elements.AtomicElement) // (live's later items of a key: one more of its first, as liveLayout lays them)
	index := make(map[elements.Key]int, len(values))
	for i, v := range values {
		if left != nil && left[i] {
			continue
		}
		k, missing, _ := elements.KeyOf(v, mk, t)
		if _, dup := index[k]; !v.IsMap() || missing != "" || (dup && !fromLive) {
			return
		} else if !dup {
			index[k] = i
		}
	}
	local := r.Local.Items()
	ch := &elements.Chain{Base: base.e, Of: make([]int, len(r.Items)), Laid: base.repeat}
	ch.Named = named(r.Dirs, len(values), func(v value.Value) (int, bool) {
		k, _, _ := elements.KeyOf(v, mk, t)
		j, found := index[k]
		return j, found
	})
	if r.Dirs != nil && r.Dirs.ReplaceList {
		for j := range values {
			if left == nil || !left[j] {
				ch.Deleted = append(ch.Deleted, j)
			}
		}
	}
	for i, it := range local { // the items "$patch: delete" leaves out (a data item of the key then is new)
		if d, _ := format.ReadItem(&r.Node, i, it); d == smp.DeleteValue {
			k, _, _ := elements.KeyOf(it, mk, t)
			if j, found := index[k]; found {
				ch.Gone = append(ch.Gone, j)
				delete(index, k)
			}
		}
	}
	for i := range r.Items {
		k, _, _ := elements.KeyOf(local[r.Items[i].LocalIndex], mk, t)
		j, found := index[k]
		if !found {
			j = -1
		} else if layers, ok := memberLayers(base.e, j); ok {
			chainOnto(r.Items[i].Element, layers)
		}
		ch.Of[i] = j
	}
	r.Chain = ch
}

// chainSet pairs set r of a repeat's tree with base by value, base's values r's "$deleteFromPrimitiveList" names
// Deleted, a Ranked r's later items of a value Joined: where r has no directive but those and "$setElementOrder", and
// base is one of baseValues' (of scalars, or of objects for a set of maps, of one kind with r's, each once but for
// live's list taken as it stands and a Ranked set taken whole, whose later items of a value join the first; for an r with no item and no
// directive, any whose items it keeps as they are: keptAsThey).
func chainSet(r *elements.SetElement, base layer) {
	if r.Dirs != nil && (r.Dirs.HasRetainKeys || r.Dirs.ReplaceList) {
		return
	}
	values, left, ok := baseValues(base)
	switch {
	case !ok:
		return
	case len(r.Items) == 0 && r.Dirs == nil: // (live's items decide the list's kind: one it merges nothing into)
		if keptAsThey(r, values, left) {
			r.Chain = &elements.Chain{Base: base.e, Laid: base.repeat}
		}
		return
	}
	objects := elements.SetOfMaps(r.Type, &r.Meta)
	if own := r.Local.Items(); !oneClass(values, left) || (len(own) > 0 && !oneClass(append(slices.Clip(values), own[0]), left)) {
		return // (the API server's merge fails on items of mixed kinds, as a collation with them as live does)
	}
	// (Live's list, taken as it stands or deleted from, may name a value again: a collation with it as live joins it to
	// the first, and visitors' liveLayout lays it out so; the API server's merge keeps the value once where the repeat
	// holds the list, and keeps the list as it is, less the values deleted, where the repeat only orders or deletes
	// from it.)
	_, dupsJoin := base.e.(*elements.AtomicElement)
	if b, _ := base.e.(*elements.SetElement); b != nil && b.Ranked && b.Chain == nil {
		dupsJoin = true // (a patch's set taken whole, its repeats kept: as live's list, visitors' rankedLayout)
	}
	index := make(map[value.ScalarKey]int, len(values))
	for i, v := range values {
		if left != nil && left[i] {
			continue
		}
		k, ok := elements.SetKey(v, objects)
		if _, dup := index[k]; !ok || (dup && !dupsJoin) {
			return
		} else if !dup {
			index[k] = i
		}
	}
	local := r.Local.Items()
	ch := &elements.Chain{Base: base.e, Of: make([]int, len(r.Items)), Laid: base.repeat}
	seen := make(map[value.ScalarKey]bool, len(r.Items))
	for i := range r.Items {
		k, _ := elements.SetKey(local[r.Items[i].LocalIndex], objects)
		j, found := index[k]
		switch {
		case seen[k]: // (a Ranked set's later item of a value: joined to the first, as with live)
			ch.Of[i], ch.Joined = -1, append(ch.Joined, i)
		case found:
			ch.Of[i] = j
		default:
			ch.Of[i] = -1
		}
		seen[k] = true
	}
	ch.Named = named(r.Dirs, len(values), func(v value.Value) (int, bool) {
		k, ok := elements.SetKey(v, objects)
		j, found := index[k]
		return j, ok && found
	})
	if r.Dirs != nil && r.Dirs.HasDeleteFromList {
		for _, v := range r.Dirs.DeleteFromList.Items() {
			if k, ok := elements.SetKey(v, objects); ok {
				if j, found := index[k]; found {
					ch.Deleted = append(ch.Deleted, j)
				}
			}
		}
	}
	r.Chain = ch
}

// keptAsThey reports whether values, the items of a chain base (left: those its outcome cannot hold), are what list r
// of a repeat's tree, empty and without directives, merged onto them keeps as they are, in their order: maps each
// holding r's merge key, no key twice, or, for a set, scalars of one class (numbers one; objects, for a set of maps),
// no value twice. The API server's merge groups the items of a repeated key or value together, each value once, and
// fails on a list of mixed kinds; so does a collation with them as live.
func keptAsThey(r *elements.SetElement, values []value.Value, left []bool) bool {
	objects := elements.SetOfMaps(r.Type, &r.Meta)
	keyed := len(r.Meta.MergeKey) > 0 && !objects
	if !oneClass(values, left) {
		return false
	}
	keys, seen := map[elements.Key]bool{}, map[value.ScalarKey]bool{}
	for i, v := range values {
		if left != nil && left[i] {
			continue
		}
		if keyed {
			key, missing, _ := elements.KeyOf(v, r.Meta.MergeKey, r.Type.Item())
			if !v.IsMap() || missing != "" || keys[key] {
				return false
			}
			keys[key] = true
			continue
		}
		sk, ok := elements.SetKey(v, objects)
		if !ok || seen[sk] || (v.IsMap() && !objects) {
			return false
		}
		seen[sk] = true
	}
	return true
}

// oneClass reports whether values, but those left marks (nil: none; past its end: none), are of one kind, numbers one.
func oneClass(values []value.Value, left []bool) bool {
	class := value.KindNull
	for i, v := range values {
		if i < len(left) && left[i] {
			continue
		}
		k := v.Kind()
		if k == value.KindFloat {
			k = value.KindInt
		}
		if class != value.KindNull && k != class {
			return false
		}
		class = k
	}
	return true
}

// baseValues returns the items of chain base b, in elements.Chain's Of numbering, for a base whose outcome Phase 2
// lays out from its tree: a keyed list whose live's later items of a key name their member (extrasKeyed), its own
// repeats merged in turn or kept apart (as a "$patch: replace" list keeps them: later items of their member's key,
// paired with none), live's items a "$patch: replace" drops Deleted, a set keeping no repeated value apart or chained
// (a Ranked one's Joined items left), or Ranked where live holds none and no "$setElementOrder" (visitors'
// rankedLayout lays its outcome out by value), either of an earlier repeat's tree (b.repeat: the chain is Laid), and then,
// chained in turn, numbered by chainedValues; a list the member takes from live whole, or whose scalars it deletes from
// by "$deleteFromPrimitiveList" alone (deletedFromLive: those deleted left). left marks the values the outcome cannot
// hold (nil: none); ok is false for another base.
func baseValues(b layer) (values []value.Value, left []bool, ok bool) {
	switch e := b.e.(type) {
	case *elements.ListElement:
		switch {
		case e.Ranked || !extrasKeyed(e):
			return nil, nil, false
		case e.Chain != nil:
			return chainedValues(&e.Node, e.Items, e.Chain)
		}
		for p := range e.Items {
			values = append(values, memberValue(&e.Items[p], &e.Node))
		}
		return values, nil, true
	case *elements.SetElement:
		switch {
		case e.Chain != nil: // (a Ranked one's later items of a value Joined: not in its outcome)
			return chainedValues(&e.Node, e.Items, e.Chain)
		case e.Ranked && (e.HasLive || e.Dirs != nil && e.Dirs.HasSetOrder):
			return nil, nil, false
		}
		for p := range e.Items {
			values = append(values, memberValue(&e.Items[p], &e.Node))
		}
		return values, nil, true
	case *elements.AtomicElement:
		if deletedFromLive(e) {
			return e.Live.Items(), deletedValues(e.Live, e.Dirs.DeleteFromList), true
		}
		return e.Live.Items(), nil, takenFromLive(e)
	}
	return nil, nil, false
}

// deletedFromLive reports whether atomic node b of a patch's tree is a list of scalars the patch leaves out but deletes
// from by "$deleteFromPrimitiveList" alone: its outcome is live's list less every item equal to a value deleted.
func deletedFromLive(b *elements.AtomicElement) bool {
	return !b.HasLocal && b.Dirs != nil && b.Dirs.HasDeleteFromList && !b.Dirs.HasSetOrder && !b.Dirs.HasRetainKeys &&
		!b.Dirs.ReplaceList && b.HasLive && b.Live.IsList() &&
		!slices.ContainsFunc(b.Live.Items(), func(v value.Value) bool { return !v.IsScalar() || v.IsNull() })
}

// deletedValues marks the items of list live equal to a value of del ("$deleteFromPrimitiveList"): those its outcome
// drops.
func deletedValues(live, del value.Value) []bool {
	left := make([]bool, live.Len())
	for i, v := range live.Items() {
		left[i] = slices.ContainsFunc(del.Items(), func(d value.Value) bool { return value.Equal(v, d) })
	}
	return left
}

// extrasKeyed reports whether keyed list e's LiveExtra, live's later items of a key, if any, each name a member (Of),
// and e keeps no repeats of its own apart: in its outcome, such an item is one more of its member's key. Those Deleted
// (a "$patch: replace" list drops live's items) are not in its outcome, so do not count.
func extrasKeyed(e *elements.ListElement) bool {
	kept := slices.ContainsFunc(e.LiveExtra, func(it elements.Item) bool { return !it.Deleted })
	return !kept || (!slices.ContainsFunc(e.LiveExtra, func(it elements.Item) bool { return it.Of < 0 }) &&
		(len(e.Repeats) == 0 || !order.RepeatsApart(e)))
}

// chainedValues returns baseValues for list n of a repeat's tree, its Items items, chained by ch: its outcome is its
// items merged onto its base's, so its members are its items, then its base's (numbered after them), those its items
// pair, leave out (Gone) or delete (Deleted) left, as those the base's outcome cannot hold, and, for live's list taken
// as it stands, its later items of a key or value (joinedLater: one more of the first), and its own Joined items.
func chainedValues(n *elements.Node, items []elements.Item, ch *elements.Chain) (values []value.Value, left []bool, ok bool) {
	under, underLeft, ok := baseValues(layer{e: ch.Base})
	if !ok {
		return nil, nil, false
	}
	if a, _ := ch.Base.(*elements.AtomicElement); a != nil && (takenFromLive(a) || deletedFromLive(a)) {
		underLeft = joinedLater(a, underLeft)
	}
	values = make([]value.Value, len(items), len(items)+len(under))
	for p := range items {
		values[p] = memberValue(&items[p], n)
	}
	values = append(values, under...)
	left = make([]bool, len(values))
	copy(left[len(items):], underLeft)
	for _, gone := range [...][]int{ch.Of, ch.Gone, ch.Deleted} {
		for _, j := range gone {
			if j >= 0 {
				left[len(items)+j] = true
			}
		}
	}
	for _, i := range ch.Joined {
		left[i] = true
	}
	return values, left, true
}

// joinedLater marks, besides those left marks (nil: none), the items of live's list b, taken as it stands
// (takenFromLive) or deleted from (deletedFromLive: left marks the values deleted), that repeat an earlier kept item's
// key (maps of a list merged by key) or value (a set's scalars, or objects of a set of maps): a list chained to b lays
// each out as one more of the first (visitors' liveLayout), merged with it or, in a set, kept once, so that only the
// first is a member of the list's outcome that a later repeat's list pairs with.
func joinedLater(b *elements.AtomicElement, left []bool) []bool {
	earliest := elements.EarliestOfKeys(b, b.Live.Items(), left)
	joined := make([]bool, len(earliest))
	for i, at := range earliest {
		joined[i] = at != i // (-1: left marks it)
	}
	return joined
}

// memberLayers returns the layers of the outcome of member j (Of numbering) of chain base b (baseValues'): a patch's
// list's item, unless the list names its key again; for a list chained in turn, its item over the layers of the base
// member it is paired with, or the base's member. ok is false where they are not known.
func memberLayers(b elements.Element, j int) (layers []layer, ok bool) {
	l, _ := b.(*elements.ListElement)
	switch {
	case l == nil:
		return nil, false
	case j < len(l.Items) && (slices.ContainsFunc(l.Repeats, func(rp elements.Repeat) bool { return rp.ID == j }) ||
		slices.ContainsFunc(l.LiveExtra, func(it elements.Item) bool { return it.Of == j && !it.Deleted })):
		return nil, false
	case l.Chain == nil:
		return []layer{{e: l.Items[j].Element}}, true
	case j >= len(l.Items):
		return memberLayers(l.Chain.Base, j-len(l.Items))
	}
	if under := l.Chain.Of[j]; under >= 0 {
		if layers, ok = memberLayers(l.Chain.Base, under); !ok {
			return nil, false
		}
	}
	return append(slices.Clip(layers), layer{e: l.Items[j].Element, repeat: true}), true
}

// takenFromLive reports whether atomic node b of a patch's tree is a list the patch leaves to live: its outcome is
// live's list, as it is.
func takenFromLive(b *elements.AtomicElement) bool {
	return !b.HasLocal && b.Dirs == nil && b.HasLive && b.Live.IsList()
}

// memberValue is the value of list n's member it: the patch's item, else live's.
func memberValue(it *elements.Item, n *elements.Node) value.Value {
	if it.LocalIndex >= 0 {
		return n.Local.Items()[it.LocalIndex]
	}
	return n.Live.Items()[it.LiveIndex]
}

// ordersOrDeletesOnly reports whether d is a list's "$setElementOrder" or "$deleteFromPrimitiveList", or both, and
// nothing more.
func ordersOrDeletesOnly(d *elements.Directives) bool {
	return (d.HasSetOrder || d.HasDeleteFromList) && !d.HasRetainKeys && !d.ReplaceList
}

// deletesFrom reports whether "$deleteFromPrimitiveList" values del apply to the outcome of set base, as a collation
// with that outcome as live checks them (format.CheckDirs): the values base's outcome may hold are scalars of one
// class (numbers one), that of del where both have any.
func deletesFrom(base layer, del value.Value) bool {
	values, left, ok := baseValues(base)
	if !ok {
		return false
	}
	class, any := value.KindNull, false
	for i, v := range values {
		k := v.Kind()
		if k == value.KindFloat {
			k = value.KindInt
		}
		switch {
		case left != nil && left[i]:
		case !v.IsScalar() || (any && k != class):
			return false
		default:
			class, any = k, true
		}
	}
	return !any || del.Len() == 0 || slices.ContainsFunc(del.Items(), func(d value.Value) bool {
		k := d.Kind()
		if k == value.KindFloat {
			k = value.KindInt
		}
		return k == class
	})
}

// named returns, given d's "$setElementOrder", each of n base items' first position there (elements.Chain's Named; -1:
// not named), find giving the base item an entry names; nil without one.
func named(d *elements.Directives, n int, find func(value.Value) (int, bool)) []int32 {
	if d == nil || !d.HasSetOrder {
		return nil
	}
	pos := make([]int32, n)
	for j := range pos {
		pos[j] = -1
	}
	for i, v := range d.SetOrder.Items() {
		if j, found := find(v); found && pos[j] < 0 {
			pos[j] = int32(i)
		}
	}
	return pos
}

// plain reports whether patch value v, of type t, is a map holding no "$patch" whose maps are plain in turn, hold
// "$patch" (smp.MapDirective: "merge", "replace", "delete" or another value), or are of strategy replace, whatever they
// hold (strategicpatch takes such a map whole, "$patch" and all, onto a map, and less its maps holding "$patch"
// elsewhere): a compose repeat Phase 2 merges onto its member's outcome map by map. Its other fields, "$" fields but "$patch" among them (data in compose mode, copied; "$setElementOrder/<f>"
// ordering f too), and lists whatever they hold, are collated as the patch holds them without live, as a collation
// with an outcome lacking them builds them (a leaf less its maps holding "$patch": elements.Repeat.Cleaned); so is a
// map holding "$patch" (dropped, as strategicpatch drops it where the first patch holds no map there; onto a map,
// Phase 2 takes a "replace" one less the directive, empties a "delete" one, and fails at another).
func plain(v value.Value, t *openapi.Type) bool {
	return v.IsMap() && !slices.ContainsFunc(v.Fields(), func(f value.Field) bool {
		ct, meta := t.Child(f.Key)
		_, directed := smp.MapDirective(f.Value)
		return f.Key == smp.DirectiveKey ||
			(f.Value.IsMap() && !directed && !meta.Strategy.Has(openapi.StrategyReplace) && !plain(f.Value, ct))
	})
}

// skeleton returns plain map v's maps alone, as a live to collate v with: each map of v a map node (merged field by
// field onto its member's outcome), each other field, a map holding "$patch", and a "$retainKeys" or
// "$setElementOrder/<f>" map of a map of type t (compared with live's whole: compared), without live, as the patch
// holds it.
func skeleton(v value.Value, t *openapi.Type) value.Value {
	var fields []value.Field
	for _, f := range v.Fields() {
		if _, directed := smp.MapDirective(f.Value); f.Value.IsMap() && !directed && !compared(t, f.Key) {
			ct, _ := t.Child(f.Key)
			fields = append(fields, value.Field{Key: f.Key, Value: skeleton(f.Value, ct)})
		}
	}
	return value.MapFromSorted(fields)
}

// ordersOtherThanList reports whether patch item v, a data item (no "$patch"), orders by "$setElementOrder" a field
// it sets to other than a list: collated with any live, and applied by the API server onto any map, it fails.
func ordersOtherThanList(v value.Value) bool {
	if _, directive := v.Get(smp.DirectiveKey); directive || !v.IsMap() {
		return false
	}
	return slices.ContainsFunc(v.Fields(), func(f value.Field) bool {
		name, orders := strings.CutPrefix(f.Key, smp.SetOrderPrefix)
		list, set := v.Get(name)
		return orders && set && !list.IsList()
	})
}

// limitMaps records in limit, by ID, each map of e's tree without fields whose children would be deeper than room
// levels below e, at the depth limit max (elements.Repeat.Limit), with the error a field below it gives (at the map's
// path), and returns limit, made where nil and one is found.
func limitMaps(e elements.Element, room, max int, limit map[int32]*elements.Error) map[int32]*elements.Error {
	switch e := e.(type) {
	case *elements.MapElement:
		if len(e.Fields) == 0 && room < 1 {
			if limit == nil {
				limit = map[int32]*elements.Error{}
			}
			limit[e.ID] = e.Errorf(elements.Patch, depthMsg(max))
		}
		for _, f := range e.Fields {
			limit = limitMaps(f.Element, room-1, max, limit)
		}
	case *elements.ListElement:
		for _, it := range e.Items {
			limit = limitMaps(it.Element, room-1, max, limit)
		}
	}
	return limit
}

// nestsNear reports whether patch value v, room levels above the depth limit, holds a value at room levels below it or
// deeper: collated with live, a field live holds below v's deepest map would lie beyond the limit (a Repeat's Deep, in
// compose mode, where Phase 2 merges maps and lists of the item onto its member's outcome without depth checks).
func nestsNear(v value.Value, room int) bool {
	switch {
	case room < 1:
		return true
	case v.IsMap():
		return slices.ContainsFunc(v.Fields(), func(f value.Field) bool { return nestsNear(f.Value, room-1) })
	case v.IsList():
		return slices.ContainsFunc(v.Items(), func(it value.Value) bool { return nestsNear(it, room-1) })
	}
	return false
}

// failsAt returns, for repeat r whose collation failed (Err), of patch item v of type t, the field of v its error lies
// at or below where a collation with an outcome lacking that field fails there too (elements.Repeat.FailsAt): outside
// compose mode, the error's path starting at a field, v's fields before it (by name) scalars or nulls whose metadata
// names no merge rule, v's "$" keys directives for fields from it on, and v's fields within the depth limit (an
// outcome's fields before it are then leaves that cannot fail). With plainMaps, fields before it may be maps that are
// plain trees (elements.PlainTree) too: the class of elements.Repeat.MapsBefore. Else "".
func (c *collator) failsAt(r *elements.Repeat, v value.Value, t *openapi.Type, plainMaps bool) string {
	e, ok := r.Err.(*elements.Error)
	if c.opts.Compose || r.Fails || !ok || len(e.Path) == 0 || e.Path[0].Kind != fieldpath.FieldElement || !v.IsMap() ||
		(c.opts.MaxDepth > 0 && r.Depth+1 > c.opts.MaxDepth) {
		return ""
	}
	at := e.Path[0].Field
	for _, f := range v.Fields() {
		name, directive := strings.CutPrefix(f.Key, smp.SetOrderPrefix)
		if !directive {
			name, directive = strings.CutPrefix(f.Key, smp.DeletePrefix)
		}
		switch {
		case directive && name < at, !directive && strings.HasPrefix(f.Key, "$"):
			return ""
		case directive || f.Key >= at:
			continue
		}
		if _, meta := t.Child(f.Key); meta.Rule != nil || f.Value.IsList() ||
			(f.Value.IsMap() && !(plainMaps && elements.PlainTree(f.Value, t, f.Key, -1))) {
			return ""
		}
	}
	return at
}

// plainRoom returns, for repeat r with FailsAt, of patch item v of type t, the levels v's fields may nest within the
// depth limit (elements.Repeat.PlainRoom) where r's error is the depth limit's and v's fields up to FailsAt (by name)
// are plain trees (elements.PlainTree): then only depth fails there, and the error's node is the first in name order
// beyond the limit. Else 0.
func (c *collator) plainRoom(r *elements.Repeat, v value.Value, t *openapi.Type) int {
	e, ok := r.Err.(*elements.Error)
	if !ok || c.opts.MaxDepth == 0 || e.Msg != depthMsg(c.opts.MaxDepth) {
		return 0
	}
	for _, f := range v.Fields() {
		if _, meta := t.Child(f.Key); f.Key <= r.FailsAt && !strings.HasPrefix(f.Key, "$") &&
			(meta.Rule != nil || !elements.PlainTree(f.Value, t, f.Key, -1)) {
			return 0
		}
	}
	return c.opts.MaxDepth - r.Depth
}

// collateRepeat collates repeat r (node s) alone: in compose mode onto the skeleton of its maps (s.HasLive), gathering
// the merged lists its "$setElementOrder" contradicts in maps below the item's own (collator.gathering), which
// leaveContradicted then leaves out.
func (c *collator) collateRepeat(r *elements.Repeat, s *elements.Node, depth int) {
	outerGathering, outerGathered := c.gathering, c.gathered
	c.contradicted, c.gathering, c.gathered = nil, s.HasLive, nil
	r.Element, r.Err = c.repeatNode(*s, depth)
	c.gathering = false
	if s.HasLive && (r.Err != nil || len(c.gathered) > 0) {
		c.leaveContradicted(r, s, depth)
	}
	c.gathering, c.gathered = outerGathering, outerGathered
}

// repeatNode is one collation of a repeat's tree, node s at the patch list's depth (probe.RepeatCollated).
func (c *collator) repeatNode(s elements.Node, depth int) (elements.Element, error) {
	probe.RepeatCollated()
	return c.patchNode(s, depth+1)
}

// leaveContradicted collates compose mode's repeat r (node s, its live a skeleton of its maps) again without the maps
// holding a merged list whose "$setElementOrder" its items contradict (format.CheckOrder) below the item's own, reached
// through maps: each such map left out of the skeleton, as a field the outcome lacks (taken as the patch holds it,
// less its maps holding "$patch", as strategicpatch takes it where the first patch lacks a map there). The first
// collation gathered them all (collator.gathered), so one more collation leaves them out; where it failed for another
// reason, it is taken as failing at the first of them, and each further collation leaves out the map it fails at.
// Once the collation passes, each such map's leaf is recorded in r.Contradicted with the error (a collation with the
// outcome holding maps down to that map fails with it). Such a list of the item's own map is recorded by ID -1 (the
// repeat is then collated whole), with whether the item nests near the depth limit (r.Deep).
func (c *collator) leaveContradicted(r *elements.Repeat, s *elements.Node, depth int) {
	var left [][]string
	var errs []*elements.Error
	gathered := c.gathered
	c.gathered = nil
	if r.Err != nil && len(gathered) > 0 {
		r.Err, c.contradicted, gathered = gathered[0], gathered[0], nil // (the collation failing at the first of them)
	}
	if len(gathered) > 0 {
		for _, e := range gathered {
			path, _ := fieldNames(e)
			if live, dropped := dropMap(s.Live, path[:len(path)-1]); dropped {
				s.Live = live // (not below a map left out before)
			}
			left, errs = append(left, path[:len(path)-1]), append(errs, e)
		}
		r.Cleaned, r.ItemErrs, c.emptyOrder = nil, nil, nil
		r.Element, r.Err = c.repeatNode(*s, depth)
	}
	for r.Err != nil && r.Err == c.contradicted {
		e, _ := r.Err.(*elements.Error)
		path, ok := fieldNames(e)
		if ok && len(path) == 1 {
			r.Contradicted = map[int32]*elements.Error{-1: e}
			r.Deep = c.opts.MaxDepth > 0 && nestsNear(s.Local, c.opts.MaxDepth-r.Depth)
		}
		if !ok || len(path) < 2 {
			return
		}
		live, dropped := dropMap(s.Live, path[:len(path)-1])
		if !dropped {
			return
		}
		s.Live, r.Cleaned, r.ItemErrs, c.contradicted = live, nil, nil, nil
		left, errs = append(left, path[:len(path)-1]), append(errs, e)
		r.Element, r.Err = c.repeatNode(*s, depth)
	}
	if r.Err != nil {
		return
	}
	for i, path := range left {
		if leaf := elementAt(r.Element, path); leaf != nil {
			if r.Contradicted == nil {
				r.Contradicted = map[int32]*elements.Error{}
			}
			r.Contradicted[leaf.Base().ID] = errs[i]
		}
	}
}

// belowItemMap reports whether e's path holds fields alone, two or more: a list in a map below a repeat's item's own,
// reached through maps.
func belowItemMap(e *elements.Error) bool {
	names, ok := fieldNames(e)
	return ok && len(names) >= 2
}

// fieldNames returns the field names of e's path, ok where it holds fields alone.
func fieldNames(e *elements.Error) (names []string, ok bool) {
	if e == nil {
		return nil, false
	}
	for _, at := range e.Path {
		if at.Kind != fieldpath.FieldElement {
			return nil, false
		}
		names = append(names, at.Field)
	}
	return names, true
}

// dropMap returns skeleton v less the map at path (field names), dropped false where v holds none there.
func dropMap(v value.Value, path []string) (value.Value, bool) {
	child, held := v.Get(path[0])
	switch {
	case !held || !child.IsMap():
		return v, false
	case len(path) == 1:
		return v.Without(path[0]), true
	}
	below, dropped := dropMap(child, path[1:])
	return v.With(path[0], below), dropped
}

// elementAt returns the node of e's tree at path (field names, through maps), nil where there is none.
func elementAt(e elements.Element, path []string) elements.Element {
	for _, name := range path {
		m, _ := e.(*elements.MapElement)
		if m == nil {
			return nil
		}
		i := slices.IndexFunc(m.Fields, func(f elements.Field) bool { return f.Name == name })
		if i < 0 {
			return nil
		}
		e = m.Fields[i].Element
	}
	return e
}

// errRoom is elements.Repeat.ErrRoom of apply mode's failed repeat r: MaxDepth less r's Depth (math.MaxInt without
// a limit), at least 0; 0 in compose mode.
func (c *collator) errRoom(r *elements.Repeat) int {
	switch {
	case c.opts.Compose:
		return 0
	case c.opts.MaxDepth == 0:
		return math.MaxInt
	}
	return max(0, c.opts.MaxDepth-r.Depth)
}

// walkRoom returns, for repeat r whose collation failed (Err) by the depth limit, by a merged list's
// "$setElementOrder" (elements.Repeat.Disordered), or, Fails, at a field of patch item v that it orders and sets to other
// than a list, or whose Err, with its tree (Element), is that of a list it holds empty and orders
// (elements.EmptyOrdered), outside compose mode, the levels its item's fields may nest within the limit
// (elements.Repeat.Room; without a limit, math.MaxInt; none: 0). Else 0.
func (c *collator) walkRoom(r *elements.Repeat, v value.Value) int {
	e, ok := r.Err.(*elements.Error)
	if c.opts.Compose || !ok {
		return 0
	}
	depth := c.opts.MaxDepth > 0 && e.Msg == depthMsg(c.opts.MaxDepth)
	ordering := false // (Fails at the field it orders)
	if r.Fails && len(e.Path) == 1 && e.Path[0].Kind == fieldpath.FieldElement {
		_, ordering = v.Get(smp.SetOrderPrefix + e.Path[0].Field)
	}
	empty := r.Element != nil // (EmptyOrdered's Err, with its tree)
	switch {
	case !depth && !r.Disordered && !ordering && !empty:
		return 0
	case c.opts.MaxDepth == 0:
		return math.MaxInt
	}
	return max(0, c.opts.MaxDepth-r.Depth)
}

// compared reports whether key of a map of type t is a directive compose mode compares with live's whole: a
// "$retainKeys" or "$setElementOrder/<f>" the schema does not declare.
func compared(t *openapi.Type, key string) bool {
	return (key == smp.RetainKeysKey || strings.HasPrefix(key, smp.SetOrderPrefix)) && smp.Directive(t, key)
}
