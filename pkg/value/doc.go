// Package value is ply's document model: one immutable tree type, Value, for
// everything ply reads and writes (JSON and YAML objects, lists and scalars).
//
// Maps keep their fields sorted by key, so lookups are binary searches and
// every walk, output and error list has one deterministic order; integers are
// exact int64 values; explicit null is a Value of KindNull, distinct from a
// field that is absent. The JSON encoder writes keys in sorted order, escapes
// like encoding/json and is what ply uses for output and for the
// last-applied annotation; the YAML encoder writes kubectl's block style and
// quotes every string a YAML 1.1 or 1.2 reader could take for another type.
package value
