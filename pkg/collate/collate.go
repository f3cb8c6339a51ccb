// Package collate is Phase 1 of every operation: it walks the recorded, local and live objects (or a patch and live,
// read by pkg/collate/internal/format's rules) with the schema into one tree of pkg/elements Elements, by these rules:
//   - Only nodes local sets (present, not null) get children: a node local omits or nulls is a leaf decided by presence
//     alone, so server-owned subtrees such as status are never walked.
//   - Local must fit the schema, else an *elements.Error blames it. Live whose kind differs from local's makes the node
//     atomic; recorded whose kind differs is ignored below that node.
//   - Merged lists match items by identity (elements.KeyOf, elements.SetKey) via one index per list (O(n)). Local items
//     lacking their key or sharing one are errors; live may repeat or lack keys (LiveExtra, kept unchanged); recorded
//     keys are a set. With gate UniqueMergeKeys off, a merge pairs repeated keys as kubectl does (ranks). Under a kubectl
//     view of the schema (gate MultiFieldMergeKeys off) a key field given as null is the key value null
//     (openapi.Type.NullKey); applying a patch, such an item naming live's item or an earlier item of the patch is an
//     error, as in strategicpatch, whose merge of the two deletes the key (collator.nullKeyMerges).
//   - A field whose metadata names a registered merge rule (openapi.Meta.Rule) is resolved where its metadata is
//     (collator.ruleMeta): with the rule's gate off the schema alone decides; a rule's Meta gives the metadata, its
//     Collate builds the node (merges only); nodes its Visitor decides, and their ancestors, are marked Ruled.
//   - A patch's list naming a merge key twice (gate UniqueMergeKeys off) keeps each later item of the key as a Repeat,
//     collated in the same pass as a root of its own, without live (elements.Repeat.Element); its error is kept for the
//     walk that reads it, never failing the collation. A key's first repeat has its merged lists paired with the
//     member's, as a collation with the member's outcome as live pairs them (elements.Chain, chain.go), so that Phase 2
//     merges it onto that outcome without collating again.
//   - With Options.Patched, a merge's node kubectl's pipeline decides (gate UniqueMergeKeys off: a Ranked list or set,
//     or a value live holds as another kind below which a merged list repeats a key) gets beside the tree, in the same
//     pass, its outcome tree: its three-way patch entry, made of its subtree, collated as a patch over its live value
//     (elements.Patched, Arena.Patched; patched.go), so that Phase 2 decides it without collating again.
package collate

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/plyproject/ply/internal/delta"
	"github.com/plyproject/ply/internal/halves"
	"github.com/plyproject/ply/internal/order"
	"github.com/plyproject/ply/internal/probe"
	"github.com/plyproject/ply/internal/smp"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/collate/internal/format"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/pkg/fieldpath"
	"github.com/plyproject/ply/pkg/value"
)

// Options control a collation.
type Options struct {
	// Patch says Local holds a strategic merge patch (pkg/patch), its directives read into the nodes' Directives.
	Patch bool
	// MaxDepth bounds a patch's nesting (0: none); Depth is the root's (a patch's item applied alone keeps its own).
	MaxDepth, Depth int
	// Compose (with Patch) collates a patch to merge into another, held as live (pkg/patch.Compose).
	Compose bool
	// Gates switch ply's departures from kubectl (pkg/features).
	Gates features.Gates
	// Patches collates the tree for patch generation too (internal/delta): atomic nodes kubectl's patches compare
	// member by member get their elements.Below (Arena.Below), collated in the same pass; a merge alone needs none.
	Patches bool
	// Conflicts collates, in the same pass, the conflict check's view of the object (kubectl apply --overwrite=false):
	// recorded's and live's values ({} when absent) as recorded and local, leniently, from the root type. It is a second
	// root in the tree's storage and ID space (Arena.Conflicts); its error fails nothing but the check that reads it.
	Conflicts bool
	// Lenient collates as local an object the server holds (kubectl's conflict check, a merge's result): a kind the
	// schema rules out makes the node atomic, a directive-named field is data, and of local items repeating a key (or
	// set value) only the first is matched. Keyless or non-object items and non-scalar set values still fail.
	Lenient bool
	// OtherKindsAtomic makes a node whose local value (a patch's, with Patch) is of a kind the schema rules out atomic,
	// the value taken whole (a patch's less its directives; with Compose, as a value first lacks), as strategicpatch
	// takes a value paired with one of another kind: the strategicpatch engine types a place by the kind that merges
	// there, leaving values of other kinds to be taken whole. Else such a value is an error (Lenient: atomic too).
	OtherKindsAtomic bool
	// KubectlDiffs (patch creation, with Patches) collates a list of local merged by key as strategicpatch's diffs read
	// it, by its items' kinds (the merge key unread) rather than by its schema: where local's list holds an item
	// without identity (not an object, or lacking a merge key field or holding it as other than a scalar) and neither
	// recorded nor live holds items at its place (each lacks the list, holds it empty or null, or holds another kind),
	// it is atomic, taken whole, as the diffs, pairing no items there, write local's list as it stands; where local's
	// items and those of recorded and live at its place are all scalars of one kind, it is a set of scalars, as the
	// diffs compare such lists (added values, "$deleteFromPrimitiveList", "$setElementOrder"). Else such items are an
	// error. A directive key of local's maps ("$patch", "$retainKeys", "$setElementOrder/<f>",
	// "$deleteFromPrimitiveList/<f>") is data, as the diffs read it (so it is in a merge with gate MultiFieldMergeKeys
	// off, which kubectl's three-way patch decides: Directed; with the gate on, outside a patch, without KubectlDiffs,
	// it is an error naming the path). patchgen sets it under the kubectl view of merge keys (gate MultiFieldMergeKeys
	// off).
	KubectlDiffs bool
	// Patched collates, beside each node of a merge that kubectl's pipeline decides (gate UniqueMergeKeys off: a Ranked
	// list or set, or a value live holds as another kind below which a merged list repeats a key; the root of a
	// Directed merge), its outcome tree: its entry in kubectl's three-way patch collated as a patch over its live value
	// (elements.Patched, Arena.Patched; patched.go). It needs Patches; a merge sets it when the object has live (else
	// local is created as it is).
	Patched bool
}

// Collate builds the Element tree of one object from its values and its root type (openapi.Unknown when the kind has no
// schema). The root has no Parent; nodes are numbered from 0.
func Collate(vals elements.Values, root *openapi.Type, opts Options) (elements.Element, error) {
	c := collator{opts: opts}
	return c.collate(vals, root)
}

// CountIn is Collate on pooled storage, also returning the tree's node count n (IDs 0..n-1) for Phase 2's tables; the
// conflict check's view (Options.Conflicts), which Phase 2's merge never walks, is numbered after them. Call
// Arena.Release once nothing refers to the tree; one still referred to (an error, lazy change paths) stays unreleased.
func CountIn(vals elements.Values, root *openapi.Type, opts Options) (elements.Element, int, *Arena, error) {
	c := collators.Get().(*collator)
	c.opts = opts
	tree, err := c.collate(vals, root)
	nodes := int(c.nodes)
	if err == nil && opts.Conflicts {
		c.conflictView(tree.Base())
	}
	return tree, nodes, &Arena{c: c}, err
}

// conflictView collates the conflict check's view of the object at root (Options.Conflicts) as a second root.
func (c *collator) conflictView(root *elements.Node) {
	empty := value.MapFromSorted(nil)
	// Recorded and live, absent exactly when null (RootValues), are {} then.
	vals := elements.Values{Recorded: cmp.Or(root.Recorded, empty), HasRecorded: true, Local: cmp.Or(root.Live, empty), HasLocal: true}
	opts, ranked := c.opts, c.ranked // (the view decides nothing of the merge)
	c.opts = Options{Lenient: true, Gates: opts.Gates, KubectlDiffs: opts.KubectlDiffs}
	// The view's lists take their members from new chunks, sized by its own lists as a tree's first are, not grown from
	// the tree's last chunk; of the two last chunks the larger stays, for Release to pool.
	items := c.itemSlab
	c.itemSlab = nil
	c.conflicts, c.conflictsErr = c.node(nil, "", false, &vals, root.Type, &openapi.Meta{})
	if c.conflictsErr != nil {
		c.conflicts = nil
	}
	if cap(items) > cap(c.itemSlab) {
		c.itemSlab = items
	}
	c.opts, c.ranked = opts, ranked
}

