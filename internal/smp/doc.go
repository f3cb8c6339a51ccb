// Package smp is the wire format of kubectl's strategic merge patch: the
// directive keys, how kubectl renders and sorts merge keys and scalars
// (KeyString), what it counts as one JSON type (SameJSONType), the
// identity of a patch list item (KeyOfItem, elements.KeyOf for values that
// may hold anything), and how it joins the two halves of its three-way
// patch into one (CombineThreeWay).
//
// What a patch says is computed elsewhere, by one producer: the Visitor of
// internal/delta.
package smp
