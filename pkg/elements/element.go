// Package elements is the typed tree Phase 1 (pkg/collate) builds and Phase 2 (pkg/visitors, dispatched by
// pkg/strategy) walks, the one rule of list item identity (identity.go), and the registry of merge rules that
// programs add (rules.go). A tree collated from a strategic merge patch uses the same types: the patch takes Local's
// place (errors name it source Patch), Recorded is absent, and its directives are the nodes' Dirs.
//
// Invariants: a tree is read-only once collated; every Element embeds a Node, numbered densely from 0 (Node.ID), so
// Phase 2 keeps what it decides in tables by ID; Elements know nothing about merging: Visitors decide the updated
// values. The Visitor interface has one method and Element one, so a new Element kind (built-in or a program's,
// through a Rule's Collate hook) changes no interface anyone implements: a visitor meets a kind it does not decide
// with an error (Unsupported), and walks over the whole tree reach a program's kinds through Parent.
package elements

import (
	"fmt"
	"strconv"

	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/fieldpath"
	"github.com/plyproject/ply/pkg/value"
)

// Values holds a node's three values: an absent one has its Has flag false and is null (the zero Value); an explicit
// null is present and IsNull.
type Values struct {
	Recorded, Local, Live          value.Value
	HasRecorded, HasLocal, HasLive bool
}

// Get returns the value of source s and whether it is present.
func (v *Values) Get(s Source) (value.Value, bool) {
	switch s {
	case Recorded:
		return v.Recorded, v.HasRecorded
	case Local:
		return v.Local, v.HasLocal
	case Live:
		return v.Live, v.HasLive
	}
	return value.Value{}, false
}

// Lists returns the items of each source whose value is a list, else nil.
func (v *Values) Lists() (recorded, local, live []value.Value) {
	return v.Recorded.Items(), v.Local.Items(), v.Live.Items() // (nil when absent, null or not a list)
}

// LocalSet reports whether local sets the node to a non-null value.
func (v *Values) LocalSet() bool { return v.HasLocal && !v.Local.IsNull() }

// Node is the data every Element shares. Invariants: Parent is nil only for the root; Name is a MapElement child's
// field name, empty for the root and list items; Type is never nil (openapi.Unknown without schema).
type Node struct {
	Parent Element
	Name   string
	Values
	Type *openapi.Type
	// Meta is the merge metadata of the field holding the node (merge,retainKeys list items carry StrategyRetainKeys).
	Meta openapi.Meta
	// ID numbers nodes densely from 0 in collation order; Phase 2 keeps decisions in tables by ID, the tree read-only.
	ID int32
	// Ruled reports that a registered rule's own visitor decides the node or a node below it (pkg/elements.Rule): walks
	// that stop at a subtree the merge left as live has it (the change list) still reach such nodes.
	Ruled bool
	// Dirs is what a patch says of the node beyond its value; nil when it says nothing, and always in a three-way tree.
	Dirs *Directives
}

// Directives is what a strategic merge patch says about a node beyond its value, taken out of the value (never data).
// Invariants, validated when the tree is built: RetainKeys is sorted and unique; SetOrder and DeleteFromList are lists.
type Directives struct {
	// RetainKeys lists the fields a map keeps ("$retainKeys").
	RetainKeys    []string
	HasRetainKeys bool
	// ReplaceList reports a "$patch: replace" item in a merged list: the list's other items replace live's.
	ReplaceList bool
	// SetOrder and DeleteFromList are the parent's "$setElementOrder/<field>" and "$deleteFromPrimitiveList/<field>".
	SetOrder          value.Value
	HasSetOrder       bool
	DeleteFromList    value.Value
	HasDeleteFromList bool
}

// PathElement returns the step from the parent to the node: a map field's name, a list item's identity (KeyFields, a
// set's value, a LiveExtra's live index), the zero Element for the root; computed, as only errors and changes ask.
func (n *Node) PathElement() fieldpath.Element {
	item := n.Recorded // an item as local has it, else live, else recorded
	if n.HasLocal {
		item = n.Local
	} else if n.HasLive {
		item = n.Live
	}
	switch p := n.Parent.(type) {
	case nil:
		return fieldpath.Element{}
	case *ListElement:
		for i := range p.LiveExtra {
			if p.LiveExtra[i].Element.Base() == n {
				return fieldpath.Index(p.LiveExtra[i].LiveIndex)
			}
		}
		return fieldpath.Key(KeyFields(item, p.Meta.MergeKey, p.Type.Item()))
	case *SetElement:
		return fieldpath.Val(item)
	}
	return fieldpath.Field(n.Name)
}

