package delta

import (
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/plyproject/ply/internal/collate"
	"github.com/plyproject/ply/internal/elements"
	"github.com/plyproject/ply/internal/smp"
	"github.com/plyproject/ply/internal/strategy/rule"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/fieldpath"
	"github.com/plyproject/ply/pkg/value"
)

// Mode is one of the four diffs of kubectl's strategicpatch (its
// DiffOptions): the source local is compared with, the entries written,
// and whether merged lists get $setElementOrder.
type Mode uint8

const (
	// Delta is live -> local, additions and changes, with $setElementOrder:
	// the "delta" half of kubectl's three-way patch.
	Delta Mode = iota
	// Deletions is recorded -> local, removals only (nulls, delete
	// directives, $deleteFromPrimitiveList), with $setElementOrder: the
	// "deletions" half of kubectl's three-way patch.
	Deletions
	// TwoWay is recorded -> local, both, with $setElementOrder
	// (strategicpatch.CreateTwoWayMergePatch).
	TwoWay
	// Changed is TwoWay without $setElementOrder: the "changed map" of
	// kubectl's conflict check (collated with live as local).
	Changed
)

// Visitor is the patch-producing elements.Visitor: for each Element of a
// collated tree, the patch entry that turns source from's value into the
// node's local value, in one Mode. Visit methods are called on nodes local
// holds (maybe null); fields local lacks are handled by their parent. A
// list's parallel lists go to its parent through par, which Entry reads and
// clears after each Accept: call Entry, not Accept, from outside. It keeps
// no state between Entry calls and is not safe for concurrent use.
type Visitor struct {
	// from is the source local is compared with; blame the source named in
	// errors about from's values (from but in a subtree of below).
	from, blame elements.Source
	// changes emits additions and changes; deletions emits nulls, delete
	// directives and $deleteFromPrimitiveList; order emits $setElementOrder.
	changes, deletions, order bool
	// first stops a node's patch at its first entry (see Touches).
	first bool
	// par holds the parallel lists of the node just visited (zero unless a
	// has flag is set).
	par Parallel
}

// modes holds the Visitor of each Mode, with no state.
var modes = [...]Visitor{
	Delta:     {from: elements.Live, changes: true, order: true},
	Deletions: {from: elements.Recorded, deletions: true, order: true},
	TwoWay:    {from: elements.Recorded, changes: true, deletions: true, order: true},
	Changed:   {from: elements.Recorded, changes: true, deletions: true},
}

// New returns the Visitor of mode m; an unknown mode panics.
func New(m Mode) *Visitor {
	d := &Visitor{}
	d.reset(m)
	return d
}

// reset makes d the Visitor of mode m, with no state.
func (d *Visitor) reset(m Mode) {
	*d = modes[m]
	d.blame = d.from
}

// Entry is what a node contributes to its parent's patch: its own entry
// (Present false: none) and, for a merged list, the parallel lists.
type Entry struct {
	elements.Outcome
	Parallel
}

// Parallel holds the $setElementOrder/<field> list (Order, when HasOrder)
// and the $deleteFromPrimitiveList/<field> list (Deletes, when HasDeletes)
// of a merged list, which its parent map carries.
type Parallel struct {
	Order, Deletes       value.Value
	HasOrder, HasDeletes bool
}

// Any reports whether the patch says anything about the node.
func (en Entry) Any() bool { return en.Present || en.HasOrder || en.HasDeletes }

// Entry returns the patch entry of e, a node local holds. e is visited only
// when rule.For knows its kind: an Element kind it does not know is an
// error, as in a merge.
func (d *Visitor) Entry(e elements.Element) (Entry, error) {
	if _, err := rule.For(e, false); err != nil {
		return Entry{}, err
	}
	o, err := e.Accept(d)
	en := Entry{Outcome: o, Parallel: d.par}
	d.par = Parallel{}
	return en, err
}

// prelude decides the entry of a node whose values alone settle it: from
// absent, local null, from null, or the two of different JSON types. done
// is false when the node must be compared member by member.
func (d *Visitor) prelude(n *elements.Node) (o elements.Outcome, done bool) {
	from, has := n.Get(d.from)
	local := n.Local
	switch {
	case !has:
	case local.IsNull() && from.IsNull():
		return elements.Absent, true
	case !local.IsNull() && !from.IsNull() && sameJSONType(local, from):
		return elements.Absent, false
	}
	if d.changes {
		return elements.Keep(local), true
	}
	return elements.Absent, true
}

