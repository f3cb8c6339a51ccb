// Package smp models kubectl's strategic merge patch on ply's collated
// tree: where kubectl's three-way patch (the union of a live->local delta
// and recorded->local deletions) has entries, the patch itself, the
// recorded->live diff, and the conflict rule that compares the two.
//
// ply's merge does not go through patches; this model exists so that
// OrderKubectl can reproduce kubectl's list order, Overwrite=false can
// report conflicts exactly when kubectl does (Conflicts, ConflictError),
// and patch generation (pkg/patchgen) can speak the format kubectl's
// servers understand: the directive keys, CombineThreeWay (how kubectl
// joins the deletions and the delta into one patch) and KeyOfItem /
// ItemKeyFields (merge-key identities and the key fields patch entries
// carry, multi-field keys included).
package smp