// Depth is the number of steps from the root to the node: the length of its Path.
func (n *Node) Depth() int {
	depth := 0
	for cur := n; cur.Parent != nil; cur = cur.Parent.Base() {
		depth++
	}
	return depth
}

// Path materialises the path of the node from the root (not for hot paths).
func (n *Node) Path() fieldpath.Path {
	p := make(fieldpath.Path, n.Depth())
	for d, cur := len(p)-1, n; d >= 0; d, cur = d-1, cur.Parent.Base() {
		p[d] = cur.PathElement()
	}
	return p
}

// Root returns the root of n's tree: the object's own node, whose HasLive tells whether the object exists yet.
func (n *Node) Root() *Node {
	for n.Parent != nil {
		n = n.Parent.Base()
	}
	return n
}

// Base returns n: every Element embeds its Node.
func (n *Node) Base() *Node { return n }

// Errorf returns an *Error for the node's path, blaming source s.
func (n *Node) Errorf(s Source, msg string) *Error {
	return &Error{Source: s, Path: n.Path(), Msg: msg}
}

// Element is one node of the collated tree: *AtomicElement, *MapElement, *ListElement, *SetElement, or a kind a
// program defines (a struct embedding Node, built by its Rule's Collate hook; Parent if it has children).
type Element interface {
	// Base returns the shared node data.
	Base() *Node
}

// Parent is implemented by an Element kind defined outside this package whose node has children in the tree, so that
// walks over a whole tree (the change list) reach them. The built-in kinds' children are their Fields and Items.
type Parent interface {
	Element
	// Children lists the element's children in the tree's order.
	Children() []Element
}

// Outcome is the merged value of an Element: Present false means the field or item is not in the result.
type Outcome struct {
	Value   value.Value
	Present bool
}

// Absent is the Outcome of a node that is not in the result.
var Absent = Outcome{}

// Keep returns the Outcome that holds v.
func Keep(v value.Value) Outcome { return Outcome{Value: v, Present: true} }

// Visitor computes the Outcome of the Elements its merge rule decides, recursing into children through a Walker so
// that each child gets the visitor of its own rule. It switches on the kinds it decides; any other kind is an error
// (Unsupported), never a default.
type Visitor interface {
	Visit(Element) (Outcome, error)
}

// Unsupported is the error of visitor v handed element e of a kind it does not decide.
func Unsupported(v any, e Element) error {
	return e.Base().Errorf(NoSource, fmt.Sprintf("%T does not decide a %T", v, e))
}

// Walker computes the Outcome of any Element, choosing the Visitor for it (pkg/strategy).
type Walker interface {
	Walk(Element) (Outcome, error)
}

// AtomicElement is a value decided whole, children not collated: a scalar or null, a node no source gives a non-null
// value (absent from the result but for a null only live holds), a list without merge strategy, a replace field, a
// node of conflicting kinds.
type AtomicElement struct{ Node }

// Below is the subtree of an AtomicElement, local holding a map or list there, that kubectl's patches compare member by
// member though a merge decides the node whole; a tree collated for patches has it beside the tree (pkg/collate's
// Options.Patches, Arena.Below), never in it: where live holds another kind, the deletions compare recorded's value with local's; in an item all sources
// agree on holding an unsorted merged set, the delta compares live's (kubectl sorts its copy first). Element is
// collated, in the tree's collation, numbering and storage, from local's value and the other (recorded's or live's) as
// Recorded alone, with the node's Parent, Name, Type and Meta; Err is the error collating it (Element nil then), which
// only patch generation reports: a merge never reads it.
type Below struct {
	Element Element
	Err     error
}

// Field is a named child of a MapElement.
type Field struct {
	Name    string
	Element Element
}

// MapElement is a schema struct (undeclared fields are untyped children) or a free-form map (additionalProperties, or
// no schema); Node.Type says which. Both merge alike: one kind, as in server-side apply's typed values.
type MapElement struct {
	Node
	// Fields are the children, sorted by Name: the union of the keys of all present, non-null sources.
	Fields []Field
}

// Item is a ListElement or SetElement member in some source, with its index in each source list (-1 where absent).
type Item struct {
	Element                              Element
	RecordedIndex, LocalIndex, LiveIndex int
	// Of is, for a LiveExtra entry repeating an earlier live item's key, that item's position in Items; else -1.
	Of int
	// OrderIndex is the item's (first) position in a patch's "$setElementOrder" list; -1 when not named there.
	OrderIndex int32
	// Deleted reports an item a patch deletes that still counts for the others' order ("$deleteFromPrimitiveList", or
	// a live item a "$patch: replace" list drops).
	Deleted bool
}