// listPrelude is prelude for a merged list, which also settles a list from
// holds empty: local's list is sent whole when it has items (changes).
// Otherwise (done false) from is from's list, to compare item by item.
func (d *Visitor) listPrelude(n *elements.Node) (from value.Value, o elements.Outcome, done bool) {
	if o, done := d.prelude(n); done {
		return value.Value{}, o, true
	}
	from, _ = n.Get(d.from)
	if from.Len() > 0 {
		return from, elements.Absent, false
	}
	if d.changes && n.Local.Len() > 0 {
		return from, elements.Keep(n.Local), true
	}
	return from, elements.Absent, true
}

// VisitPrimitive implements elements.Visitor: a changed scalar is sent.
func (d *Visitor) VisitPrimitive(e *elements.PrimitiveElement) (elements.Outcome, error) {
	if o, done := d.prelude(&e.Node); done {
		return o, nil
	}
	return d.replaced(&e.Node), nil
}

// replaced is the entry of a value sent whole when it changed.
func (d *Visitor) replaced(n *elements.Node) elements.Outcome {
	from, _ := n.Get(d.from)
	if d.changes && !value.Equal(n.Local, from) {
		return elements.Keep(n.Local)
	}
	return elements.Absent
}

// VisitEmpty implements elements.Visitor: local is null here.
func (d *Visitor) VisitEmpty(e *elements.EmptyElement) (elements.Outcome, error) {
	o, _ := d.prelude(&e.Node)
	return o, nil
}

// VisitAtomic implements elements.Visitor: a map whose strategy is replace
// is sent whole whenever local sets it; other atomic values when they
// changed. Two kinds are compared member by member by below: for the
// deletions, a node atomic only because live's kind differs from local's;
// for the delta, a list item all sources agree on holding a merged set
// kubectl sees as reordered (it sorts live's set before comparing, so an
// unsorted set equal to local's still gets $setElementOrder).
func (d *Visitor) VisitAtomic(e *elements.AtomicElement) (elements.Outcome, error) {
	n := &e.Node
	if o, done := d.prelude(n); done {
		return o, nil
	}
	if n.Meta.Strategy.Has(openapi.StrategyReplace) && n.Local.IsMap() {
		if d.changes {
			return elements.Keep(n.Local), nil
		}
		return elements.Absent, nil
	}
	switch {
	case d.from == elements.Recorded && !d.changes && n.HasLive && !n.Live.IsNull() && !sameJSONType(n.Live, n.Local):
		return d.below(n, n.Recorded)
	case d.from == elements.Live && !d.deletions && n.Local.IsMap() && value.Equal(n.Local, n.Live):
		if hasUnsortedSet(n.Local, n.Type, n.Meta) {
			return d.below(n, n.Live)
		}
		return elements.Absent, nil
	}
	return d.replaced(n), nil
}

// below computes the entry of an atomic node member by member: its from
// value (given) and local value are collated again, alone, under a
// one-field parent carrying the node's type and metadata, and visited with
// from = Recorded.
func (d *Visitor) below(n *elements.Node, from value.Value) (elements.Outcome, error) {
	if !(n.Local.IsMap() || n.Local.IsList()) {
		return d.replaced(n), nil
	}
	name := n.Name
	if name == "" {
		name = "item"
	}
	parent := &openapi.Type{
		Name:       n.Type.Name,
		Kind:       openapi.KindStruct,
		Fields:     map[string]*openapi.Field{name: {Name: name, Type: n.Type, Meta: n.Meta}},
		FieldNames: []string{name},
	}
	vals := elements.Values{
		Recorded: value.MustMap(value.Field{Key: name, Value: from}), HasRecorded: true,
		Local: value.MustMap(value.Field{Key: name, Value: n.Local}), HasLocal: true,
	}
	sub, err := collate.Collate(vals, parent, collate.Options{})
	if err != nil {
		return elements.Absent, rebase(err, n.Path())
	}
	root, ok := sub.(*elements.TypeElement)
	if !ok || len(root.Fields) != 1 {
		return d.replaced(n), nil
	}
	sd := *d
	sd.from, sd.par = elements.Recorded, Parallel{}
	en, err := sd.Entry(root.Fields[0].Element)
	if err != nil {
		return elements.Absent, rebase(err, n.Path())
	}
	d.par = en.Parallel
	return en.Outcome, nil
}