// Below returns the subtree kubectl's patches compare atomic node e of the tree by (elements.Below), nil if it has none:
// in a tree collated without Options.Patches, none has. Call it before Release.
func (a *Arena) Below(e *elements.AtomicElement) *elements.Below {
	if a.c == nil {
		return nil
	}
	return a.c.belows[e.ID]
}

// Conflicts returns the conflict check's view of the tree (Options.Conflicts), or the error collating it, its source
// as collated: live's value is Local there. Both are nil for a tree collated without Conflicts. Call it before Release.
func (a *Arena) Conflicts() (elements.Element, error) {
	if a.c == nil {
		return nil, nil
	}
	return a.c.conflicts, a.c.conflictsErr
}

// Arena is the storage of one tree built by CountIn.
type Arena struct{ c *collator }

// Ranked reports whether the tree holds a Ranked list (elements.ListElement.Ranked), or a repeated key below a value
// live holds as another kind (repeatsKey), or whether the merge is Directed (collated with Options.Patched): kubectl's
// patch decides the merge. Call it before Release.
func (a *Arena) Ranked() bool { return a.c != nil && a.c.ranked }

// collators keeps released collators, their slabs emptied and cleared.
var collators = sync.Pool{New: func() any { return new(collator) }}

// Release clears the storage (to keep no input alive) and pools it; then the tree is unusable and Release a no-op.
func (a *Arena) Release() {
	c := a.c
	if c == nil {
		return
	}
	a.c = nil
	c.reset()
	collators.Put(c)
}

// reset empties c for the next tree: its slabs, buffers, directive memory and index are cleared and kept, everything
// else is zero. It sets field by field what a zero collator would hold rather than assigning one, which would copy
// the whole collator (the Index holds its first keys in place) under write barriers on every Release.
func (c *collator) reset() {
	c.maps.reset()
	c.lists.reset()
	c.sets.reset()
	c.atomics.reset()
	c.fields, c.fieldSlab, c.itemSlab = c.fields[:0], reuse(c.fieldSlab), reuse(c.itemSlab)
	c.seq, c.orderIDs = c.seq[:0], c.orderIDs[:0]
	c.directives.Reset()
	c.index.Reset(1, 0) // (its maps cleared: no key of the tree stays referenced)
	c.opts, c.src, c.nodes, c.ranked, c.directed = Options{}, 0, 0, false, false
	c.repeat, c.composed, c.composedIn, c.emptyOrder, c.repeatMerged, c.contradicted, c.disordered = nil, nil, nil, nil, false, nil, nil
	c.gathering, c.gathered, c.outcomeOrdered = false, nil, false
	c.belows, c.conflicts, c.conflictsErr = nil, nil, nil
	c.patched, c.entries = nil, nil
}

func reuse[T any](slab []T) []T {
	clear(slab)
	return slab[:0]
}

func (c *collator) collate(vals elements.Values, root *openapi.Type) (elements.Element, error) {
	probe.Collated()
	if root == nil {
		root = openapi.Unknown
	}
	if c.opts.Patch {
		c.src = elements.Patch
		return c.patchNode(elements.Node{Values: vals, Type: root}, 0)
	}
	c.src = elements.Local
	if c.opts.Patched && Directed(vals, c.opts.Gates) {
		c.directed, c.ranked = true, true
	}
	e, err := c.node(nil, "", false, &vals, root, &openapi.Meta{})
	if err == nil && c.directed {
		c.decideWhole(e)
	}
	return e, err
}

