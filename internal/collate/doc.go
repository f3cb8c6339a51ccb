// Package collate is Phase 1 of every operation: it walks the recorded,
// local and live objects (or a patch and live, read by the rules of
// pkg/patch/format) together with the schema and builds one tree of
// internal/elements Elements.
//
// Rules that shape the tree:
//   - Only nodes local sets (present, not null) get children: a node local
//     omits or nulls is a leaf decided by presence alone, so server-owned
//     subtrees such as status are never walked.
//   - Local must fit the schema, else an *elements.Error blames it. Live
//     whose kind differs from local's makes the node atomic; recorded whose
//     kind differs is ignored below that node.
//   - Items of merged lists are matched by identity (elements.KeyOf,
//     elements.SetKey) through one index per list: O(n). A local item
//     without its key, or two with one key, is an error; live may repeat
//     keys or lack them (LiveExtra, kept unchanged); recorded keys are a set.
package collate
