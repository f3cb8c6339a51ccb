package delta

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/plyproject/ply/internal/halves"
	"github.com/plyproject/ply/internal/smp"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/pkg/fieldpath"
	"github.com/plyproject/ply/pkg/value"
)

// Mode is one of strategicpatch's diffs (DiffOptions): sources compared, entries written, $setElementOrder or not.
type Mode uint8

const (
	// Delta is live -> local, additions and changes, with $setElementOrder: the three-way patch's "delta" half.
	Delta Mode = iota
	// Deletions is recorded -> local: nulls, delete directives, $deleteFromPrimitiveList, and $setElementOrder.
	Deletions
	// TwoWay is recorded -> local, both, with $setElementOrder (strategicpatch.CreateTwoWayMergePatch).
	TwoWay
	// Changed is TwoWay without $setElementOrder: kubectl's conflict check's "changed map" (live collated as local).
	Changed
	// threeWay is Delta and Deletions in one walk, merged as strategicpatch merges them (see ThreeWay).
	threeWay
)

// Visitor is the patch-producing elements.Visitor: per Element, the entry of one Mode's patch turning the compared
// sources into local's value. Visit methods see nodes local holds (maybe null); parents handle fields local lacks.
// Parallel lists reach the parent through par, which Entry reads and clears: call Entry, not Accept. Not safe for
// concurrent use. The halves, changes (against source changes) and deletions (since source deletions), merge node by
// node; at a node each compares member by member or is settled (prelude). Where the changes are settled on local's
// value and the deletions compare, the walk of local's members merges them (no deletions: local's value).
type Visitor struct {
	changes, deletions elements.Source // the sources of the halves
	order              bool            // emit $setElementOrder
	// check marks the conflict check's Changed patch: a registered rule's field is left out, whatever its PatchForm
	// (the three-way patch, made first, has refused or left it out already, so no conflict can be there).
	check bool
	// dels counts the deletions emitted: a node's deletions half has entries if it grows during the node's visit.
	dels int
	par  Parallel // the parallel lists of the node just visited
	// Gates are the tree's collation gates.
	Gates features.Gates
	// Beside is what the tree's collation built beside it (Below subtrees); nil: nothing (not collated for patches).
	Beside Beside
	// mem is where the walk builds its patch's maps (shared by the Visitors of one walk); nil: each map allocates.
	mem *Memory
	// made holds the entries already made of some nodes (Entered): ThreeWay's walk of the tree, nil elsewhere.
	made Entered
	// wroteDirective says that a value of local the patch writes whole holds a map holding "$patch" (wrote): the
	// three-way patch is then what kubectl's merge of its halves leaves of it (withoutLocalDirectives).
	wroteDirective bool
}

var modes = [...]Visitor{
	Delta:     {changes: elements.Live, order: true},
	Deletions: {deletions: elements.Recorded, order: true},
	TwoWay:    {changes: elements.Recorded, deletions: elements.Recorded, order: true},
	Changed:   {changes: elements.Recorded, deletions: elements.Recorded, check: true},
	threeWay:  {changes: elements.Live, deletions: elements.Recorded, order: true},
}

// New returns the Visitor of mode m for a tree collated under gates; an unknown mode panics.
func New(m Mode, gates features.Gates) *Visitor {
	d := modes[m]
	d.Gates, d.mem = gates, &Memory{}
	return &d
}

// Entry is what a node gives its parent's patch: its entry (Present false: none) and a merged list's parallel lists.
type Entry struct {
	elements.Outcome
	Parallel
}

// Parallel holds a merged list's $setElementOrder/<field> (Order) and $deleteFromPrimitiveList/<field> (Deletes).
// Unordered (three-way patches only) reports a list of repeated items whose delta half's list is no subsequence of
// Order, which kubectl refuses where it merges its halves' maps holding the list (VisitMap); so does ScalarsByKey, a
// list merged by key holding scalars (collated as a set: collate.Options.KubectlDiffs) whose delta half adds values,
// which kubectl's merge there reads as objects against its $setElementOrder.
type Parallel struct {
	Order, Deletes       value.Value
	HasOrder, HasDeletes bool
	Unordered            int // 1 + the first patch list item out of Order's order (0: none)
	ScalarsByKey         bool
}

// Any reports whether the patch says anything about the node.
func (en Entry) Any() bool { return en.Present || en.HasOrder || en.HasDeletes }

// appendTo appends to out what en puts in the patch of the map holding the node as field name.
func (en Entry) appendTo(out []value.Field, name string) []value.Field {
	if en.Present {
		out = append(out, value.Field{Key: name, Value: en.Value})
	}
	if en.HasDeletes {
		out = append(out, value.Field{Key: smp.DeletePrefix + name, Value: en.Deletes})
	}
	if en.HasOrder {
		out = append(out, value.Field{Key: smp.SetOrderPrefix + name, Value: en.Order})
	}
	return out
}