// hasUnsortedSet reports whether v, of type t with metadata meta, holds
// (through maps and merged lists of maps) a merged set whose values are not
// in kubectl's sorted order.
func hasUnsortedSet(v value.Value, t *openapi.Type, meta openapi.Meta) bool {
	switch v.Kind() {
	case value.KindMap:
		if meta.Strategy.Has(openapi.StrategyReplace) {
			return false
		}
		for _, f := range v.Fields() {
			if !f.Value.IsMap() && !f.Value.IsList() {
				continue
			}
			ct, cm := t.Child(f.Key)
			if hasUnsortedSet(f.Value, ct, cm) {
				return true
			}
		}
	case value.KindList:
		if t.Kind != openapi.KindList || !meta.Strategy.Has(openapi.StrategyMerge) {
			return false
		}
		it := t.Item()
		if it.Kind == openapi.KindPrimitive {
			return !smp.Sorted(v.Items())
		}
		if len(meta.MergeKey) == 0 {
			return false
		}
		for _, item := range v.Items() {
			if hasUnsortedSet(item, it, openapi.Meta{}) {
				return true
			}
		}
	}
	return false
}

// rebase places an *elements.Error found in a subtree collated by below at
// node path at: the subtree's first step stands for the node itself.
func rebase(err error, at fieldpath.Path) error {
	if e, ok := err.(*elements.Error); ok && len(e.Path) > 0 {
		p := make(fieldpath.Path, 0, len(at)+len(e.Path)-1)
		e.Path = append(append(p, at...), e.Path[1:]...)
	}
	return err
}

// VisitMap implements elements.Visitor.
func (d *Visitor) VisitMap(e *elements.MapElement) (elements.Outcome, error) {
	return d.fields(&e.Node, e.Fields)
}

// VisitType implements elements.Visitor.
func (d *Visitor) VisitType(e *elements.TypeElement) (elements.Outcome, error) {
	return d.fields(&e.Node, e.Fields)
}

// fields is the patch of a map: one entry per field with one, null per
// field from has and local lacks (deletions), the parallel lists of list
// fields, and $retainKeys when the strategy has retainKeys, local has a
// non-null field, and the patch is not empty or from holds a non-null field
// local lacks. With first it stops at the first field with entries, trying
// the cheapest fields (isLeaf) first.
func (d *Visitor) fields(n *elements.Node, fs elements.Fields) (elements.Outcome, error) {
	if o, done := d.prelude(n); done {
		return o, nil
	}
	var out []value.Field
	for leaves := range 2 {
		for _, f := range fs {
			if d.first && isLeaf(f.Element) != (leaves == 0) {
				continue
			}
			var err error
			if out, err = d.field(out, f); err != nil {
				return elements.Absent, err
			}
			if d.first && len(out) > 0 {
				break
			}
		}
		if !d.first || len(out) > 0 {
			break
		}
	}
	if n.Meta.Strategy.Has(openapi.StrategyRetainKeys) {
		var keys []value.Value
		extra := false
		for _, f := range fs {
			c := f.Element.Base()
			if c.LocalSet() {
				keys = append(keys, value.String(f.Name))
			} else if v, has := c.Get(d.from); has && !c.HasLocal && !v.IsNull() {
				extra = true
			}
		}
		if len(keys) > 0 && (len(out) > 0 || extra) {
			out = append(out, value.Field{Key: smp.RetainKeysKey, Value: value.List(keys)})
		}
	}
	if len(out) == 0 {
		return elements.Absent, nil
	}
	m, dup, ok := value.NewMap(out)
	if !ok {
		return elements.Absent, n.Errorf(elements.Local, "field "+strconv.Quote(dup)+" collides with a patch directive of the same name")
	}
	return elements.Keep(m), nil
}

// field appends the entries of field f to out: its own, and the parallel
// lists of a list.
func (d *Visitor) field(out []value.Field, f elements.Field) ([]value.Field, error) {
	c := f.Element.Base()
	if !c.HasLocal {
		if _, has := c.Get(d.from); has && d.deletions {
			out = append(out, value.Field{Key: f.Name, Value: value.Null})
		}
		return out, nil
	}
	en, err := d.Entry(f.Element)
	if err != nil {
		return out, err
	}
	if en.Present {
		out = append(out, value.Field{Key: f.Name, Value: en.Value})
	}
	if en.HasDeletes {
		out = append(out, value.Field{Key: smp.DeletePrefix + f.Name, Value: en.Deletes})
	}
	if en.HasOrder {
		out = append(out, value.Field{Key: smp.SetOrderPrefix + f.Name, Value: en.Order})
	}
	return out, nil
}

