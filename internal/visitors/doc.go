// Package visitors holds Phase 2 of an apply: one elements.Visitor per merge
// strategy, each computing the Outcome (the updated value) of the elements
// internal/strategy hands it.
//
//	Replace     the value is atomic: local's value wins whole
//	Merge       maps and structs merge field by field
//	RetainKeys  like Merge, and fields local leaves out are cleared (unions)
//	Ordered     lists merged by key (maps) or by value (primitives), and
//	            ordered by the seed rule or exactly as kubectl orders them
//
// Every visitor shares the presence rule for nodes local does not set: a
// node local nulls is removed; a node local omits is removed when recorded
// had it (local deleted it since the last apply) and keeps its live value
// otherwise (it belongs to the server or another writer).
//
// Null values never reach a result map: an explicit null in local means
// "remove", and JSON null and absence are the same thing to the API server.
package visitors