// collator allocates the tree's nodes from slabs: n nodes cost O(log n) allocations per node type, not n, and none
// once a pooled collator's slabs have held a tree of n nodes (slab).
type collator struct {
	opts    Options
	src     elements.Source // the source Local holds: the patch in a patch tree
	maps    slab[elements.MapElement]
	lists   slab[elements.ListElement]
	sets    slab[elements.SetElement]
	atomics slab[elements.AtomicElement]
	// fields is a stack of the fields of the maps being collated, zero beyond its length; done maps move theirs to
	// fieldSlab.
	fields    []elements.Field
	fieldSlab []elements.Field
	// itemSlab holds the members of the lists and sets.
	itemSlab []elements.Item
	// nodes counts the nodes built: the next node's ID.
	nodes int32
	// repeat is the Repeat whose tree is being collated (repeats; nil elsewhere): directive maps record their nodes
	// onto a map in it (ontoMap).
	repeat *elements.Repeat
	// repeatMerged reports that the Repeat being collated (repeat) merges into its key's outcome: its list is not kept
	// apart (order.RepeatsApart).
	repeatMerged bool
	// composed is compose mode's Repeat whose tree is being collated (repeats; nil elsewhere): a leaf holding the
	// patch's value less maps holding "$patch" records its node in it (whole: elements.Repeat.Cleaned).
	composed *elements.Repeat
	// composedIn is the list whose Repeat composed is (nil where composed is nil): the root of the Repeat's tree,
	// taken whole, is cleaned as an item of that list is (cleansWhole).
	composedIn *elements.ListElement
	// contradicted is the error format.CheckOrder gave last while compose mode's Repeat was collated (order): a merged
	// list its "$setElementOrder" contradicts (elements.Repeat.Contradicted).
	contradicted error
	// gathering is set while compose mode's Repeat is first collated onto the skeleton of its maps: a merged list its
	// "$setElementOrder" contradicts in a map below the item's own, reached through maps, does not fail that
	// collation; its error is gathered (leaveContradicted leaves out all their maps at once).
	gathering bool
	gathered  []*elements.Error
	// emptyOrder is the first error of the Repeat being collated that a list it holds empty and orders gives (left for
	// Phase 2: collatingRepeat), nil without one.
	emptyOrder error
	// outcomeOrdered reports that a list of the Repeat being collated had its "$setElementOrder" refused by
	// repeatOrdered (for what its key's outcome decides, or for where the item lands): the repeat's error is then no
	// collation's with an outcome lacking the field.
	outcomeOrdered bool
	// disordered is the error of the Repeat being collated that a merged list's "$setElementOrder" gives (order: an
	// entry naming no item the list can hold, one the list lacks, an order its items do not follow), for a keyed list or
	// a set of scalars it keeps no repeat apart in (not Ranked), nil without one.
	disordered error
	// ranked reports a Ranked list built, or a repeated key found below a value live holds as another kind, or a
	// Directed merge: kubectl's patch decides the merge. directed reports the last: the root's outcome tree decides it.
	ranked, directed bool
	// seq is the buffer of members.seq, reused list after list (a list's seq is done with once order checks it).
	seq []int
	// directives holds the directives patch maps give their fields (format.ReadMap).
	directives format.Memory
	// orderIDs is the buffer of a "$setElementOrder" list's member IDs, reused list after list (order).
	orderIDs []int
	// index is members.index, reset list after list: a list's members are matched (and its order checked) before any
	// other list is collated.
	index elements.Index
	// belows holds the atomic nodes' elements.Below by node ID (Options.Patches; nil until one is built).
	belows map[int32]*elements.Below
	// conflicts is the conflict check's view (Options.Conflicts), or conflictsErr the error collating it.
	conflicts    elements.Element
	conflictsErr error
	// patched holds the outcome trees beside the tree by node ID (Options.Patched; nil until one is built), entries
	// the three-way entries they were made of (Arena.Entered).
	patched map[int32]*elements.Patched
	entries map[int32]delta.Made
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

// build returns a new Element from slab, its node set to s (complete but for its ID and children) and numbered.
func build[T any, E interface {
	*T
	elements.Element
}](c *collator, slab *slab[T], s *elements.Node) E {
	e := E(alloc(slab))
	n := e.Base()
	*n = *s
	n.ID = c.nodes
	c.nodes++
	return e
}

// node builds a merge node's Element in place in its slab (nodes are large: copying costs more than deciding the kind).
func (c *collator) node(parent elements.Element, name string, item bool, vals *elements.Values, t *openapi.Type, meta *openapi.Meta) (elements.Element, error) {
	if meta.Rule == nil && vals.HasLocal && vals.Local.IsScalar() && (t.Kind == openapi.KindPrimitive || t.Kind == openapi.KindUnknown) {
		return c.scalar(parent, name, vals, t, meta), nil
	}
	s := elements.Node{Parent: parent, Name: name, Values: *vals, Type: t, Meta: *meta}
	if meta.Rule != nil {
		if r := elements.RuleOf(&s); r != nil && r.Collate != nil {
			return r.Collate(c, s)
		}
	}
	if !vals.LocalSet() {
		return build(c, &c.atomics, &s), nil
	}
	local := vals.Local
	clash := vals.HasLive && !vals.Live.IsNull() && vals.Live.Kind() != local.Kind() // live holds another kind
	// An item all sources agree on is atomic (items only: comparing at every level would rescan subtrees per level).
	// (With gate UniqueMergeKeys off, not one holding a set that repeats a value: kubectl's patch orders that set
	// whatever the sources hold, and the server regroups its repeats: repeatsSetValue.)
	same := item && vals.HasLive && value.Equal(local, vals.Live) &&
		(!vals.HasRecorded || value.Equal(vals.Recorded, local)) && !c.ranksSetIn(local, t, *meta)
	switch err := kindFits(&s, elements.Local); {
	case err != nil && !c.opts.Lenient && !c.opts.OtherKindsAtomic:
		return nil, err
	case err != nil: // (Lenient, OtherKindsAtomic) a kind the schema rules out is atomic
		return c.atomic(&s, vals.HasLive && value.Equal(local, vals.Live)), nil
	case same || clash: // atomic
	case local.IsMap() && !meta.Strategy.Has(openapi.StrategyReplace):
		return c.fieldsNode(&s, local.Fields(), nil, 0)
	case local.IsList() && elements.MergedList(t, meta):
		switch elem := t.Item(); {
		case elem.Kind == openapi.KindPrimitive || elements.SetOfMaps(t, meta):
			return c.setNode(&s)
		case len(meta.MergeKey) > 0 && elem.Kind != openapi.KindList:
			switch c.kubectlDiffed(&s) {
			case diffedAsScalars:
				return c.setNode(&s)
			case diffedByKey:
				return c.keyedNode(&s, 0)
			}
		}
	}
	// Below a value live holds as another kind, a repeated key too is merged through kubectl's patch.
	if !c.opts.Gates.Enabled(features.UniqueMergeKeys) && !c.opts.Patch && (!c.ranked || c.opts.Patched) && clash && repeatsKey(local, t, *meta) {
		c.ranked = true
		e := c.atomic(&s, same)
		c.patch(e)
		return e, nil
	}
	return c.atomic(&s, same), nil
}

// diffedAs is how strategicpatch's diffs read a list merged by key (Options.KubectlDiffs): by key, whole, or as a set
// of scalars.
type diffedAs int

// The ways of diffedAs.
const (
	diffedByKey diffedAs = iota
	diffedWhole
	diffedAsScalars
)

// kubectlDiffed is how keyed list s is collated (Options.KubectlDiffs; without it, by key).
func (c *collator) kubectlDiffed(s *elements.Node) diffedAs {
	if !c.opts.KubectlDiffs {
		return diffedByKey
	}
	local := s.Local.Items()
	if len(local) > 0 && smp.ScalarsOfKind(local, local[0].Kind()) {
		kind := local[0].Kind()
		for _, src := range [...]elements.Source{elements.Recorded, elements.Live} {
			if v, _ := s.Get(src); halves.Compares(s, src, true) != elements.NoSource && !smp.ScalarsOfKind(v.Items(), kind) {
				return diffedByKey
			}
		}
		return diffedAsScalars
	}
	if halves.Compares(s, elements.Recorded, true) != elements.NoSource || halves.Compares(s, elements.Live, true) != elements.NoSource {
		return diffedByKey
	}
	mk, itemType := s.Meta.MergeKey, s.Type.Item()
	var k elements.Key
	for _, it := range local {
		if !it.IsMap() {
			return diffedWhole
		}
		if missing, _ := k.Read(it, mk, itemType); missing != "" {
			return diffedWhole
		}
	}
	return diffedByKey
}

// scalar builds the AtomicElement of a node local sets to a scalar its type admits, under no registered rule: node's
// outcome for it (a scalar is atomic whatever live holds, has no elements.Below and names no merge key), built in
// place: the node alloc hands out is zero, so only the fields a scalar sets are written (not a whole Node).
func (c *collator) scalar(parent elements.Element, name string, vals *elements.Values, t *openapi.Type, meta *openapi.Meta) *elements.AtomicElement {
	e := alloc(&c.atomics)
	n := &e.Node
	n.Parent, n.Name, n.Values, n.Type, n.Meta, n.ID = parent, name, *vals, t, *meta, c.nodes
	c.nodes++
	return e
}

// atomic builds the AtomicElement of node s, local setting it to a value decided whole; same: live holds local's value
// (and recorded too, if it has one). For patches (Options.Patches) it gets its elements.Below where kubectl's patches
// compare it member by member.
func (c *collator) atomic(s *elements.Node, same bool) *elements.AtomicElement {
	e := build(c, &c.atomics, s)
	if !c.opts.Patches {
		return e
	}
	n, local := &e.Node, s.Local
	var from value.Value
	switch {
	case !local.IsMap() && !local.IsList(), local.IsMap() && n.Meta.Strategy.Has(openapi.StrategyReplace):
		return e
	case n.HasLive && !n.Live.IsNull() && !halves.SameJSONType(n.Live, local) && halves.Compares(n, elements.Recorded, false) != elements.NoSource:
		from = n.Recorded // live holds another kind: the deletions compare recorded's value with local's
	case same && local.IsMap() && halves.HasUnsortedSet(local, n.Type, n.Meta):
		from = n.Live // kubectl's delta sorts live's copy of a set before comparing
	default:
		return e
	}
	ranked, patched := c.ranked, c.opts.Patched // (a subtree for patches decides nothing of the merge)
	c.opts.Patched = false
	vals := elements.Values{Recorded: from, HasRecorded: true, Local: local, HasLocal: true}
	sub, err := c.node(n.Parent, n.Name, false, &vals, n.Type, &n.Meta)
	c.ranked, c.opts.Patched = ranked, patched
	if err != nil {
		sub = nil
	}
	if c.belows == nil {
		c.belows = map[int32]*elements.Below{}
	}
	c.belows[n.ID] = &elements.Below{Element: sub, Err: err}
	return e
}

// repeatsKey reports whether v (type t, metadata meta) holds a list merged by a one-field key that names a key twice.
func repeatsKey(v value.Value, t *openapi.Type, meta openapi.Meta) bool {
	if v.IsMap() && !meta.Strategy.Has(openapi.StrategyReplace) {
		for _, f := range v.Fields() {
			if ct, cm := t.Child(f.Key); repeatsKey(f.Value, ct, cm) {
				return true
			}
		}
	}
	if !v.IsList() || !elements.MergedList(t, &meta) || len(meta.MergeKey) != 1 {
		return false
	}
	x := elements.NewIndex(1, v.Len())
	for _, it := range v.Items() {
		if k, missing, _ := elements.KeyOf(it, meta.MergeKey, t.Item()); it.IsMap() && missing == "" {
			if _, fresh := x.ID(&k); !fresh || repeatsKey(it, t.Item(), openapi.Meta{}) {
				return true
			}
		}
	}
	return false
}

// ranksSetIn reports whether merge value v, of type t with metadata meta, holds a set repeating a value that a merge
// with gate UniqueMergeKeys off ranks (rankableSet, repeatsSetValue).
func (c *collator) ranksSetIn(v value.Value, t *openapi.Type, meta openapi.Meta) bool {
	return !c.opts.Gates.Enabled(features.UniqueMergeKeys) && !c.opts.Patch && repeatsSetValue(v, t, meta)
}

// repeatsSetValue reports whether v, of type t with metadata meta, is or holds (in a map's fields or a keyed list's
// items) a merged set naming a value twice. kubectl's three-way patch names such a set's order ("$setElementOrder")
// even where recorded, local and live all hold it alike, and the server, applying it, groups each value's copies at
// its first place: a node holding one is not live's value as it stands.
func repeatsSetValue(v value.Value, t *openapi.Type, meta openapi.Meta) bool {
	if v.IsMap() && !meta.Strategy.Has(openapi.StrategyReplace) {
		for _, f := range v.Fields() {
			if ct, cm := t.Child(f.Key); repeatsSetValue(f.Value, ct, cm) {
				return true
			}
		}
		return false
	}
	if !v.IsList() || !elements.MergedList(t, &meta) {
		return false
	}
	switch elem := t.Item(); {
	case elem.Kind == openapi.KindPrimitive || elements.SetOfMaps(t, &meta):
		return namesValueTwice(v.Items(), elements.SetOfMaps(t, &meta))
	case len(meta.MergeKey) > 0 && elem.Kind != openapi.KindList:
		for _, it := range v.Items() {
			if repeatsSetValue(it, elem, openapi.Meta{}) {
				return true
			}
		}
	}
	return false
}

// fieldsNode builds the MapElement of a node local (or the patch) sets to a map: its children, in key order, are the
// union of lf (local's fields), recorded's and live's where maps, and the fields a patch gives directives (dirs).
func (c *collator) fieldsNode(s *elements.Node, lf []value.Field, dirs []format.FieldDirectives, depth int) (elements.Element, error) {
	self := build(c, &c.maps, s)
	rf, vf := self.Recorded.Fields(), self.Live.Fields() // (nil when absent, null or not a map)
	base := len(c.fields)
	for len(lf) > 0 || len(rf) > 0 || len(vf) > 0 || len(dirs) > 0 {
		// The heads' smallest key and which hold it, each value's head compared once; a smaller key takes it from earlier.
		var cv elements.Values
		var key string
		if len(lf) > 0 {
			key, cv.HasLocal = lf[0].Key, true
		}
		if len(rf) > 0 {
			if c := compareKey(rf[0].Key, key); !cv.HasLocal || c < 0 {
				key, cv.HasLocal, cv.HasRecorded = rf[0].Key, false, true
			} else {
				cv.HasRecorded = c == 0
			}
		}
		if len(vf) > 0 {
			if c := compareKey(vf[0].Key, key); !cv.HasLocal && !cv.HasRecorded || c < 0 {
				key, cv.HasLocal, cv.HasRecorded, cv.HasLive = vf[0].Key, false, false, true
			} else {
				cv.HasLive = c == 0
			}
		}
		var cd *elements.Directives
		if len(dirs) > 0 && (!cv.HasLocal && !cv.HasRecorded && !cv.HasLive || dirs[0].Name <= key) {
			if dirs[0].Name != key {
				key, cv = dirs[0].Name, elements.Values{}
			}
			cd, dirs = dirs[0].Dirs, dirs[1:]
		}
		if cv.HasLocal {
			cv.Local, lf = lf[0].Value, lf[1:]
		}
		if cv.HasRecorded {
			cv.Recorded, rf = rf[0].Value, rf[1:]
		}
		if cv.HasLive {
			cv.Live, vf = vf[0].Value, vf[1:]
		}
		ch, err := c.field(self, key, &cv, cd, depth)
		if err != nil {
			c.popFields(base)
			return self, err
		}
		c.fields = append(c.fields, elements.Field{Name: key, Element: ch})
	}
	self.Fields = carve(&c.fieldSlab, len(c.fields)-base)
	copy(self.Fields, c.fields[base:])
	c.popFields(base)
	return self, nil
}

// popFields clears the fields stack above base and cuts it there: the stack is zero beyond its length, so that
// Release clears nothing of it. (fieldsNode calls it at each return rather than deferring it, which costs a call per
// map.)
func (c *collator) popFields(base int) {
	clear(c.fields[base:])
	c.fields = c.fields[:base]
}

// compareKey is strings.Compare(a, b), equal keys (the sources' maps mostly hold the same) told by equality alone.
func compareKey(a, b string) int {
	switch {
	case a == b:
		return 0
	case a < b:
		return -1
	}
	return 1
}

// field builds the child key of map self from its values cv and the directives cd a patch gives it.
func (c *collator) field(self *elements.MapElement, key string, cv *elements.Values, cd *elements.Directives, depth int) (elements.Element, error) {
	ct, cm := self.Type.Child(key)
	if c.plainScalar(key, cv, cd, ct, &cm) || c.plainPatchLeaf(key, cv, cd, &cm, depth) {
		return c.scalar(self, key, cv, ct, &cm), nil
	}
	// Without the SetOfMaps gate a set of maps has no merge strategy (replaced whole).
	if cm.Set && !c.opts.Gates.Enabled(features.SetOfMaps) && elements.SetOfMaps(ct, &cm) {
		cm.Strategy &^= openapi.StrategyMerge
	}
	if cm.Rule == nil {
		return c.child(self, key, cv, cd, depth, ct, &cm)
	}
	cm, err := c.ruleMeta(self, key, cm)
	if err != nil {
		return nil, err
	}
	ch, err := c.child(self, key, cv, cd, depth, ct, &cm)
	if r := elements.RuleOf(&elements.Node{Meta: cm}); err == nil && r != nil && r.Visitor != nil {
		markRuled(ch.Base())
	}
	return ch, err
}

// plainScalar reports whether field key of a map, of type t and metadata meta, its values cv and the directives cd a
// patch gives it, is one that child builds as node builds any scalar its type admits (scalar), the most common field:
// in a merge, local setting it to a scalar, its type primitive (or unknown) and under no rule, neither a set nor
// given directives, its key no directive. (kubectlList and kubectlOrdered leave such a field as it is, and no check of
// child's applies to it.)
func (c *collator) plainScalar(key string, cv *elements.Values, cd *elements.Directives, t *openapi.Type, meta *openapi.Meta) bool {
	return !c.opts.Patch && cd == nil && meta.Rule == nil && !meta.Set && cv.HasLocal && cv.Local.IsScalar() &&
		(t.Kind == openapi.KindPrimitive || t.Kind == openapi.KindUnknown) && !strings.HasPrefix(key, "$")
}

// plainPatchLeaf reports whether field key of a patch's map, of metadata meta, its values cv and the directives cd
// the patch gives it, at depth (its map's), is one that child builds as patchNode builds a leaf (scalar): the patch
// setting it to a scalar or null, or leaving it out, under no rule, not a set, given no directives, its key no
// directive, within the depth limit. Such a field meets none of child's cases (kubectlList and kubectlOrdered change
// only lists and fields given directives; compose mode's check is of "$" keys) and none of patchNode's but its last,
// which builds any value but a map or a list as it stands, whatever its type.
func (c *collator) plainPatchLeaf(key string, cv *elements.Values, cd *elements.Directives, meta *openapi.Meta, depth int) bool {
	if !c.opts.Patch || cd != nil || meta.Rule != nil || meta.Set || strings.HasPrefix(key, "$") ||
		(c.opts.MaxDepth > 0 && c.opts.Depth+depth+1 > c.opts.MaxDepth) {
		return false
	}
	return !cv.HasLocal || cv.Local.IsScalar() || cv.Local.IsNull()
}

// child builds field key of map self, of type ct and metadata cm resolved, in a patch or a merge.
func (c *collator) child(self *elements.MapElement, key string, cv *elements.Values, cd *elements.Directives, depth int, ct *openapi.Type, cm *openapi.Meta) (elements.Element, error) {
	ct = c.kubectlList(ct, cm, cv, cd)
	switch ordering, list := c.kubectlOrdered(self, ct, cm, cv, cd); ordering {
	case orderedAsSet:
		// A set: of live's items, or (the patch's list replacing live's) of the patch's alone.
		set := *cm
		set.Strategy |= openapi.StrategyMerge
		cm = &set
		if cv.HasLocal {
			patchOnly := elements.Values{Local: cv.Local, HasLocal: true}
			cv = &patchOnly
		}
	case orderedWhole:
		// The patch's list as strategicpatch orders it (applying, its deletions made), whole.
		whole := *cv
		whole.Local = list
		unordered := *cd
		unordered.SetOrder, unordered.HasSetOrder = value.Value{}, false
		if !c.opts.Compose {
			unordered.DeleteFromList, unordered.HasDeleteFromList = value.Value{}, false
		}
		cv, cd = &whole, &unordered
	}
	switch {
	case c.opts.Compose && cv.HasLocal && cv.HasLive && (key == smp.RetainKeysKey || strings.HasPrefix(key, smp.SetOrderPrefix)) &&
		smp.Directive(self.Type, key) && !value.Equal(cv.Local, cv.Live):
		return nil, self.Errorf(elements.Patch, key+" differs from the first patch's; patches merged must agree on it")
	case c.opts.Patch:
		return c.patchNode(elements.Node{Parent: self, Name: key, Values: *cv, Type: ct, Meta: *cm, Dirs: cd}, depth+1)
	case cv.HasLocal && !c.opts.Lenient && !c.opts.KubectlDiffs && c.opts.Gates.Enabled(features.MultiFieldMergeKeys) &&
		smp.Directive(self.Type, key):
		return nil, self.Errorf(elements.Local, strconv.Quote(key)+" is a strategic merge patch directive, not configuration: a configuration cannot hold it (apply the patch with ply patch apply)")
	}
	return c.node(self, key, false, cv, ct, cm)
}

// kubectlList is the type of a field of type t (metadata meta, values cv, a patch's directives cd) as kubectl reads it
// with gate MultiFieldMergeKeys off: where the schema types a field of merge strategy as an object but local (the
// patch) holds a list there, or the patch's "$setElementOrder" orders live's list there, strategicpatch takes the
// object's schema for the items' (LookupPatchMetadataForSlice), so the field is a list of that object, merged by the
// field's key. Otherwise, and with the gate on (the value then refused, naming the path), it is t.
func (c *collator) kubectlList(t *openapi.Type, meta *openapi.Meta, cv *elements.Values, cd *elements.Directives) *openapi.Type {
	if (t.Kind != openapi.KindStruct && t.Kind != openapi.KindMap) || !meta.Strategy.Has(openapi.StrategyMerge) ||
		c.opts.Gates.Enabled(features.MultiFieldMergeKeys) {
		return t
	}
	list := cv.HasLocal && cv.Local.IsList()
	orders := !cv.HasLocal && cd != nil && cd.HasSetOrder && cv.HasLive && cv.Live.IsList()
	if !list && !orders {
		return t
	}
	return &openapi.Type{Name: t.Name + " list", Kind: openapi.KindList, Elem: t}
}

// namesValueTwice reports whether a set's items (scalars, or with objects a set of maps' objects too: elements.SetKey)
// name one value twice; items without identity name none.
func namesValueTwice(items []value.Value, objects bool) bool {
	seen := make(map[value.ScalarKey]bool, len(items))
	for _, it := range items {
		if k, ok := elements.SetKey(it, objects); ok {
			if seen[k] {
				return true
			}
			seen[k] = true
		}
	}
	return false
}

// markRuled sets Ruled on n, decided by a registered rule's visitor, and on its ancestors.
func markRuled(n *elements.Node) {
	for ; !n.Ruled; n = n.Parent.Base() {
		n.Ruled = true
		if n.Parent == nil {
			return
		}
	}
}

// ruleMeta resolves the merge rule field key of map self names (cm.Rule): an unregistered rule is an error; with its
// gate off the field's metadata is the schema's alone (the built-in rules decide it), else the rule's (Rule.Meta).
func (c *collator) ruleMeta(self *elements.MapElement, key string, cm openapi.Meta) (openapi.Meta, error) {
	at := func(msg string) error {
		return &elements.Error{Path: self.Path().Child(fieldpath.Field(key)), Msg: "merge rule " + cm.Rule.String() + " " + msg}
	}
	r, ok := elements.LookupRule(cm.Rule.Name)
	switch {
	case !ok:
		return cm, at("is not registered (pkg/elements.RegisterRule); the schema or a field rule names it")
	case !c.opts.Gates.Enabled(r.Gate):
		cm.Rule = nil
		return cm, nil
	case r.Meta == nil:
		return cm, nil
	}
	m, err := r.Meta(cm, cm.Rule.Args)
	if err != nil {
		return cm, at(err.Error())
	}
	m.Rule = cm.Rule
	return m, nil
}

// Number implements elements.Builder: n takes the tree's next ID.
func (c *collator) Number(n *elements.Node) {
	n.ID = c.nodes
	c.nodes++
}

// Child implements elements.Builder: the element of a child of parent (a field name, or "" for a list item) by the
// ordinary rules of a merge.
func (c *collator) Child(parent elements.Element, name string, vals elements.Values, t *openapi.Type, meta openapi.Meta) (elements.Element, error) {
	return c.node(parent, name, name == "", &vals, t, &meta)
}

// kindFits refuses a value of src (held in Local) of a kind the schema rules out, such as an object for a list
// (elements.KindMismatch).
func kindFits(s *elements.Node, src elements.Source) error {
	if !elements.KindAdmits(s.Type, s.Local) {
		return s.Errorf(src, elements.KindMismatch(s.Type, s.Local))
	}
	return nil
}

// members matches a merged list's items by identity: items holds a member per identity, at the ID index gives it;
// repeated reports a source naming an identity twice. In a patch, seq lists the IDs of the patch's items joined, in
// patch order (-1: a "$patch: replace" item), for format.CheckOrder (in collator.seq's buffer, reused). For a Ranked
// list, ranks holds each source's ranks by position (keyedNode's), a key's second field.
type members struct {
	index    *elements.Index // the collator's (collator.index)
	items    []elements.Item
	repeated bool
	seq      []int
	ranks    [][]int
}

// item returns a list member in live alone, at position live (-1: in no source yet), named by no "$setElementOrder".
func item(live, of int) elements.Item {
	return elements.Item{RecordedIndex: -1, LocalIndex: -1, LiveIndex: live, Of: of, OrderIndex: -1}
}

// rankKey is a Key's rank field (members.ranks): zero for the first item of a value or key, so that it is the Key that
// names the value or key alone ("$setElementOrder", "$deleteFromPrimitiveList").
func rankKey(rank int) value.ScalarKey {
	if rank == 0 {
		return value.ScalarKey{}
	}
	return value.ScalarKey{Kind: value.KindInt, Bits: uint64(rank)}
}

// join adds item i of src's list, of identity k (and rank, given ranks: set in k), to k's member, made if none (a
// patch's, to seq too). ok is false, and the member unchanged, when it has an item of src already (for local's items,
// added first: when k is not new).
func (m *members) join(k *elements.Key, i int, src elements.Source) (id int, ok bool) {
	if m.ranks != nil {
		k[1] = rankKey(m.ranks[src][i])
	}
	id, fresh := m.index.ID(k)
	if fresh {
		m.items = append(m.items, item(-1, -1))
	}
	if src == elements.Patch {
		m.seq = append(m.seq, id)
	}
	at := &m.items[id].LocalIndex
	switch src {
	case elements.Live:
		at = &m.items[id].LiveIndex
	case elements.Recorded:
		at = &m.items[id].RecordedIndex
	}
	if *at >= 0 {
		m.repeated = true
		return id, false
	}
	*at = i
	return id, true
}

// keyedNode builds a list of maps merged by key: members are local's (the patch's) items in order, then live's others
// (those repeating a key or lacking it go to LiveExtra), then recorded's. Live items a "$patch: delete" item
// names are left out; with a "$patch: replace" item the patch's data items replace live's (live's stay members,
// Deleted, for the server's view's order). A merge's list whose source repeats a key is matched again by rank (ranks).
func (c *collator) keyedNode(s *elements.Node, depth int) (elements.Element, error) {
	if mk := s.Meta.MergeKey; len(mk) > elements.MaxKeyFields {
		return nil, s.Errorf(c.src, "schema declares a merge key of "+strconv.Itoa(len(mk))+" fields; at most "+strconv.Itoa(elements.MaxKeyFields)+" are supported")
	}
	e := build(c, &c.lists, s)
	m, extra, err := c.matchKeyed(e, nil)
	if err == nil && m.repeated && c.rankable(e) {
		// ranks pairs the items as kubectl's three-way patch does: an item's identity is its key and its rank among that
		// key's items in the list sorted as kubectl sorts it (smp.SortByKey), so the i-th item of a key in one source is
		// the i-th in the others. It holds each source's ranks by position.
		recorded, local, live := e.Lists()
		ranks := make([][]int, elements.Live+1)
		for src, items := range [...][]value.Value{elements.Recorded: recorded, elements.Local: local, elements.Live: live} {
			_, ranks[src] = smp.SortByKey(items, e.Meta.MergeKey[0])
		}
		e.Ranked, c.ranked = true, true
		m, extra, err = c.matchKeyed(e, ranks)
	}
	if err != nil {
		return nil, err
	}
	e.Items = m.items
	if err := c.keyedMembers(e, extra, depth); err != nil {
		return e, err
	}
	if e.Ranked {
		c.patch(e)
	}
	return e, nil
}

// rankable reports whether keyed list e pairs repeated keys by rank (ranks): in a merge, with gate UniqueMergeKeys off
// and a one-field merge key.
func (c *collator) rankable(e *elements.ListElement) bool {
	return !c.opts.Patch && !c.opts.Gates.Enabled(features.UniqueMergeKeys) && len(e.Meta.MergeKey) == 1
}

// matchKeyed matches keyed list e's items (local's, then live's, then recorded's) to members by key (and rank, given
// ranks), in keyedNode's order, returning them and live's LiveExtra; a "$patch: replace" item sets e's Dirs.ReplaceList
// (the patch's list replaces live's). Without ranks, a rankable list's local item repeating a key is passed over
// (members.repeated says so), not an error; in a patch, a live item lacking the key is.
func (c *collator) matchKeyed(e *elements.ListElement, ranks [][]int) (m members, extra []elements.Item, err error) {
	n, src := &e.Node, c.src
	itemType, mk := n.Type.Item(), n.Meta.MergeKey
	recorded, local, live := n.Lists()
	fields := len(mk)
	if ranks != nil {
		fields++ // and the rank
	}
	c.index.Reset(fields, max(len(local), len(live)))
	m = members{index: &c.index, items: carve(&c.itemSlab, len(local)+len(live))[:0],
		seq: c.seq[:0], ranks: ranks}
	var gone map[elements.Key]bool // the keys "$patch: delete" items name
	var k elements.Key             // each item's, read in place
	for i, it := range local {
		d, err := readLocalItem(&k, n, i, it, src, c.opts.Patch)
		if err != nil {
			return m, nil, err
		}
		if d == "replace" {
			if e.Dirs == nil {
				e.Dirs = &elements.Directives{}
			}
			e.Dirs.ReplaceList, m.seq = true, append(m.seq, -1)
			continue
		}
		if d == "delete" {
			if gone == nil {
				gone = map[elements.Key]bool{}
			}
			gone[k] = true
			continue
		}
		switch id, fresh := m.join(&k, i, src); {
		case fresh, c.opts.Lenient || (ranks == nil && c.rankable(e)): // (a repeat passed over)
		case n.HasLive && n.Live.IsList() && c.nullKeyMerges(src, k, fields):
			return m, nil, nullKeyMerge(n, i, mk, k, false, m.items[id].LocalIndex)
		case src == elements.Patch && !c.opts.Gates.Enabled(features.UniqueMergeKeys):
			e.Repeats = append(e.Repeats, elements.Repeat{ID: id, Pos: i})
		case src == elements.Patch:
			return m, nil, n.Errorf(src, "items "+strconv.Itoa(m.items[id].LocalIndex)+" and "+strconv.Itoa(i)+" have the same merge key "+strings.Join(mk, ",")+"; a patch names each item once")
		default:
			at := n.Path().Child(fieldpath.Key(elements.KeyFields(it, mk, itemType)))
			return m, nil, &elements.Error{Source: src, Path: at, Msg: "duplicate merge key: items " + strconv.Itoa(m.items[id].LocalIndex) + " and " + strconv.Itoa(i) + " are both " + at.String()}
		}
	}
	// Live's items repeating a key or lacking it are LiveExtra (a patch's error, unless a second patch replaces the
	// list and orders it by no "$setElementOrder": strategicpatch checks the first's items for the key where it sorts
	// them by one); items gone names are left out.
	for i, it := range live {
		missing, _ := k.Read(it, mk, itemType)
		switch {
		case !it.IsMap() || missing != "":
			if c.opts.Patch && !(c.opts.Compose && e.Dirs != nil && e.Dirs.ReplaceList && !e.Dirs.HasSetOrder) {
				_, err = localKey(n, "item", i, it, itemType, elements.Live, false)
				return m, nil, err
			}
			extra = append(extra, item(i, -1))
		case gone[k]:
		default:
			id, ok := m.join(&k, i, elements.Live)
			switch {
			case !ok:
				extra = append(extra, item(i, id))
			case m.items[id].LocalIndex >= 0 && c.nullKeyMerges(src, k, fields):
				return m, nil, nullKeyMerge(n, m.items[id].LocalIndex, mk, k, true, i)
			}
		}
	}
	if ranks == nil && len(gone) == 0 && len(extra) == 0 && sameItems(recorded, live) {
		m.recordedAsLive() // (documents read together share lists they write alike)
	} else {
		m.joinRecorded(&k, recorded, mk, itemType)
	}
	err = c.order(n, &m, true, false)
	return m, extra, err
}

// joinRecorded joins recorded's items that hold merge key mk (of item type itemType) to their members, each read into k.
func (m *members) joinRecorded(k *elements.Key, recorded []value.Value, mk []string, itemType *openapi.Type) {
	for i, it := range recorded {
		if missing, _ := k.Read(it, mk, itemType); it.IsMap() && missing == "" {
			m.join(k, i, elements.Recorded)
		}
	}
}

// recordedAsLive is joinRecorded where recorded's list is live's itself and every live item joined a member (none
// repeating its key, none lacking it, none a patch deletes): each member's recorded item is its live one.
func (m *members) recordedAsLive() {
	for id := range m.items {
		m.items[id].RecordedIndex = m.items[id].LiveIndex
	}
}

// sameItems reports whether a and b are the very same items (the same memory).
func sameItems(a, b []value.Value) bool {
	return len(a) == len(b) && len(a) > 0 && &a[0] == &b[0]
}

// keyedMembers builds the elements of a keyed list's members, then its LiveExtra's (members local lacks: live's whole).
// A patch's data item merges with live's of its key; in a replaced list (Dirs.ReplaceList) it is whole, live's Deleted.
func (c *collator) keyedMembers(e *elements.ListElement, extra []elements.Item, depth int) error {
	replace := e.Dirs != nil && e.Dirs.ReplaceList
	recorded, local, live := e.Lists()
	itemType := e.Type.Item()
	// Items of a merge,retainKeys list clear the fields local leaves out.
	itemMeta := openapi.Meta{Strategy: e.Meta.Strategy & openapi.StrategyRetainKeys}
	for _, items := range [...][]elements.Item{e.Items, extra} {
		for p := range items {
			it := &items[p]
			it.Deleted = replace && it.LocalIndex < 0
			cv := itemValues(it, recorded, local, live)
			var err error
			switch {
			case !c.opts.Patch:
				it.Element, err = c.node(e, "", true, &cv, itemType, &itemMeta)
			case it.LocalIndex < 0:
				it.Element = build(c, &c.atomics, &elements.Node{Parent: e, Type: itemType, Values: cv})
			case replace:
				s := elements.Node{Parent: e, Type: itemType, Values: elements.Values{Local: cv.Local, HasLocal: true}}
				it.Element, err = c.whole(&s, cv.Local, depth+1, !c.opts.Compose)
			default:
				it.Element, err = c.patchNode(elements.Node{Parent: e, Type: itemType, Values: cv}, depth+1)
			}
			if err != nil {
				return err
			}
		}
	}
	e.LiveExtra = extra
	if err := c.nullKeysDropped(e); err != nil {
		return err
	}
	c.repeats(e, depth)
	return nil
}

// repeats collates each of patch list e's Repeats alone (elements.Repeat.Element): the item as a root of the item type,
// without live, as the API server applies it to nothing, at the items' depth in the patch (Options.Depth, the root's,
// included: elements.Repeat.Depth, which strategy.Options.Reapply is given). A failed one keeps its
// error (Err) for the walk that applies it so, and the collation goes on: applied in turn to a member's outcome, it may
// not fail. Each repeat has its merged lists paired with those at their place in the trees its member's outcome so far
// is built from (chainOnto: the member's, then the key's earlier repeats', each merged onto the ones before), those it
// only orders given list nodes so paired (orderedLeftOut); after a failed repeat, later ones of its key are not paired.
// Each repeat's "$patch" maps live lacks have their nodes onto a map (ontoMap, elements.Repeat.Onto); in compose mode,
// a plain repeat (no "$patch" in it, its maps holding "$patch" only as maps of their own or in maps of strategy replace,
// its lists whatever they hold) is
// collated onto a skeleton of its maps (each a map node, its other fields as without live), which Phase 2 merges onto
// its member's outcome; where that fails (a field it orders and sets to null), it is collated whole.
func (c *collator) repeats(e *elements.ListElement, depth int) {
	local := e.Local.Items()
	// layers[id]: the trees member id's outcome is built from, so far (none: the repeats collated so far are not all
	// paired, one of them failing or compose mode's).
	layers := make(map[int][]layer, len(e.Repeats))
	for i := range e.Repeats {
		r := &e.Repeats[i]
		r.Depth = c.opts.Depth + depth + 1
		s := elements.Node{Type: e.Type.Item(), Values: elements.Values{Local: local[r.Pos], HasLocal: true}}
		if c.opts.Compose && plain(local[r.Pos], e.Type.Item()) && (e.Dirs == nil || !e.Dirs.ReplaceList) {
			// (Its fields merge onto its member's outcome as onto any map: collated as onto one, not whole. A "$patch:
			// replace" list's repeat is applied to nothing, taken whole as the patch holds it.)
			s.Live, s.HasLive = skeleton(local[r.Pos], e.Type.Item()), true
		}
		outer, outerEmpty, outerComposed, outerIn, outerMerged, outerDisordered := c.repeat, c.emptyOrder, c.composed, c.composedIn, c.repeatMerged, c.disordered
		outerOutcome := c.outcomeOrdered
		c.outcomeOrdered = false
		c.repeatMerged = !order.RepeatsApart(e)
		if c.repeat, c.emptyOrder, c.disordered = r, nil, nil; c.opts.Compose {
			c.repeat, c.composed, c.composedIn = nil, r, e
		}
		c.collateRepeat(r, &s, depth)
		if r.Err != nil && s.HasLive {
			// (A field its map orders and sets to null fails without live: collated whole, as a value first lacks.)
			s.Live, s.HasLive, r.Cleaned, r.ItemErrs = value.Null, false, nil, nil
			r.Element, r.Err = c.repeatNode(s, depth)
		}
		if r.Err != nil {
			r.Element, r.Fails = nil, ordersOtherThanList(local[r.Pos])
			r.Disordered = !c.opts.Compose && c.disordered != nil && r.Err == c.disordered
			r.Room, r.ErrRoom = c.walkRoom(r, local[r.Pos]), c.errRoom(r)
			r.FailsAt = c.failsAt(r, local[r.Pos], e.Type.Item(), false)
			if c.outcomeOrdered {
				// (The outcome's list decides: visitors' sortedOntoLacking, which merges the item's maps and lists onto
				// the outcome's only where its values lie within the depth limit.)
				r.FailsAt, r.Deep = "", c.opts.MaxDepth > 0 && nestsNear(local[r.Pos], c.opts.MaxDepth-r.Depth)
			} else if r.FailsAt != "" {
				r.PlainRoom = c.plainRoom(r, local[r.Pos], e.Type.Item())
			} else if at := c.failsAt(r, local[r.Pos], e.Type.Item(), true); at != "" {
				r.FailsAt, r.MapsBefore = at, true // (only with PlainRoom: an outcome plain within the limit)
				if r.PlainRoom = c.plainRoom(r, local[r.Pos], e.Type.Item()); r.PlainRoom == 0 {
					r.FailsAt, r.MapsBefore = "", false
				}
			}
		} else if r.Err = c.emptyOrder; r.Err != nil {
			r.Room = c.walkRoom(r, local[r.Pos]) // (its tree's failure onto an outcome: limitWalk)
		}
		if r.Element != nil && c.opts.MaxDepth > 0 {
			_, whole := r.Element.(*elements.AtomicElement) // (compose mode's item taken whole: its fields one level down)
			room := c.opts.MaxDepth - r.Depth
			r.Limit = limitMaps(r.Element, room, c.opts.MaxDepth, nil)
			r.Deep = r.Deep || len(r.Limit) > 0 || (whole && room < 1) || (c.opts.Compose && nestsNear(local[r.Pos], room))
			if c.opts.Compose && r.Deep && room > 0 {
				r.Room = room // (a value Phase 2 takes whole cleaned where the outcome lacks a map: its maps walked by it)
			}
		}
		c.repeat, c.emptyOrder, c.composed, c.composedIn, c.repeatMerged, c.disordered = outer, outerEmpty, outerComposed, outerIn, outerMerged, outerDisordered
		c.outcomeOrdered = outerOutcome
		under, seen := layers[r.ID]
		if !seen {
			under = []layer{{e: e.Items[r.ID].Element}}
		}
		if r.Element == nil || c.opts.Compose || under == nil {
			layers[r.ID] = nil
			continue
		}
		c.orderedLeftOut(r.Element, under)
		chainOnto(r.Element, under)
		layers[r.ID] = append(slices.Clip(under), layer{e: r.Element, repeat: true, onto: r.Onto})
	}
}

func itemValues(it *elements.Item, recorded, local, live []value.Value) (cv elements.Values) {
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

// readLocalItem reads item i of keyed list n's local (src's) list, it: its "$patch" directive where patch (a patch's
// list: format.ReadItem) and, but for a "replace" item, its key, which it must hold (localKey), into k.
func readLocalItem(k *elements.Key, n *elements.Node, i int, it value.Value, src elements.Source, patch bool) (d string, err error) {
	if patch {
		if d, err = format.ReadItem(n, i, it); err != nil || d == smp.ReplaceValue {
			*k = elements.Key{}
			return d, err
		}
	}
	itemType := n.Type.Item()
	if missing, _ := k.Read(it, n.Meta.MergeKey, itemType); !it.IsMap() || missing != "" {
		_, err = localKey(n, "item", i, it, itemType, src, d == smp.DeleteValue)
	}
	return d, err
}

// localKey is the identity of item i (what names it) of src's list at n, or the error for an item lacking one, its
// merge key field missing absent or not a scalar (del: a "$patch: delete" item).
func localKey(n *elements.Node, what string, i int, it value.Value, itemType *openapi.Type, src elements.Source, del bool) (elements.Key, error) {
	mk := n.Meta.MergeKey
	k, missing, bad := elements.KeyOf(it, mk, itemType)
	switch {
	case it.IsMap() && missing == "":
		return k, nil
	case it.IsMap() && !bad && del:
		return k, n.Errorf(src, smp.DeleteWithoutKey{What: what, Item: i, Field: missing, MergeKey: mk}.Msg())
	}
	return k, n.Errorf(src, smp.ItemKeyMsg(what, i, it, mk, missing, bad))
}

// order sets the members' OrderIndex from n's "$setElementOrder", if any, and checks it against m.seq, the patch's item
// IDs in patch order (format.CheckOrder). Its entries hold the merge key if keyed, else are set items (objects: maps).
// In a Repeat's tree its error, for a keyed list or a set of scalars not Ranked, is the Repeat's to mark Disordered
// (collator.disordered).
func (c *collator) order(n *elements.Node, m *members, keyed, objects bool) error {
	err := c.readOrder(n, m, keyed, objects)
	if err != nil && c.repeat != nil && (keyed || (!objects && m.ranks == nil)) {
		c.disordered = err // (its entries and the patch's items tell it, whatever live holds)
	}
	return err
}

// readOrder is order, without the record of a Repeat's error.
func (c *collator) readOrder(n *elements.Node, m *members, keyed, objects bool) error {
	c.seq = m.seq // (its buffer, grown, for the next list)
	if n.Dirs == nil || !n.Dirs.HasSetOrder {
		return nil
	}
	mk := n.Meta.MergeKey
	c.orderIDs = slices.Grow(c.orderIDs[:0], n.Dirs.SetOrder.Len())[:n.Dirs.SetOrder.Len()]
	order := c.orderIDs
	for i, v := range n.Dirs.SetOrder.Items() {
		var k elements.Key
		var ok bool
		var err error
		switch {
		case keyed && !v.IsMap():
			return c.entryFailed(n.Errorf(elements.Patch, smp.OrderEntryKind(n.Name, i, mk, v.Kind())))
		case keyed:
			if k, err = localKey(n, "", i, v, n.Type.Item(), elements.Patch, false); err != nil && elements.NamesNothing(v, mk, n.Type.Item()) {
				order[i] = -1 // (no item's ID: CheckOrder matches no patch item to it)
				continue
			} else if err != nil {
				_, err = localKey(n, smp.OrderEntries(n.Name), i, v, n.Type.Item(), elements.Patch, false) // (the error, naming the entry: built only for one)
				return c.entryFailed(err)
			}
		default:
			if k, ok = setKey(v, objects); !ok {
				return c.entryFailed(n.Errorf(elements.Patch, smp.OrderEntryScalar(n.Name, i, v.Kind())))
			}
		}
		id, _ := m.index.ID(&k)
		if order[i] = id; id < len(m.items) && m.items[id].OrderIndex < 0 {
			m.items[id].OrderIndex = int32(i)
		}
	}
	if len(order) == 0 && !c.opts.Gates.Enabled(features.SeedOrdering) && elements.MergedList(n.Type, &n.Meta) {
		// An empty order names none of the patch's items: strategicpatch checks nothing and orders them all as
		// unnamed (internal/order.Unnamed), kubectl's order followed with the gate off.
		return nil
	}
	err := format.CheckOrder(n, m.seq, order)
	if e, ok := err.(*elements.Error); ok && c.gathering && belowItemMap(e) {
		c.gathered = append(c.gathered, e) // (its map left out of the skeleton with the others: leaveContradicted)
		return nil
	}
	if err != nil && c.composed != nil {
		c.contradicted = err
	}
	return err
}

// entryFailed returns err, an entry of a list's "$setElementOrder" naming no item, recorded while compose mode's Repeat
// is collated as its order's error (collator.contradicted: elements.Repeat.Contradicted), as format.CheckOrder's: the
// entries and the patch's items name the same keys or values whatever the outcome holds, and a collation with an
// outcome as live reads them once it has read the list's items.
func (c *collator) entryFailed(err error) error {
	if c.composed != nil {
		c.contradicted = err
	}
	return err
}

// setNode builds a list merged as a set: of primitives, or of maps (features.SetOfMaps) whose items are atomic,
// identity the whole item (elements.SetKey). A value local repeats is an error, unless gate UniqueMergeKeys is off
// (rankableSet): then a merge's set whose sources repeat a value is Ranked and merged through kubectl's patch
// (Arena.Ranked), and a patch's list the server takes whole (live holds none) keeps its repeats, Ranked too. Other
// repeats, in a patch or in live or recorded, collapse into their first. Values "$deleteFromPrimitiveList" names are
// Deleted, each occurrence.
func (c *collator) setNode(s *elements.Node) (elements.Element, error) {
	e := build(c, &c.sets, s)
	n := &e.Node
	recorded, local, live := n.Lists()
	objects := elements.SetOfMaps(n.Type, &n.Meta)
	m, err := c.matchSet(n, nil, objects)
	if err == nil && m.repeated && c.rankableSet(n) {
		e.Ranked, c.ranked = true, c.ranked || !c.opts.Patch
		m, err = c.matchSet(n, setRanks(objects, c.src, recorded, local, live), objects)
	}
	if err != nil {
		return nil, err
	}
	var canon []int // a Ranked patch list's members by their value's first (the one "$setElementOrder" names)
	if e.Ranked && c.opts.Patch {
		canon = canonical(&m, local, objects)
		for p, id := range m.seq {
			m.seq[p] = canon[id]
		}
	}
	if err := c.order(n, &m, false, objects); err != nil {
		return nil, err
	}
	for id, first := range canon {
		m.items[id].OrderIndex = m.items[first].OrderIndex
		if n.Dirs != nil && n.Dirs.HasSetOrder && belowNew(n) {
			m.items[id].OrderIndex = int32(m.items[id].LocalIndex)
		}
	}
	if d := n.Dirs; d != nil && d.HasDeleteFromList {
		deleteFromSet(&m, d.DeleteFromList.Items(), objects)
	}
	for p := range m.items {
		it := &m.items[p]
		it.Element = build(c, &c.atomics, &elements.Node{Parent: e, Values: itemValues(it, recorded, local, live), Type: n.Type.Item()})
	}
	e.Items = m.items
	if e.Ranked {
		c.patch(e)
	}
	return e, nil
}

// belowNew reports whether node n lies in a map live lacks (or holds null): the server copies such a map from the patch
// as it stands, a set there in the patch's order, each repeat of a value where the patch has it, not where the
// value's first is (as "$setElementOrder" places a list's items elsewhere).
func belowNew(n *elements.Node) bool {
	if n.Parent == nil {
		return false
	}
	p := n.Parent.Base()
	return !p.HasLive || !p.Live.IsMap()
}

// rankableSet reports whether set n keeps repeated values apart (gate UniqueMergeKeys off): in a merge, and in a patch
// where live holds no list, the server then taking the patch's whole (composing, strategicpatch's merge of patches
// takes the second patch's list where the first lacks it, copies and all).
func (c *collator) rankableSet(n *elements.Node) bool {
	if c.opts.Gates.Enabled(features.UniqueMergeKeys) {
		return false
	}
	return !c.opts.Patch || !(n.HasLive && n.Live.IsList())
}

// matchSet matches set n's items (local's, then live's, then recorded's) to members by value (and rank, given ranks).
// Without ranks, a value local repeats is an error unless the set is rankableSet, a patch's or Lenient.
func (c *collator) matchSet(n *elements.Node, ranks [][]int, objects bool) (members, error) {
	recorded, local, live := n.Lists()
	fields := 1
	if ranks != nil {
		fields = 2
	}
	c.index.Reset(fields, len(local)+len(live))
	m := members{index: &c.index, items: carve(&c.itemSlab, len(local)+len(live))[:0],
		seq: c.seq[:0], ranks: ranks}
	src := c.src
	for i, v := range local {
		k, ok := setKey(v, objects)
		if !ok {
			what := "a scalar"
			if objects {
				what = "an object"
			}
			return m, n.Errorf(src, "item "+strconv.Itoa(i)+": expected "+what+" in a set list, got "+v.Kind().String())
		}
		id, fresh := m.join(&k, i, src)
		if !fresh && src != elements.Patch && !c.opts.Lenient && !c.rankableSet(n) {
			return m, n.Errorf(src, "items "+strconv.Itoa(m.items[id].LocalIndex)+" and "+strconv.Itoa(i)+" are both "+fieldpath.Show(v)+"; a set lists each value once")
		}
	}
	lists := [...][]value.Value{elements.Recorded: recorded, elements.Live: live}
	for _, src := range [...]elements.Source{elements.Live, elements.Recorded} {
		for i, v := range lists[src] {
			if k, ok := setKey(v, objects); ok {
				m.join(&k, i, src)
			}
		}
	}
	return m, nil
}

// setRanks returns each source's ranks by position for a Ranked set (members.ranks): an item's rank is how many items
// before it in its list have its value. Local's list is held for src (Local, or Patch in a patch).
func setRanks(objects bool, src elements.Source, recorded, local, live []value.Value) [][]int {
	ranks := make([][]int, elements.Patch+1)
	for s, items := range map[elements.Source][]value.Value{elements.Recorded: recorded, src: local, elements.Live: live} {
		seen := make(map[value.ScalarKey]int, len(items))
		ranks[s] = make([]int, len(items))
		for i, v := range items {
			if k, ok := elements.SetKey(v, objects); ok {
				ranks[s][i] = seen[k]
				seen[k]++
			}
		}
	}
	return ranks
}

// canonical maps each member of a Ranked patch set (its items local's, all patch items) to the member of its value's
// first occurrence.
func canonical(m *members, local []value.Value, objects bool) []int {
	canon := make([]int, len(m.items))
	for id := range m.items {
		k, _ := setKey(local[m.items[id].LocalIndex], objects)
		canon[id], _ = m.index.ID(&k)
	}
	return canon
}

// deleteFromSet marks Deleted the members holding the values of a "$deleteFromPrimitiveList" (each rank of a Ranked
// set's).
func deleteFromSet(m *members, values []value.Value, objects bool) {
	for _, v := range values {
		k, ok := setKey(v, objects)
		for ok {
			id, fresh := m.index.ID(&k)
			if fresh || id >= len(m.items) {
				break
			}
			m.items[id].Deleted = true
			if m.ranks == nil {
				break
			}
			k[1] = rankKey(int(k[1].Bits) + 1)
		}
	}
}

func setKey(v value.Value, objects bool) (k elements.Key, ok bool) {
	k[0], ok = elements.SetKey(v, objects)
	return k, ok
}

// RootValues checks the top level of a tree's three objects and returns the root's Values: local must be an object;
// recorded and live are absent when null (a first apply; no object yet), else objects; a recorded or live apiVersion or
// kind other than local's is an error naming that source, since the three must describe one object.
func RootValues(recorded, local, live value.Value) (elements.Values, error) {
	vals := elements.Values{Recorded: recorded, Local: local, Live: live,
		HasRecorded: !recorded.IsNull(), HasLocal: true, HasLive: !live.IsNull()}
	for _, s := range [...]elements.Source{elements.Local, elements.Recorded, elements.Live} {
		if v, ok := vals.Get(s); ok && !v.IsMap() {
			return elements.Values{}, &elements.Error{Source: s, Msg: "the top level must be an object, got " + v.Kind().String()}
		}
	}
	for _, field := range [...]string{"apiVersion", "kind"} {
		want, ok := local.Get(field)
		for _, s := range [...]elements.Source{elements.Recorded, elements.Live} {
			v, _ := vals.Get(s)
			if got, found := v.Get(field); ok && found && !value.Equal(got, want) {
				return elements.Values{}, &elements.Error{Source: s, Path: fieldpath.Path{fieldpath.Field(field)},
					Msg: "is " + got.Short() + " but local's is " + want.Short() + "; all three objects must be of one apiVersion and kind"}
			}
		}
	}
	return vals, nil
}