// Entry returns the patch entry of e, a node local holds. A registered rule's field is left out (PatchLeavesLive) or
// an *elements.RuleError (PatchRefused); an Element kind no built-in rule decides is an error, as in a merge.
func (d *Visitor) Entry(e elements.Element) (Entry, error) {
	if skip, err := d.ruled(e.Base()); skip || err != nil {
		return Entry{}, err
	}
	if n := e.Base(); n.Name == smp.DirectiveKey && isMarker(n) {
		o, err := d.markerEntry(n)
		return Entry{Outcome: o}, err
	}
	if m, ok := d.entered(e); ok {
		d.dels += m.dels
		d.wroteDirective = d.wroteDirective || m.wroteDirective
		return m.Entry, nil
	}
	o, err := d.Visit(e)
	if n := e.Base(); o.Present && n.HasLocal {
		d.noteMergeRead(n.Name)
	}
	en := Entry{Outcome: o, Parallel: d.par}
	d.par = Parallel{}
	return en, err
}

// ruled is halves.Ruled, except in the conflict check's Changed patch, which leaves every ruled field out whatever
// its PatchForm: the three-way patch, made first, has refused or left it out already, so no conflict can be there.
func (d *Visitor) ruled(n *elements.Node) (skip bool, err error) {
	if d.check && elements.RuleOf(n) != nil {
		return true, nil
	}
	return halves.Ruled(n)
}

// Visit implements elements.Visitor, switching on the built-in kinds; another kind is an error.
func (d *Visitor) Visit(e elements.Element) (elements.Outcome, error) {
	switch e := e.(type) {
	case *elements.AtomicElement:
		return d.VisitAtomic(e)
	case *elements.MapElement:
		return d.VisitMap(e)
	case *elements.ListElement:
		return d.VisitList(e)
	case *elements.SetElement:
		return d.VisitSet(e)
	}
	return elements.Absent, e.Base().Errorf(elements.NoSource, fmt.Sprintf("no merge rule decides a %T", e))
}

// prelude returns the sources of the halves that compare n member by member, NoSource for a half settled by
// the values alone (the changes on replaced(n), the deletions on nothing); done when both are settled.
func (d *Visitor) prelude(n *elements.Node, list bool) (cs, ds elements.Source, done bool) {
	cs, ds = halves.Compares(n, d.changes, list), halves.Compares(n, d.deletions, list)
	return cs, ds, cs == elements.NoSource && ds == elements.NoSource
}

// replaced is the changes half of a value sent whole (halves.Replaced).
func (d *Visitor) replaced(n *elements.Node) elements.Outcome {
	o := halves.Replaced(n, d.changes)
	if k := o.Value.Kind(); k == value.KindMap || k == value.KindList {
		d.wrote(o.Value)
	}
	return o
}

// noteMergeRead notes (wroteDirective) that the patch writes local's value of field name of a map where name is
// "$retainKeys" or "$setElementOrder/<f>", data of local's that kubectl's merge of the three-way patch's halves reads
// (withoutLocalDirectives checks them as it does).
func (d *Visitor) noteMergeRead(name string) {
	if len(name) > 0 && name[0] == '$' && (name == smp.RetainKeysKey || strings.HasPrefix(name, smp.SetOrderPrefix)) {
		d.wroteDirective = true
	}
}

// wrote notes that the patch writes local's value v whole (wroteDirective) and returns it.
func (d *Visitor) wrote(v value.Value) value.Value {
	if k := v.Kind(); !d.wroteDirective && (k == value.KindMap || k == value.KindList) && holdsMergeRead(v) {
		d.wroteDirective = true
	}
	return v
}

// VisitAtomic is Visit for its kind: a map of strategy replace is sent whole whenever local sets it, others when
// changed. Compared member by member (its elements.Below): for the deletions, a node atomic only as live's kind
// differs; for the delta, an item all sources agree on holding a merged set kubectl sees as reordered (it sorts live's
// first: an unsorted set equal to local's gets $setElementOrder).
func (d *Visitor) VisitAtomic(e *elements.AtomicElement) (elements.Outcome, error) {
	n := &e.Node
	if !n.Local.IsMap() && !n.Local.IsList() {
		return d.replaced(n), nil
	}
	cs, ds, done := d.prelude(n, false)
	switch {
	case done:
	case n.Meta.Strategy.Has(openapi.StrategyReplace) && n.Local.IsMap():
		if d.changes != elements.NoSource { // (else replaced's Absent)
			return elements.Keep(d.wrote(n.Local)), nil
		}
	case ds != elements.NoSource && cs == elements.NoSource && n.HasLive && !n.Live.IsNull() && !halves.SameJSONType(n.Live, n.Local):
		return d.compareBelow(e, elements.Recorded)
	case cs == elements.Live && n.Local.IsMap() && value.Equal(n.Local, n.Live):
		if d.below(e) != nil || halves.HasUnsortedSet(n.Local, n.Type, n.Meta) {
			return d.compareBelow(e, elements.Live)
		}
		return elements.Absent, nil
	}
	return d.replaced(n), nil
}