// Repeat is a patch list's later item, at position Pos, naming member ID's key again (gate UniqueMergeKeys off).
// Element is the item collated alone, as the root of a tree of its own in the list's tree's storage and ID space (no
// Parent, no live: the item as the API server applies it to nothing; in compose mode, an item holding no "$patch" whose
// maps hold it only as maps of their own (outside maps of strategy replace; each dropped, as where the outcome lacks
// it), has its other maps alone for live, each then a map node, its fields
// nodes of their own: a merged list among them a leaf holding the patch's list, less its maps holding "$patch"
// (Cleaned), which Phase 2 merges onto the outcome's list where it can order it so; an item held whole, in a list
// first lacks, less its maps holding "$patch" at any depth, as the list's other items, the list taken whole), at the
// item's depth; outside compose mode its merged lists are paired with those of the member's tree or of an earlier
// repeat's of its key, whose outcome it is applied to (Chain). Err is
// the error collating it (Element nil then), which only applying the repeat to nothing reports; or, with Element, that of a
// merged list the repeat holds empty and orders by "$setElementOrder" alone, for want of items without live, which
// applying it to an outcome that holds items there does not give. Both are unset in a member order (order.Apart's
// entries of ID alone, Pos -1).
type Repeat struct {
	ID, Pos int
	// Depth is the item's nesting depth in the patch, from its root (a tree the front-end collates again keeps the
	// depth of its root in the patch): Element's tree is held to the depth limit there, and the front-end applies the
	// item again at it (visitors.InTurn). A repeat nested in a repeat's tree counts from the patch's root too.
	Depth   int
	Element Element
	Err     error
	// Fails reports an item ordering by "$setElementOrder" a field it sets to other than a list, which the API server
	// refuses whatever it merges the item onto: applied to an outcome, it fails with the error a collation with that
	// outcome meets first, which Phase 2 finds by walking the item with the outcome (Room, outside compose mode) or,
	// Err lying at that field and the item's fields before it scalars or nulls, is Err.
	Fails bool
	// FailsAt, with Err and no Element, outside compose mode, names the field of the repeat's map at or below which
	// its collation failed, where that failure is the collation's with an outcome lacking the field: the fields before
	// it (by name) are scalars or nulls without merge rules (with MapsBefore, plain trees: see PlainRoom), the map
	// holds no directive but for fields from it on, and its fields lie within the depth limit. Applied to an outcome
	// map that lacks the field and holds no field before it a merge rule names, the repeat fails with Err, as its
	// collation with that outcome does (not so with MapsBefore). Empty otherwise, and where a list of the repeat had
	// its "$setElementOrder" refused for what the outcome's list decides (an empty order beside items, a
	// "$deleteFromPrimitiveList" beside it, the list left out: strategicpatch sorts or deletes by that list) or, a list
	// merged by no strategy, for where the item lands (an order the list does not follow, or whose sort moves a list
	// kept apart): a collation with the outcome as live takes the list as a set in the order, failing otherwise or not.
	FailsAt string
	// PlainRoom, with FailsAt, where the collation failed by the depth limit and the map's fields up to FailsAt (by
	// name) are plain trees (scalars, nulls, maps of such, no "$" key, no merge rule), is how many levels those fields
	// may nest within the limit (a scalar field: 1). Applied to an outcome map whose fields up to FailsAt are plain
	// trees within PlainRoom without merge rules, the repeat fails with Err whether the outcome holds the field or not:
	// such a collation walks the patch's nodes in the order Phase 1 did, and meets no error in the outcome's first.
	// 0 otherwise.
	PlainRoom int
	// MapsBefore reports a FailsAt whose fields before it (by name) hold maps too, plain trees: the repeat fails with
	// Err only onto an outcome PlainRoom admits (its maps there walked with the repeat's within the limit).
	MapsBefore bool
	// Disordered reports, with Err and no Element, outside compose mode, an Err that a merged list's "$setElementOrder"
	// gives, a keyed list's or a set of scalars' naming no value twice: an entry naming no item the list can hold (a
	// null, an entry without the key), an item it lacks, or one out of its order. The entries and the patch's items name
	// the same keys or values whatever the outcome holds, so a collation with an outcome as live that reaches that
	// list, its items and the outcome's there merging, fails there so.
	Disordered bool
	// Room, with Err the depth limit's or Disordered and no Element, or Err a list's the item holds empty and orders
	// (EmptyOrdered) with Element, outside compose mode, is how many levels the item's
	// fields may nest within the limit (a field of the item: 1; MaxDepth less Depth; without a limit, math.MaxInt):
	// collated with an outcome as live, a field of the outcome's that the patch lacks below maps both hold fails there
	// beyond it. In compose mode, with Element and Deep, it is MaxDepth less Depth too: a value of the item a collation
	// with an outcome as live takes whole (less its maps holding "$patch") where that outcome lacks a map, walking its
	// maps and lists, fails at its field where one of them lies more than Room levels below the item (a map of strategy
	// replace among them, which Element's tree holds whole, unwalked). 0 otherwise.
	Room int
	// ErrRoom, with Err and no Element, outside compose mode, is how many levels the item's fields may nest within the
	// limit (a field of the item: 1; MaxDepth less Depth; without a limit, math.MaxInt): a collation with an outcome as
	// live meets no depth error at the outcome's values within it. 0 otherwise.
	ErrRoom int
	// Deep reports that a map of Element's tree without fields lies at the depth limit: collated with a value holding
	// fields there, their depth is beyond the limit, an error. In compose mode, an item is Deep too where a value it
	// holds lies at the limit (an item Element holds whole: its fields): a field the outcome holds below it would lie
	// beyond. A Repeat with Limit is Deep, and so is one holding a "$patch: replace" map Element's tree drops whose data
	// nests beyond the limit (Onto records no node for it: a collation with an outcome holding a map there fails). Without
	// Element, where Err is a "$setElementOrder" refused for what the outcome's list decides (Phase 2's
	// sortedOntoLacking), Deep reports a value of the item at the limit likewise.
	Deep bool
	// Limit holds, by ID, the maps of Element's tree without fields at the depth limit (those Deep reports; one holding
	// "$retainKeys" alone among them), each with the error a field below it gives, at the map's path: collated with a
	// value holding fields there, the first of them (by name) lies beyond the limit, and the collation fails there,
	// before a "$retainKeys" clears any. Nil without one.
	Limit map[int32]*Error
	// Onto holds, by the ID of the node Element's tree holds for it, the node a "$patch: replace" or "$patch: delete"
	// map of the repeat is where the outcome the repeat is applied to holds a map there (the patch's map whole; an
	// empty map, or with gate PatchDeleteRemovesMap a null, the field removed): without live, Element's tree drops such
	// a map. So for a map of strategy replace, which Element's tree builds field by field: the patch's map whole, less
	// its null fields, directive keys and maps holding "$patch", as a collation with such an outcome takes it. Nil
	// without one.
	Onto map[int32]Element
	// Merges holds the IDs of the nodes Element's tree holds for its "$patch: merge" maps (dropped without live): where
	// the outcome the repeat is applied to holds a map there, the repeat fails, as maps merge without that directive.
	Merges []int32
	// Cleaned holds, in compose mode, the IDs of the leaves of Element's tree whose value is the patch's less the maps
	// holding "$patch" it holds there (a merged list's "$patch: delete" items among them), as a collation where the
	// outcome lacks the field takes it: where that outcome holds a list, the patch's value as it stands tells, not the
	// leaf's. Nil without one.
	Cleaned []int32
	// Contradicted holds, in compose mode, by the ID of the leaf Element's tree holds for a map of the repeat, reached
	// through maps below the item's own, that holds a merged list its "$setElementOrder" contradicts, or an entry of
	// which names no item (collate's entryFailed; collated as the
	// patch holds it, as where the outcome lacks that map), the error collating that list onto a map there gives: a
	// collation with an outcome holding maps down to that map fails with it, where the map's fields before the list
	// merge without error. By ID -1, such a list of the item's own map (Element nil, Err that error). Nil without one.
	Contradicted map[int32]*Error
	// ItemErrs holds, in compose mode, by the ID of a leaf of Element's tree holding a list of maps the schema merges by a
	// merge key, the error reading the patch's items there as a patch list's gives (an item's "$patch" other than "delete" or
	// "replace", an item without the key): a collation with an outcome holding a list of maps there fails with it. Nil
	// without one.
	ItemErrs map[int32]error
}

