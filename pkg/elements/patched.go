package elements

// Patched is the outcome tree of a node of a merge that kubectl's pipeline decides where no node-by-node merge
// reproduces it (gate UniqueMergeKeys off, live present): a Ranked list or set, or a value live holds as another kind
// below which a merged list repeats a key. Element is the node's entry in kubectl's three-way patch (its value and its
// parent's "$setElementOrder" and "$deleteFromPrimitiveList" for it: Dirs) collated as a patch over the node's live
// value, as the API server applies that patch there: a patch tree (Patch source, no Recorded) with the node's Parent,
// Name, Type and Meta, in the merge tree's storage and ID space, built beside the tree by the same collation (pkg/collate's
// Options.Patched, Arena.Patched), never in it. Phase 2 walks Element as a patch (pkg/strategy's Options.Patched) for
// the node's outcome. Err is the error making or collating it (Element nil then), which only that walk reports.
type Patched struct {
	Element Element
	Err     error
}