// below returns atomic node e's elements.Below, nil if it has none (or nothing is beside the tree).
func (d *Visitor) below(e *elements.AtomicElement) *elements.Below {
	if d.Beside == nil {
		return nil
	}
	return d.Beside.Below(e)
}

// compareBelow computes member by member the entry of atomic node e, a map or list in local, from its elements.Below:
// src's value (as recorded) and local's. For Recorded (the deletions) the changes, lacking their source, are settled
// on local's values; for Live (the delta) they compare with it, errors name live. A tree collated without Below (not
// for patches: collate.Options.Patches) is an error, never a patch made without it.
func (d *Visitor) compareBelow(e *elements.AtomicElement, src elements.Source) (elements.Outcome, error) {
	b := d.below(e)
	switch {
	case b == nil:
		return elements.Absent, e.Errorf(elements.NoSource, "kubectl's patch compares this value member by member, but the tree was not collated for patches (collate.Options.Patches)")
	case b.Err != nil:
		if ce, ok := b.Err.(*elements.Error); ok { // (a copy: callers may rename what they are handed)
			c := *ce
			return elements.Absent, &c
		}
		return elements.Absent, b.Err
	}
	sd := *d      // (d.par is empty: Entry clears it after each visit)
	sd.made = nil // (a Below subtree holds no entry made before)
	if src == elements.Live {
		sd.changes, sd.deletions = elements.Recorded, elements.NoSource
	}
	en, err := sd.Entry(b.Element)
	if err != nil {
		return elements.Absent, renamed(err, elements.Recorded, src)
	}
	d.par, d.dels, d.wroteDirective = en.Parallel, sd.dels, sd.wroteDirective
	return en.Outcome, nil
}

// holder returns a struct type whose one field, name, has n's type and metadata: to collate or patch n alone.
func holder(n *elements.Node) (t *openapi.Type, name string) {
	if name = n.Name; name == "" {
		name = "item"
	}
	return &openapi.Type{
		Name:       n.Type.Name,
		Kind:       openapi.KindStruct,
		Fields:     map[string]*openapi.Field{name: {Name: name, Type: n.Type, Meta: n.Meta}},
		FieldNames: []string{name},
	}, name
}

// composed is a Ranked list's three-way entry: its Delta and Deletions entries made apart and, if the deletions
// have one, the delta merged into them as values, as kubectl merges them (mergePatchMaps): there an item of a repeated
// key merges into the first item of its key, whichever member made it, so the node-by-node merge of the halves does
// not hold. Both halves are made of the one tree; nothing is collated again.
func (d *Visitor) composed(e *elements.ListElement) (elements.Outcome, error) {
	dels, delta := New(Deletions, d.Gates), New(Delta, d.Gates)
	dels.Beside, delta.Beside = d.Beside, d.Beside
	den, err := dels.Entry(e)
	if err != nil {
		return elements.Absent, err
	}
	en, err := delta.Entry(e)
	d.wroteDirective = d.wroteDirective || dels.wroteDirective || delta.wroteDirective
	if err != nil || !den.Any() {
		d.par = en.Parallel
		if err == nil && en.Present && en.HasOrder {
			d.par.Unordered = firstOutOfOrder(en.Value.Items(), en.Order.Items(), e.Meta.MergeKey)
		}
		return en.Outcome, err
	}
	d.dels += dels.dels
	t, name := holder(&e.Node)
	out, err := mergePatchMaps(value.MustMap(den.appendTo(nil, name)...), value.MustMap(en.appendTo(nil, name)...), t)
	if err != nil {
		return elements.Absent, Malformed(e.Errorf(elements.NoSource, err.Error()), "made")
	}
	d.par.Order, d.par.HasOrder = out.Get(smp.SetOrderPrefix + name)
	v, ok := out.Get(name)
	return elements.Outcome{Value: v, Present: ok}, nil
}

// outOfOrder is the error for list e of repeated items whose delta half's patch list item i (counting data items)
// comes after an item it precedes in $setElementOrder: kubectl's three-way patch cannot be made.
func outOfOrder(e elements.Element, i int) *elements.Error {
	n, what := e.Base(), "merge keys"
	if _, set := e.(*elements.SetElement); set {
		what = "set values"
	}
	return n.Errorf(elements.Local, "kubectl's patch for local's repeated "+what+" cannot be made: the order of the patch list contradicts "+
		smp.SetOrderPrefix+n.Name+": patch list item "+strconv.Itoa(i)+" comes after an item it precedes there")
}