// EmptyOrdered reports whether n, of a Repeat's tree, is a list the repeat holds empty and orders by
// "$setElementOrder" (Repeat.Err): collated with live holding no items there, it fails.
func EmptyOrdered(n *Node) bool {
	return n.HasLocal && n.Local.IsList() && n.Local.Len() == 0 && n.Dirs != nil && n.Dirs.HasSetOrder
}

// Chain links a merged list of a Repeat's tree (Repeat.Element) to Base, the list at its place in the tree of the member
// (or earlier repeat) it is applied to, whose outcome is the list the repeat's merges onto; Phase 1 pairs them as it
// pairs a patch's items with live's. Of[i] is, for the list's Items[i], the member of Base of its identity (its ID in
// Base's Items), or -1 where Base has none; where Base is an *AtomicElement (a list the member takes from live, or one
// inside a map the member takes whole, live's or the patch's: then a node outside the tree, ID -1, holding that list as
// its Live), Of[i] is the position of that item in Base's Live. Gone lists the base's items (by Of's numbering) the repeat's "$patch:
// delete" items leave out, Deleted those its "$deleteFromPrimitiveList" deletes; Named, given a "$setElementOrder",
// holds each base item's (first) position there (-1: not named). Set by Phase 1 only where Phase 2 can merge the
// repeat's list onto the base's outcome: Base keeps no repeated identity apart, and the repeat's list has no directive
// but "$setElementOrder" and, for a set, "$deleteFromPrimitiveList" (a set repeating a value, Ranked without live,
// has its later items of a value Joined).
type Chain struct {
	Base          Element
	Of            []int
	Gone, Deleted []int
	Named         []int32
	// Laid reports a Base of an earlier repeat's tree: Phase 2 knows where its outcome's items are from only where it
	// merged that repeat from its tree (then Of numbers Base's Items, followed, for a Base chained in turn, by its own
	// base's members).
	Laid bool
	// Joined lists, for a Ranked set, its Items that repeat an earlier item's value (Of -1): a collation with the base's
	// outcome as live joins each to that item, as the API server's merge keeps the value once.
	Joined []int
}

