// Package elements is the typed tree that Phase 1 (internal/collate) builds
// and Phase 2 (internal/visitors, dispatched by internal/strategy) walks,
// and the one rule of list item identity (identity.go).
//
// Every node is an Element holding the node's three values (Recorded,
// Local, Live; each absent, present or explicitly null) and its merge
// metadata. A tree collated from a strategic merge patch uses the same
// types: the patch takes Local's place (errors name it source Patch),
// Recorded is absent, and its directives are the nodes' Dirs.
//
// Elements know nothing about merging: a Visitor decides, per strategy,
// what the updated value is.
package elements
