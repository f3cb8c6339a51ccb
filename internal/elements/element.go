package elements

import (
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/fieldpath"
	"github.com/plyproject/ply/pkg/value"
)

// Values holds the three values of one node. A value that is absent has its
// Has flag false; an explicit null is present (Has true) and IsNull.
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

// Lists returns the items of each source whose value is a list (nil for
// the others).
func (v *Values) Lists() (recorded, local, live []value.Value) {
	if v.HasRecorded && v.Recorded.IsList() {
		recorded = v.Recorded.Items()
	}
	if v.HasLocal && v.Local.IsList() {
		local = v.Local.Items()
	}
	if v.HasLive && v.Live.IsList() {
		live = v.Live.Items()
	}
	return recorded, local, live
}

// LocalSet reports whether local sets the node to a non-null value.
func (v *Values) LocalSet() bool { return v.HasLocal && !v.Local.IsNull() }

// Node is the data every Element shares: where it is, its values and its
// merge metadata.
//
// Invariants: Parent is nil only for the root; Name is the field name of a
// child of a MapElement or TypeElement (a list item's place is derived from
// its values, see PathElement); Type is never nil (openapi.Unknown without
// schema).
type Node struct {
	Parent Element
	// Name is the field name of a map's child; empty for list items and
	// the root.
	Name string
	Values
	// Type is the schema type of the node.
	Type *openapi.Type
	// Meta is the merge metadata that applies to the node (from the field
	// that holds it; items of a list with strategy merge,retainKeys carry
	// StrategyRetainKeys).
	Meta openapi.Meta
	// ID numbers the node within its tree, densely from 0 in collation
	// order. Phase 2 keeps what it decides in tables indexed by ID
	// (strategy.Walker.Outcome), so the tree stays read-only once built.
	ID int32
	// Dirs is what a strategic merge patch says about the node beyond
	// its value (a tree collated from a patch, pkg/patch); nil when it
	// says nothing, and on every node of a three-way apply tree.
	Dirs *Directives
}

// Directives is what a strategic merge patch says about one node beyond
// its value: the directives, taken out of the patch value (they are never
// data). Phase 1 reads them (internal/collate, through the patch format of
// pkg/patch); the visitors and the ordering component act on them.
//
// Invariants: the directive values are validated when the tree is built
// (RetainKeys is a sorted list of distinct names, SetOrder and
// DeleteFromList are lists).
type Directives struct {
	// Directive is the "$patch" value of a map ("replace", "delete" or
	// "merge"); empty when there is none.
	Directive string
	// RetainKeys lists the fields a map keeps ("$retainKeys"), sorted and
	// without duplicates; live fields outside it are cleared. Meaningful
	// only when HasRetainKeys.
	RetainKeys    []string
	HasRetainKeys bool
	// ReplaceList reports a "$patch: replace" item in a merged list: the
	// list's other items replace live's.
	ReplaceList bool
	// SetOrder is the "$setElementOrder/<field>" list given for the node
	// by its parent map, when HasSetOrder.
	SetOrder    value.Value
	HasSetOrder bool
	// DeleteFromList is the "$deleteFromPrimitiveList/<field>" list given
	// for the node by its parent map, when HasDeleteFromList.
	DeleteFromList    value.Value
	HasDeleteFromList bool
}

// value returns the first value present of local, live and recorded.
func (n *Node) value() value.Value {
	switch {
	case n.HasLocal:
		return n.Local
	case n.HasLive:
		return n.Live
	}
	return n.Recorded
}

// PathElement returns the step from the node's parent to the node: the
// field name under a map, the merge-key tuple of an item of a keyed list
// (with schema defaults for key fields the item leaves out), the value of
// an item of a set, and the live index of a live item that could not be
// matched by key. It is computed, not stored: nodes are many, paths are
// asked for only for errors and changes. The root's is the zero Element.
func (n *Node) PathElement() fieldpath.Element {
	switch p := n.Parent.(type) {
	case nil:
		return fieldpath.Element{}
	case *ListElement:
		for i := range p.LiveExtra {
			if p.LiveExtra[i].Element.Base() == n {
				return fieldpath.Index(p.LiveExtra[i].LiveIndex)
			}
		}
		return fieldpath.Key(KeyFields(n.value(), p.Meta.MergeKey, p.Type.Item()))
	case *SetElement:
		return fieldpath.Val(n.value())
	}
	return fieldpath.Field(n.Name)
}

// Path materialises the path of the node from the root. It walks parent
// pointers and is meant for errors and change reports, not hot paths.
func (n *Node) Path() fieldpath.Path {
	depth := 0
	for cur := n; cur.Parent != nil; cur = cur.Parent.Base() {
		depth++
	}
	p := make(fieldpath.Path, depth)
	for cur := n; cur.Parent != nil; cur = cur.Parent.Base() {
		depth--
		p[depth] = cur.PathElement()
	}
	return p
}

// Errorf returns an *Error for the node's path, blaming source s.
func (n *Node) Errorf(s Source, msg string) *Error {
	return &Error{Source: s, Path: n.Path(), Msg: msg}
}

// Element is one node of the collated tree.
type Element interface {
	// Base returns the shared node data.
	Base() *Node
	// Accept calls the Visitor method for the element's concrete type.
	Accept(Visitor) (Outcome, error)
}

// Outcome is the merged value of an Element: Present false means the field
// or item is not in the result.
type Outcome struct {
	Value   value.Value
	Present bool
}

