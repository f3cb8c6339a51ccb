// Package delta is the patch-producing visitor: what a strategic merge
// patch must say to turn one source of a collated tree (internal/collate)
// into local, in kubectl's modes (Mode). It is the one place that decides
// what kubectl's patches hold: pkg/patchgen sends them (Patch, ThreeWay),
// kubectl apply --overwrite=false's conflict check compares two of them
// (Check), and kubectl's list order asks whether a list is touched
// (Touches). Lists are matched by collate's index (elements.KeyOf), so a
// patch is linear in the size of the objects; the output equals
// strategicpatch's JSON byte for byte where both are defined.
package delta