// firstOutOfOrder walks patch list list and order as kubectl checks them (a data item matches the next order entry of
// its key, or value, skipping entries; "$patch" items are passed over) and returns 1 + the ordinal of the first data
// item left unmatched, or 0 when every item matches.
func firstOutOfOrder(list, order []value.Value, mk []string) int {
	same := func(a, b value.Value) bool {
		if len(mk) == 0 {
			return value.Equal(a, b)
		}
		ka, _ := a.Get(mk[0])
		kb, _ := b.Get(mk[0])
		return value.Equal(ka, kb)
	}
	p, o, ordinal := 0, 0, 0
	for p < len(list) && o < len(order) {
		if _, directive := list[p].Get(smp.DirectiveKey); directive && list[p].IsMap() {
			p++
			continue
		}
		if same(list[p], order[o]) {
			p, ordinal = p+1, ordinal+1
		}
		o++
	}
	for ; p < len(list); p++ {
		if _, directive := list[p].Get(smp.DirectiveKey); !directive || !list[p].IsMap() {
			return ordinal + 1
		}
	}
	return 0
}

// Malformed blames local for err, met when kubectl's three-way patch for a list repeating a merge key is verb
// ("made" or "applied"): its merged halves can make the patch invalid, as kubectl's own then is.
func Malformed(err error, verb string) error {
	if e, ok := err.(*elements.Error); ok && e.Source != elements.Local {
		e.Source, e.Msg = elements.Local, "kubectl's patch for local's repeated merge keys cannot be "+verb+": "+e.Msg
	}
	return err
}

// rebase moves an *elements.Error of a subtree below collated to node path at (the subtree's first step is the node).
func rebase(err error, at fieldpath.Path) error {
	if e, ok := err.(*elements.Error); ok && len(e.Path) > 0 {
		p := make(fieldpath.Path, 0, len(at)+len(e.Path)-1)
		e.Path = append(append(p, at...), e.Path[1:]...)
	}
	return err
}

// VisitMap is Visit for its kind: a map's patch has each field's entry, null for a field the deletions'
// source has and local lacks, list fields' parallel lists, and $retainKeys under strategy retainKeys when local
// sets a field and a comparing half has entries or its source holds a non-null field local lacks.
func (d *Visitor) VisitMap(e *elements.MapElement) (elements.Outcome, error) {
	o, _, err := d.visitMap(e, nil)
	return o, err
}

// visitMap is VisitMap; given keys (a keyed list's item), a patch built of fields carries keys's fields too (keyed), as
// withPresentKeys would add them, without building the map twice.
func (d *Visitor) visitMap(e *elements.MapElement, keys *itemKeys) (o elements.Outcome, keyed bool, err error) {
	n, fs := &e.Node, e.Fields
	cs, _, done := d.prelude(n, false)
	if done {
		return d.replaced(n), false, nil
	}
	c, dels := cs != elements.NoSource, d.dels
	stack := d.stack()
	base := len(*stack)
	defer func() { *stack = (*stack)[:base] }()
	var unordered *elements.Error // the first list of repeated items kubectl's merge of the halves here refuses
	// A one-field merge key that local sets and that is visited as a scalar goes on the stack in its place, with the
	// item's value (what addTo would set), as it is met: added counts it when it is no entry of its own.
	keyField, keySet, added := "", false, 0
	if keys != nil && len(keys.mergeKey) == 1 {
		keyField = keys.mergeKey[0]
	}
	for _, f := range fs {
		if fe := f.Element.Base(); !fe.HasLocal {
			if _, has := fe.Get(d.deletions); !has {
				continue
			}
			if skip, err := d.ruled(fe); err != nil {
				return elements.Absent, false, err
			} else if !skip {
				*stack = append(*stack, value.Field{Key: f.Name, Value: value.Null})
				d.dels++
			}
			continue
		}
		if o, ok := d.scalarEntry(f.Element); ok { // (the most common field, without Entry's generality)
			switch {
			case keyField != "" && f.Name == keyField:
				if !o.Present {
					added++
				}
				*stack, keySet = append(*stack, value.Field{Key: f.Name, Value: f.Element.Base().Local}), true
			case o.Present:
				*stack = append(*stack, value.Field{Key: f.Name, Value: o.Value})
				d.noteMergeRead(f.Name)
			}
			continue
		}
		en, err := d.Entry(f.Element)
		if err != nil {
			return elements.Absent, false, err
		}
		if unordered == nil {
			unordered = refusedWhenMerged(f.Element, en)
		}
		*stack = en.appendTo(*stack, f.Name)
	}
	deleted := d.dels > dels
	if unordered != nil && (n.Parent == nil || deleted) {
		// kubectl merges its halves' maps here (the root, or a map both halves hold), checking each delta list against
		// its $setElementOrder.
		return elements.Absent, false, unordered
	}
	if !c && !deleted {
		return d.replaced(n), false, nil
	}
	if n.Meta.Strategy.Has(openapi.StrategyRetainKeys) {
		*stack = d.appendRetainKeys(*stack, base, fs, c && len(*stack)-base-added > 0, c, deleted)
	}
	if len(*stack)-added == base {
		return elements.Absent, false, nil
	}
	if keys != nil && !keySet {
		*stack = d.addKeys(keys, *stack, base)
	}
	o, err = d.patchMap(n, (*stack)[base:])
	return o, keys != nil && err == nil, err
}

