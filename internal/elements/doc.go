// Package elements is the typed tree that Phase 1 (internal/collate) builds and
// Phase 2 (internal/visitors, dispatched by internal/strategy) walks.
//
// Every node is an Element that holds the node's three values (Recorded,
// Local, Live), each of which may be absent, present, or explicitly null,
// together with the node's merge metadata from the schema. The concrete
// Element types are:
//
//	PrimitiveElement  a scalar (or null) field
//	AtomicElement     a value replaced whole: lists without a merge strategy,
//	                  fields with strategy replace, values whose kind differs
//	                  between the sources
//	MapElement        a free-form map (additionalProperties, or no schema)
//	TypeElement       a struct with schema-declared fields
//	ListElement       a list of maps merged by merge-key tuple
//	SetElement        a list of primitives merged as a set
//	EmptyElement      a node no source gives a non-null value
//
// A tree collated from a strategic merge patch (pkg/patch) uses the same
// types: the patch takes the place of Local (errors name it as source
// Patch), Recorded is absent, and the patch's directives are the nodes'
// PatchMeta (Node.Patch, nil in three-way trees).
//
// Elements know nothing about merging: a Visitor decides, per strategy, what
// the updated value is. Adding a field type means adding an Element and a
// method to Visitor; adding a merge strategy means adding a Visitor.
package elements