// Absent is the Outcome of a node that is not in the result.
var Absent = Outcome{}

// Keep returns the Outcome that holds v.
func Keep(v value.Value) Outcome { return Outcome{Value: v, Present: true} }

// Visitor computes the Outcome of each kind of Element. Implementations
// recurse into children through a Walker so that each child is handled by
// the visitor its own strategy selects.
type Visitor interface {
	VisitPrimitive(*PrimitiveElement) (Outcome, error)
	VisitAtomic(*AtomicElement) (Outcome, error)
	VisitMap(*MapElement) (Outcome, error)
	VisitType(*TypeElement) (Outcome, error)
	VisitList(*ListElement) (Outcome, error)
	VisitSet(*SetElement) (Outcome, error)
	VisitEmpty(*EmptyElement) (Outcome, error)
}

// Walker computes the Outcome of any Element, choosing the Visitor for it.
// internal/strategy implements it; visitors use it to recurse.
type Walker interface {
	Walk(Element) (Outcome, error)
}

// PrimitiveElement is a scalar or null field.
type PrimitiveElement struct{ Node }

// Accept implements Element.
func (e *PrimitiveElement) Accept(v Visitor) (Outcome, error) { return v.VisitPrimitive(e) }

// Base implements Element.
func (e *PrimitiveElement) Base() *Node { return &e.Node }

// AtomicElement is a value that is replaced whole: a list without a merge
// strategy, a field whose declared strategy is replace, or a node whose
// sources disagree on its kind (object, list, scalar). Its children are not
// collated.
type AtomicElement struct{ Node }

// Accept implements Element.
func (e *AtomicElement) Accept(v Visitor) (Outcome, error) { return v.VisitAtomic(e) }

// Base implements Element.
func (e *AtomicElement) Base() *Node { return &e.Node }

// Field is a named child of a MapElement or TypeElement.
type Field struct {
	Name    string
	Element Element
}

// Fields is the children of a map-like element, sorted by Name, holding the
// union of the keys of all present, non-null sources.
type Fields []Field

// MapElement is a free-form map: its values all share one type, or it has
// no schema.
type MapElement struct {
	Node
	Fields Fields
}

// Accept implements Element.
func (e *MapElement) Accept(v Visitor) (Outcome, error) { return v.VisitMap(e) }

// Base implements Element.
func (e *MapElement) Base() *Node { return &e.Node }

// TypeElement is a struct with schema-declared fields. Fields the schema
// does not declare are kept as untyped children.
type TypeElement struct {
	Node
	Fields Fields
}

// Accept implements Element.
func (e *TypeElement) Accept(v Visitor) (Outcome, error) { return v.VisitType(e) }

// Base implements Element.
func (e *TypeElement) Base() *Node { return &e.Node }

// Item is one member of a ListElement or SetElement: an item present in at
// least one source, with its position in each (-1 when absent there).
type Item struct {
	Element Element
	// RecordedIndex, LocalIndex and LiveIndex are the positions of the item
	// in each source list, -1 where the source lacks it.
	RecordedIndex, LocalIndex, LiveIndex int
	// Of is, for an entry of ListElement.LiveExtra that repeats the key of
	// an earlier live item, the position in Items of that item; else -1.
	Of int
	// OrderIndex is the item's position in the "$setElementOrder" list of
	// a patch (its first, when repeated); -1 when it is not named there or
	// there is none.
	OrderIndex int32
	// Deleted reports an item a patch deletes while it still counts for
	// the order of the others: a value "$deleteFromPrimitiveList" names, a
	// live item a "$patch: replace" list drops.
	Deleted bool
}

// ListElement is a list of maps merged by merge key (Node.Meta.MergeKey).
//
// Invariants: Items holds each distinct key once; items are ordered local
// first (local order), then live-only items in live order, then
// recorded-only items in recorded order. Live may hold further items that
// share a key with an earlier live item (tolerated duplicates) or lack the
// key: those are in LiveExtra with their live positions, kept as they are.
type ListElement struct {
	Node
	Items []Item
	// LiveExtra holds live items that could not be matched by key.
	LiveExtra []Item
}

// Accept implements Element.
func (e *ListElement) Accept(v Visitor) (Outcome, error) { return v.VisitList(e) }

// Base implements Element.
func (e *ListElement) Base() *Node { return &e.Node }

// SetElement is a list of primitives merged as a set (strategy merge).
// Items holds each distinct value once, ordered like ListElement.Items.
type SetElement struct {
	Node
	Items []Item
}

// Accept implements Element.
func (e *SetElement) Accept(v Visitor) (Outcome, error) { return v.VisitSet(e) }

// Base implements Element.
func (e *SetElement) Base() *Node { return &e.Node }

// EmptyElement is a node to which no source gives a non-null value (each
// is absent or an explicit null): it is absent from the result.
type EmptyElement struct{ Node }

// Accept implements Element.
func (e *EmptyElement) Accept(v Visitor) (Outcome, error) { return v.VisitEmpty(e) }

// Base implements Element.
func (e *EmptyElement) Base() *Node { return &e.Node }

// RemovedSinceRecorded reports whether local dropped the item since the
// last apply: recorded names it and local does not.
func (it *Item) RemovedSinceRecorded() bool { return it.LocalIndex < 0 && it.RecordedIndex >= 0 }