// patchMap is the patch of map node n whose entries are fields (visitMap's stack, copied): local's map itself where
// they are every field of local's as it is.
func (d *Visitor) patchMap(n *elements.Node, fields []value.Field) (elements.Outcome, error) {
	if holdsExactly(fields, n.Local) {
		return elements.Keep(n.Local), nil
	}
	out := d.mem.fieldsOf(len(fields))
	copy(out, fields)
	m, dup, ok := newMapOnce(out)
	if !ok {
		return elements.Absent, n.Errorf(elements.Local, "field "+strconv.Quote(dup)+" collides with a patch directive of the same name")
	}
	return elements.Keep(m), nil
}

// holdsExactly reports whether fields are map m's own, in its order: the same keys and the very same values.
func holdsExactly(fields []value.Field, m value.Value) bool {
	mf := m.Fields()
	if len(fields) != len(mf) {
		return false
	}
	for i := range fields {
		if fields[i] != mf[i] {
			return false
		}
	}
	return true
}

// markerEntry is the entry of field "$patch" (node n) of a map local holds where the schema declares no such field (data of
// local's, not read as a directive: collate.Options.KubectlDiffs), as strategicpatch's diffs write it: a half whose
// source holds the field too compares the two as strings (either not one: an error blaming it, smp.MarkerNotString)
// and writes local's value where they differ, the deletions half too (counted in d.dels); a changes half whose source lacks it writes it
// as any field added. (The changes half is compared first, as strategicpatch diffs current before original.)
func (d *Visitor) markerEntry(n *elements.Node) (elements.Outcome, error) {
	write := false
	for _, src := range [...]elements.Source{d.changes, d.deletions} {
		if src == elements.NoSource {
			continue
		}
		v, has := n.Get(src)
		if !has {
			write = write || src == d.changes
			continue
		}
		ls, lok := n.Local.AsString()
		vs, vok := v.AsString()
		switch {
		case !lok:
			return elements.Absent, n.Errorf(elements.Local, smp.MarkerNotString)
		case !vok:
			return elements.Absent, n.Errorf(src, smp.MarkerNotString)
		}
		if ls != vs {
			write = true
			if src == d.deletions {
				d.dels++ // (the deletions half has an entry here)
			}
		}
	}
	if !write {
		return elements.Absent, nil
	}
	d.wroteDirective = true // (the patch's map holds local's "$patch": withoutLocalDirectives reads it)
	return elements.Keep(n.Local), nil
}

// isMarker reports whether node n is field "$patch" of a map whose type does not declare it (markerEntry).
func isMarker(n *elements.Node) bool {
	m, ok := n.Parent.(*elements.MapElement)
	return ok && m.Type.Field(smp.DirectiveKey) == nil
}

// newMapOnce is value.NewMap of fields, where a key written twice with equal values (local's directive key, data,
// beside the directive the patch generates: strategicpatch's diff writes one over the other) is written once; dup
// names a key written twice with values that differ.
func newMapOnce(fields []value.Field) (m value.Value, dup string, ok bool) {
	if m, dup, ok = value.NewMap(fields); ok {
		return m, "", true
	}
	kept := make([]value.Field, 0, len(fields))
	for _, f := range fields {
		at := slices.IndexFunc(kept, func(k value.Field) bool { return k.Key == f.Key })
		switch {
		case at < 0:
			kept = append(kept, f)
		case !value.Equal(kept[at].Value, f.Value):
			return value.Value{}, f.Key, false
		}
	}
	return value.NewMap(kept)
}

// refusedWhenMerged is the error kubectl's merge of its halves' maps meets at field element fe, of entry en: a list of
// repeated items out of its "$setElementOrder", or a list merged by key holding scalars the delta adds to; nil where
// there is none.
func refusedWhenMerged(fe elements.Element, en Entry) *elements.Error {
	switch {
	case en.Unordered > 0:
		return outOfOrder(fe, en.Unordered-1)
	case en.ScalarsByKey:
		return fe.Base().Errorf(elements.Local, smp.ScalarsByKey)
	}
	return nil
}

