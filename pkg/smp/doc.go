// Package smp models kubectl's strategic merge patch on ply's collated
// tree: where kubectl's three-way patch (the union of a live->local delta
// and recorded->local deletions) has entries, the patch itself, the
// recorded->live diff, and the conflict rule that compares the two.
//
// ply's merge does not go through patches; this model exists so that
// OrderKubectl can reproduce kubectl's list order, Overwrite=false can
// report conflicts exactly when kubectl does, and patch generation can speak
// the format kubectl's servers understand.
package smp