// ListElement is a list of maps merged by key (Node.Meta.MergeKey). Invariants: Items holds each distinct key once,
// local's items first (local order), then live-only ones (live order), then recorded-only ones; LiveExtra holds the
// live items that repeat an earlier live item's key or lack the key, kept as they are.
type ListElement struct {
	Node
	Items     []Item
	LiveExtra []Item
	// Repeats lists a patch's later items of a key, in patch order (none unless gate UniqueMergeKeys is off).
	Repeats []Repeat
	// Ranked reports a merge's list whose sources repeat a key, its items paired as kubectl pairs them (gate
	// UniqueMergeKeys off): Items holds each key and rank once (collate's ranks).
	Ranked bool
	// Chain, in a Repeat's tree, pairs the list with its base (nil elsewhere, and where Phase 1 does not pair it).
	Chain *Chain
}

// SetElement is a list of primitives merged as a set; Items holds each distinct value once, ordered as ListElement's,
// unless Ranked.
type SetElement struct {
	Node
	Items []Item
	// Ranked reports a set whose repeated values stay apart (gate UniqueMergeKeys off): a merge's whose sources repeat a
	// value, each value's i-th occurrence in one source paired with its i-th in the others, as kubectl's sorted
	// comparison pairs them; or a patch's list that the server takes whole (live holds none). Items holds each value
	// and rank once, in the order of the first source naming it.
	Ranked bool
	// Chain, in a Repeat's tree, pairs the set with its base (nil elsewhere, and where Phase 1 does not pair it).
	Chain *Chain
}

// RemovedSinceRecorded reports whether local dropped the item since the last apply: recorded names it, local not.
func (it *Item) RemovedSinceRecorded() bool { return it.LocalIndex < 0 && it.RecordedIndex >= 0 }

// Source names where a value came from.
type Source uint8

// The sources of a three-way apply and of a patch.
const (
	NoSource Source = iota // not attributed to any input
	Recorded               // the last applied configuration (annotation)
	Local                  // the configuration applied now
	Live                   // the object as the server holds it
	Patch                  // a strategic merge patch applied to Live
)

var sourceNames = [...]string{"", "recorded", "local", "live", "patch"}

// String names the source in lower case, as messages print it.
func (s Source) String() string {
	if int(s) < len(sourceNames) {
		return sourceNames[s]
	}
	return "invalid"
}

// Error is bad input found collating or merging: the source holding the offending value, its path, and Msg (what is
// wrong, what was expected).
type Error struct {
	Source Source
	Path   fieldpath.Path
	Msg    string
}

// DepthLimitMsg is the message of the Error at a node of a patch nesting deeper than max levels of maps and lists.
func DepthLimitMsg(max int) string {
	return "nesting is deeper than the limit of " + strconv.Itoa(max) + " levels of maps and lists"
}

// Error renders "<source> <path>: <msg>".
func (e *Error) Error() string {
	if e.Source == NoSource {
		return e.Path.String() + ": " + e.Msg
	}
	return e.Source.String() + " " + e.Path.String() + ": " + e.Msg
}