// appendRetainKeys appends to stack the "$retainKeys" entry of a retainKeys map of fields fs, which has entries (of
// its own, not merge keys added) when changed, compares (c) and deleted as visitMap found: the keys local sets, where
// the map changes (compared, with entries or a field the changes' source holds and local lacks) or deletes; written
// over the entry of local's own field "$retainKeys" (data: collate.Options.KubectlDiffs) from base on, if any, as
// strategicpatch's diff writes its directive after the map's fields.
func (d *Visitor) appendRetainKeys(stack []value.Field, base int, fs []elements.Field, changed, c, deleted bool) []value.Field {
	var keys []value.Value
	extra := false
	for _, f := range fs {
		if e := f.Element.Base(); e.LocalSet() {
			keys = append(keys, value.String(f.Name))
		} else if v, has := e.Get(d.changes); has && !e.HasLocal && !v.IsNull() {
			extra = true
		}
	}
	if len(keys) > 0 && (changed || (c && extra) || deleted) {
		if at := slices.IndexFunc(stack[base:], func(f value.Field) bool { return f.Key == smp.RetainKeysKey }); at >= 0 {
			stack[base+at].Value = value.List(keys) // (local's own "$retainKeys", data: the directive is written over it)
			return stack
		}
		stack = append(stack, value.Field{Key: smp.RetainKeysKey, Value: value.List(keys)})
	}
	return stack
}

// scalarEntry is Entry's outcome for e when e is an atomic node holding a scalar in local under no registered rule
// (ok): VisitAtomic's value sent whole, with no parallel lists. ok is false for any other node, and for a field named
// "$patch" (Entry's markerEntry).
func (d *Visitor) scalarEntry(e elements.Element) (o elements.Outcome, ok bool) {
	a, ok := e.(*elements.AtomicElement)
	if !ok || a.Meta.Rule != nil || a.Local.IsMap() || a.Local.IsList() || a.Name == smp.DirectiveKey {
		return elements.Absent, false
	}
	return halves.Replaced(&a.Node, d.changes), true // (a scalar: nothing for wrote to note)
}

// VisitList is Visit for its kind for a list of maps merged by key: changed items (their patch plus merge key) and
// items new to the changes' source (whole), in local's order (those holding local's "$patch: delete" last), then a
// delete directive per item of the deletions' source local lacks, in kubectl's key order; and $setElementOrder
// (local's keys) when the deletions have entries or the changes compare and have entries or their source's key
// sequence differs from local's.
func (d *Visitor) VisitList(e *elements.ListElement) (elements.Outcome, error) {
	n := &e.Node
	if e.Ranked && d.changes == elements.Live && d.deletions == elements.Recorded {
		return d.composed(e)
	}
	cs, ds, done := d.prelude(n, true)
	if done {
		return d.replaced(n), nil
	}
	c := cs != elements.NoSource
	delItems, err := d.items(e, ds)
	if err != nil {
		return elements.Absent, err
	}
	changeItems, err := d.items(e, cs)
	if err != nil {
		return elements.Absent, err
	}
	mk, itemType := n.Meta.MergeKey, n.Type.Item()
	local := n.Local.Items()
	matched := make([]bool, len(delItems))
	orderSame := len(changeItems) == len(local)
	dels := d.dels
	var seq []int // a Ranked list's local members in the order of kubectl's patch, by position
	if e.Ranked {
		seq = smp.PatchOrder(smp.SortByKey(local, mk[0]))
	}
	out := d.itemStack()
	base := len(*out)
	defer func() { *out = (*out)[:base] }()
	keys := itemKeys{mergeKey: mk} // (the item's set for each)
	for i := range e.Items {
		if i < len(seq) {
			i = seq[i]
		}
		it := &e.Items[i]
		if it.LocalIndex < 0 {
			break
		}
		fc, fd := halves.Index(it, cs), halves.Index(it, ds)
		orderSame = orderSame && fc == it.LocalIndex
		if fd >= 0 {
			matched[fd] = true
		}
		switch {
		case fc < 0 && fd < 0 && d.changes != elements.NoSource: // in neither compared source: whole
			*out = append(*out, d.wrote(local[it.LocalIndex]))
		case fc >= 0 || fd >= 0:
			keys.item = local[it.LocalIndex]
			o, keyed, err := d.itemOutcome(it.Element, &keys)
			switch {
			case err != nil:
				return elements.Absent, err
			case keyed:
				*out = append(*out, o.Value)
			case o.Present && o.Value.IsMap():
				*out = append(*out, d.withPresentKeys(o.Value, local[it.LocalIndex], mk))
			}
		}
	}
	if e.Ranked { // members are not in local's order: compare the keys at each position, as kubectl compares order
		orderSame = sameKeys(changeItems, local, mk, itemType)
	}
	deleteDirectedLast((*out)[base:])
	*out = d.appendDeletes(*out, delItems, matched, mk, itemType)
	deleted, entries := d.dels > dels, len(*out)-base
	if !c && !deleted {
		return d.replaced(n), nil
	}
	if d.order && len(local) > 0 && ((c && (entries > 0 || !orderSame)) || deleted) {
		d.par = Parallel{Order: d.keyOrder(local, mk, itemType), HasOrder: true}
	}
	if entries == 0 {
		return elements.Absent, nil
	}
	list := d.mem.valuesOf(entries)
	copy(list, (*out)[base:])
	return elements.Keep(value.List(list)), nil
}

