// Package strategy is the one dispatch point of Phase 2: it decides, from
// an Element's concrete type and its schema metadata, which visitor of
// internal/visitors computes its outcome, and walks the tree with them.
//
//	PrimitiveElement, AtomicElement, EmptyElement  -> Replace
//	MapElement, TypeElement                        -> Merge, or RetainKeys
//	                                                  when the field's
//	                                                  strategy has retainKeys
//	ListElement, SetElement                        -> Ordered
//
// In patch mode (Options.Patch, used by pkg/patch) every element goes to
// the patch visitor: a strategic merge patch carries its own directives.
//
// Adding a strategy means adding a visitor and a line here.
package strategy
