// Package delta is the patch-producing visitor: what a strategic merge
// patch must say to turn one source of a collated tree (internal/collate)
// into local, node by node, in kubectl's modes (Mode): additions and
// changes from live (Delta, kubectl's "delta"), removals from recorded
// (Deletions), or both from recorded (TwoWay, and Changed without
// $setElementOrder). pkg/patchgen sends its patches (Patch, ThreeWay: the
// deletions combined with the delta by smp.CombineThreeWay); Touches tells
// whether a patch has anything for a node, stopping at the first entry.
//
// Lists are matched by the index collate built (elements.KeyOf), so a
// patch is linear in the size of the objects. The output equals
// strategicpatch's JSON byte for byte where both are defined; see
// pkg/patchgen for the format and where ply differs on purpose.
package delta