// deleteDirectedLast moves the items of patch list items that hold "$patch: delete" (local's own, data) after the
// others, each group in its order, as strategicpatch's diff orders its patch list before the deletions it appends.
func deleteDirectedLast(items []value.Value) {
	if !slices.ContainsFunc(items, deleteDirected) {
		return
	}
	others := make([]value.Value, 0, len(items))
	var directed []value.Value
	for _, it := range items {
		if deleteDirected(it) {
			directed = append(directed, it)
		} else {
			others = append(others, it)
		}
	}
	copy(items, append(others, directed...))
}

// deleteDirected reports whether patch item it is a map holding "$patch: delete".
func deleteDirected(it value.Value) bool {
	d, ok := it.Get(smp.DirectiveKey)
	return ok && it.IsMap() && value.Equal(d, value.String(smp.DeleteValue))
}

// itemOutcome is Entry's outcome for e, an item of a list merged by key (an item has no parallel lists): a map under
// no registered rule is visited as a map straight away, its patch carrying keys's fields when keyed (visitMap).
func (d *Visitor) itemOutcome(e elements.Element, keys *itemKeys) (o elements.Outcome, keyed bool, err error) {
	if m, ok := e.(*elements.MapElement); ok && m.Meta.Rule == nil {
		o, keyed, err = d.visitMap(m, keys)
		d.par = Parallel{}
		return o, keyed, err
	}
	en, err := d.Entry(e)
	return en.Outcome, false, err
}

// itemKeys names the merge-key fields a keyed list's item patch carries (withPresentKeys): those of mergeKey item
// writes.
type itemKeys struct {
	item     value.Value
	mergeKey []string
}

// addTo returns stack, whose entries from base on are a map's fields in order (directives, out of order, among them),
// with k's fields set: an entry of the same name takes the item's value, another field is inserted before the first
// entry named after it (value.NewMap orders the directives).
func (k *itemKeys) addTo(stack []value.Field, base int) []value.Field {
next:
	for _, name := range k.mergeKey {
		v, ok := k.item.Get(name)
		if !ok {
			continue
		}
		at := base
		for at < len(stack) && stack[at].Key < name {
			at++
		}
		for j := at; j < len(stack); j++ {
			if stack[j].Key == name {
				stack[j].Value = v
				continue next
			}
		}
		stack = append(stack, value.Field{})
		copy(stack[at+1:], stack[at:])
		stack[at] = value.Field{Key: name, Value: v}
	}
	return stack
}

// addKeys is keys.addTo, noting the values of local it writes (wrote).
func (d *Visitor) addKeys(keys *itemKeys, stack []value.Field, base int) []value.Field {
	for _, name := range keys.mergeKey {
		if v, ok := keys.item.Get(name); ok {
			d.wrote(v)
		}
	}
	return keys.addTo(stack, base)
}

// keyOrder is $setElementOrder's list for local's items, in local's order: each item's merge key fields, carved from
// the walk's memory.
func (d *Visitor) keyOrder(local []value.Value, mk []string, itemType *openapi.Type) value.Value {
	order := d.mem.valuesOf(len(local))
	keys := d.mem.fieldsOf(len(local) * len(mk))[:0]
	for i, li := range local {
		at := len(keys)
		keys = appendItemKeyFields(keys, li, mk, itemType)
		if fs := keys[at:len(keys):len(keys)]; len(fs) > 1 {
			order[i] = value.MustMap(fs...)
		} else {
			order[i] = value.MapFromSorted(fs) // (one field or none: in order)
		}
	}
	return value.List(order)
}

// sameKeys reports whether items a and b hold the same merge keys at each position, as kubectl compares a list's order.
func sameKeys(a, b []value.Value, mk []string, itemType *openapi.Type) bool {
	return slices.EqualFunc(a, b, func(x, y value.Value) bool {
		kx, _ := keyOfItem(x, mk, itemType)
		ky, _ := keyOfItem(y, mk, itemType)
		return kx == ky
	})
}

// appendDeletes appends to out a delete directive per unmatched item of fromItems (counted in d.dels), in key order.
func (d *Visitor) appendDeletes(out, fromItems []value.Value, matched []bool, mk []string, itemType *openapi.Type) []value.Value {
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
		sortKey, directive := make([]string, len(kf)), deleteDirective
		for j, f := range kf {
			sortKey[j] = smp.KeyString(f.Value)
			directive = directive.With(f.Key, f.Value)
		}
		dels = append(dels, keyed{sortKey, directive})
	}
	d.dels += len(dels)
	slices.SortStableFunc(dels, func(a, b keyed) int { return slices.Compare(a.sortKey, b.sortKey) })
	for _, del := range dels {
		out = append(out, del.item)
	}
	return out
}