// isLeaf reports whether e's entry needs no walk below it: a scalar, a
// null, or a field local lacks.
func isLeaf(e elements.Element) bool {
	switch e.(type) {
	case *elements.PrimitiveElement, *elements.EmptyElement:
		return true
	}
	return !e.Base().HasLocal
}

// fromIndex is an item's position in source from (-1: absent there).
func (d *Visitor) fromIndex(it *elements.Item) int {
	if d.from == elements.Recorded {
		return it.RecordedIndex
	}
	return it.LiveIndex
}

// VisitList implements elements.Visitor for a list of maps merged by key:
// the changed items (their patch plus merge key) and the items new to from
// (whole), in local's order, then a delete directive per item of from local
// lacks, ordered by key as kubectl orders them; and $setElementOrder
// (local's keys) when there are entries or (changes) from's key sequence
// differs from local's. With first it stops at the first item entry.
func (d *Visitor) VisitList(e *elements.ListElement) (elements.Outcome, error) {
	n := &e.Node
	from, o, done := d.listPrelude(n)
	if done {
		return o, nil
	}
	mk, itemType := n.Meta.MergeKey, n.Type.Item()
	fromItems := from.Items()
	if i := d.unnamed(e, fromItems); i >= 0 {
		return elements.Absent, n.Errorf(d.blame, "item "+strconv.Itoa(i)+": expected an object with every merge key field ("+strings.Join(mk, ",")+") set to a scalar, got "+describe(fromItems[i]))
	}
	local := n.Local.Items()
	var matched []bool
	if d.deletions {
		matched = make([]bool, len(fromItems))
	}
	orderSame := len(fromItems) == len(local)
	var out []value.Value
	for i := range e.Items {
		it := &e.Items[i]
		if it.LocalIndex < 0 {
			break
		}
		fi := d.fromIndex(it)
		if fi != it.LocalIndex {
			orderSame = false
		}
		if fi < 0 {
			if d.changes {
				out = append(out, local[it.LocalIndex])
			}
		} else {
			if matched != nil {
				matched[fi] = true
			}
			en, err := d.Entry(it.Element)
			if err != nil {
				return elements.Absent, err
			}
			if en.Present && en.Value.IsMap() {
				out = append(out, withFields(en.Value, presentKeyFields(local[it.LocalIndex], mk)))
			}
		}
		if d.first && len(out) > 0 {
			return elements.Keep(value.List(out)), nil
		}
	}
	if d.deletions {
		out = appendDeletes(out, fromItems, matched, mk, itemType)
	}
	if d.order && len(local) > 0 && ((d.changes && (len(out) > 0 || !orderSame)) || (d.deletions && len(out) > 0)) {
		order := make([]value.Value, len(local))
		for i, li := range local {
			order[i] = value.MustMap(itemKeyFields(li, mk, itemType)...)
		}
		d.par = Parallel{Order: value.List(order), HasOrder: true}
	}
	if len(out) == 0 {
		return elements.Absent, nil
	}
	return elements.Keep(value.List(out)), nil
}

// appendDeletes appends to out a delete directive per item of fromItems not
// matched, ordered by key as kubectl orders them.
func appendDeletes(out, fromItems []value.Value, matched []bool, mk []string, itemType *openapi.Type) []value.Value {
	type keyed struct {
		sortKey []string
		item    value.Value
	}
	var dels []keyed
	for i, it := range fromItems {
		if matched[i] {
			continue
		}
		kf := itemKeyFields(it, mk, itemType)
		sortKey := make([]string, len(kf))
		for j, f := range kf {
			sortKey[j] = smp.KeyString(f.Value)
		}
		dels = append(dels, keyed{sortKey, withFields(deleteDirective, kf)})
	}
	sort.SliceStable(dels, func(i, j int) bool { return slices.Compare(dels[i].sortKey, dels[j].sortKey) < 0 })
	for _, del := range dels {
		out = append(out, del.item)
	}
	return out
}

// unnamed returns the position in from's list of its first item without an
// identity (not an object with every merge-key field a scalar: a patch
// cannot name it), or -1. For live, these are the LiveExtra entries
// repeating no item. Recorded's are looked for unless collate matched as
// many recorded identities as recorded has items.
func (d *Visitor) unnamed(e *elements.ListElement, fromItems []value.Value) int {
	if d.from == elements.Live {
		for _, x := range e.LiveExtra {
			if x.Of < 0 {
				return x.LiveIndex
			}
		}
		return -1
	}
	named := 0
	for i := range e.Items {
		if e.Items[i].RecordedIndex >= 0 {
			named++
		}
	}
	if named == len(fromItems) {
		return -1
	}
	mk, itemType := e.Meta.MergeKey, e.Type.Item()
	for i, it := range fromItems {
		if _, ok := keyOfItem(it, mk, itemType); !ok {
			return i
		}
	}
	return -1
}

