// Package collate is Phase 1 of an apply: it walks the recorded, local and
// live objects together with the schema and builds one tree of
// internal/elements Elements, each holding its three values and its merge
// metadata.
//
// Rules that shape the tree:
//   - Only nodes that local sets (present and not null) get children. A node
//     local omits or nulls is a leaf: its outcome is decided by presence
//     alone (removed if recorded had it or local nulls it, else live kept),
//     so server-owned subtrees such as status are never walked.
//   - Local must fit the schema (an object where the schema wants an object,
//     and so on); a mismatch is an *elements.Error blaming local. Live whose
//     kind differs from local's makes the node atomic (local replaces it);
//     recorded whose kind differs is ignored below that node.
//   - Items of merged lists are matched by their merge-key tuple through one
//     hash index per source list: O(n) per list. A key field an item lacks
//     takes the schema default when there is one. A local item still
//     lacking a key field, or two local items with the same key, is an
//     error naming the items. Live may hold duplicates (the first one is
//     matched, later ones are kept unchanged as live-only extras) and items
//     without the key (kept unchanged). Recorded keys are used as a set.
//   - Lenient collates a server object as local (kubectl's conflict check
//     diffs recorded with live): a local value of a kind the schema rules
//     out is then atomic, and repeated local keys match their first item.
package collate