// items returns src's items at e (none for NoSource), or an error for the first a patch cannot name (not an object with
// scalar merge-key fields): for live, a LiveExtra repeating no item; recorded's are checked unless collate matched all.
func (d *Visitor) items(e *elements.ListElement, src elements.Source) ([]value.Value, error) {
	v, _ := e.Get(src)
	items, bad := v.Items(), -1
	switch src { // (NoSource's value is null: no items)
	case elements.Live:
		if i := slices.IndexFunc(e.LiveExtra, func(x elements.Item) bool { return x.Of < 0 }); i >= 0 {
			bad = e.LiveExtra[i].LiveIndex
		}
	case elements.Recorded:
		named := 0
		for i := range e.Items {
			if e.Items[i].RecordedIndex >= 0 {
				named++
			}
		}
		for i := 0; named != len(items) && i < len(items) && bad < 0; i++ {
			if _, ok := keyOfItem(items[i], e.Meta.MergeKey, e.Type.Item()); !ok {
				bad = i
			}
		}
	}
	if bad >= 0 {
		got := items[bad].Kind().String()
		if items[bad].IsMap() {
			got = smp.GotWithoutKey
		}
		return nil, e.Errorf(src, smp.MergeKeyNotScalar{Item: bad, MergeKey: e.Meta.MergeKey, Got: got}.Msg())
	}
	return items, nil
}

// keyOfItem returns the identity (elements.KeyOf) of item, a patch list's item that may be anything; ok false: none.
func keyOfItem(item value.Value, mergeKey []string, itemType *openapi.Type) (k elements.Key, ok bool) {
	if !item.IsMap() || len(mergeKey) > elements.MaxKeyFields {
		return k, false
	}
	k, missing, _ := elements.KeyOf(item, mergeKey, itemType)
	return k, missing == ""
}

// withPresentKeys returns m with the merge-key fields item writes, all a patch item carries: a key field local leaves
// out stays out and the receiver fills its default, as a merge of local does (unlike itemKeyFields).
func (d *Visitor) withPresentKeys(m, item value.Value, mergeKey []string) value.Value {
	for _, name := range mergeKey {
		if v, ok := item.Get(name); ok {
			m = d.mem.with(m, name, d.wrote(v))
		}
	}
	return m
}

// itemKeyFields returns the merge-key fields entries that only name an item (delete directives,
// $setElementOrder) carry (appendItemKeyFields), in memory of their own.
func itemKeyFields(item value.Value, mergeKey []string, itemType *openapi.Type) []value.Field {
	return appendItemKeyFields(make([]value.Field, 0, len(mergeKey)), item, mergeKey, itemType)
}

// stack returns the stack VisitMap gathers a map's entries on: the walk's, or (a Visitor without memory) one of its
// own.
func (d *Visitor) stack() *[]value.Field {
	if d.mem == nil {
		d.mem = &Memory{}
	}
	return &d.mem.stack
}

// itemStack returns the stack VisitList gathers a list's items on, as stack.
func (d *Visitor) itemStack() *[]value.Value {
	if d.mem == nil {
		d.mem = &Memory{}
	}
	return &d.mem.items
}

var deleteDirective = value.MustMap(value.Field{Key: smp.DirectiveKey, Value: value.String(smp.DeleteValue)})

// VisitSet is Visit for its kind for a set: local's values new to the changes' source (local's order),
// $deleteFromPrimitiveList with the deletions' source's values local lacks (in kubectl's scalar order), and
// $setElementOrder (local's list) when values are deleted or the changes compare and local is not their list sorted
// (halves.OfSet decides which).
func (d *Visitor) VisitSet(e *elements.SetElement) (elements.Outcome, error) {
	n := &e.Node
	s, err := halves.OfSet(e, d.changes, d.deletions)
	switch {
	case err != nil:
		return elements.Absent, err
	case s.Settled:
		return d.replaced(n), nil
	}
	if len(s.Deleted) > 0 {
		d.par.Deletes, d.par.HasDeletes = value.List(s.Deleted), true
		d.dels += len(s.Deleted)
	}
	if d.order && s.Order {
		d.par.Order, d.par.HasOrder = n.Local, true
		threeWay := d.changes == elements.Live && d.deletions == elements.Recorded
		if e.Ranked && threeWay {
			d.par.Unordered = firstOutOfOrder(s.Added, n.Local.Items(), nil)
		}
		// (The delta half orders a list it compares and adds to.)
		d.par.ScalarsByKey = threeWay && len(n.Meta.MergeKey) > 0 && s.Compared && len(s.Added) > 0
	}
	switch {
	case !s.Compared:
		return d.replaced(n), nil
	case len(s.Added) == 0:
		return elements.Absent, nil
	}
	for _, v := range s.Added {
		d.wrote(v)
	}
	return elements.Keep(value.List(s.Added)), nil
}