// presentKeyFields returns the merge-key fields item writes: a patch item
// carries only these, so a key field local leaves out stays out and the
// receiver fills its default, as a merge of local does. (Entries that only
// name items carry the whole tuple, see itemKeyFields.)
func presentKeyFields(item value.Value, mergeKey []string) []value.Field {
	out := make([]value.Field, 0, len(mergeKey))
	for _, name := range mergeKey {
		if v, ok := item.Get(name); ok {
			out = append(out, value.Field{Key: name, Value: v})
		}
	}
	return out
}

// itemKeyFields returns the merge-key fields entries that only name an item
// (delete directives, $setElementOrder) carry: the item's own value, or
// itemType's key default for a field it leaves out (neither: left out).
func itemKeyFields(item value.Value, mergeKey []string, itemType *openapi.Type) []value.Field {
	out := make([]value.Field, 0, len(mergeKey))
	for _, kf := range elements.KeyFields(item, mergeKey, itemType) {
		if _, present := item.Get(kf.Name); present || !kf.Value.IsNull() {
			out = append(out, value.Field{Key: kf.Name, Value: kf.Value})
		}
	}
	return out
}

// deleteDirective is the body of a delete directive item.
var deleteDirective = value.MustMap(value.Field{Key: smp.DirectiveKey, Value: value.String(smp.DeleteValue)})

// withFields returns m with fields set.
func withFields(m value.Value, fields []value.Field) value.Value {
	for _, f := range fields {
		m = m.With(f.Key, f.Value)
	}
	return m
}

// describe names the kind of a bad list item.
func describe(v value.Value) string {
	if v.IsMap() {
		return "an object without it"
	}
	return v.Kind().String()
}

// VisitSet implements elements.Visitor for a list of primitives merged as
// a set: local's values new to from (local's order),
// $deleteFromPrimitiveList with from's values local lacks (sorted as
// kubectl sorts scalars), and $setElementOrder (local's list) when values
// are deleted or (changes) local differs from from's list sorted. A set is
// diffed whole even with first: one linear pass.
func (d *Visitor) VisitSet(e *elements.SetElement) (elements.Outcome, error) {
	n := &e.Node
	from, o, done := d.listPrelude(n)
	if done {
		return o, nil
	}
	objects := elements.SetOfMaps(n.Type, &n.Meta)
	for i, v := range from.Items() {
		if _, ok := elements.SetKey(v, objects); !ok {
			return elements.Absent, n.Errorf(d.blame, "item "+strconv.Itoa(i)+": expected a scalar in a set list, got "+v.Kind().String())
		}
	}
	var added, dels []value.Value
	for i := range e.Items {
		it := &e.Items[i]
		switch fi := d.fromIndex(it); {
		case it.LocalIndex >= 0 && fi < 0 && d.changes:
			added = append(added, it.Element.Base().Local)
		case it.LocalIndex < 0 && fi >= 0 && d.deletions:
			v, _ := it.Element.Base().Get(d.from)
			dels = append(dels, v)
		}
	}
	if len(dels) > 0 {
		smp.SortScalars(dels)
		d.par.Deletes, d.par.HasDeletes = value.List(dels), true
	}
	if d.order && n.Local.Len() > 0 && (len(dels) > 0 || (d.changes && !d.sortedSame(e, from))) {
		d.par.Order, d.par.HasOrder = n.Local, true
	}
	if len(added) == 0 {
		return elements.Absent, nil
	}
	return elements.Keep(value.List(added)), nil
}

// sortedSame reports whether from's set, sorted as kubectl sorts scalars,
// equals local's list item by item. (Linear unless local repeats values:
// it uses the items collate matched instead of sorting.)
func (d *Visitor) sortedSame(e *elements.SetElement, from value.Value) bool {
	local := e.Local.Items()
	if from.Len() != len(local) {
		return false
	}
	matched := 0
	for i := range e.Items {
		it := &e.Items[i]
		if it.LocalIndex < 0 {
			break
		}
		if d.fromIndex(it) < 0 {
			return false
		}
		matched++
	}
	if matched != len(local) {
		sorted := slices.Clone(from.Items())
		smp.SortScalars(sorted)
		return slices.EqualFunc(local, sorted, value.Equal)
	}
	return smp.Sorted(local)
}
