// Package delta is the patch-producing visitor: what a strategic merge
// patch must say to turn one source of a collated tree (internal/collate)
// into local, node by node, in kubectl's modes (Mode): additions and
// changes from live (Delta, kubectl's "delta"), removals from recorded
// (Deletions), or both from recorded (TwoWay, and Changed without
// $setElementOrder). It is the one place that decides what kubectl's
// patches hold; everything else reads its results:
//
//   - pkg/patchgen sends them (Patch, ThreeWay: the deletions combined with
//     the delta by smp.CombineThreeWay);
//   - the conflict rule of kubectl apply --overwrite=false (Check,
//     Conflicts) compares the three-way patch with the Changed patch from
//     recorded to live, produced by the same Visitor on recorded and live
//     collated as recorded and local;
//   - kubectl's list order (internal/visitors) asks whether the delta or
//     the deletions have anything for a list (Touches), which stops at the
//     first entry.
//
// Lists are matched by the index collate built (elements.KeyOf), so a
// patch is linear in the size of the objects. The output equals
// strategicpatch's JSON byte for byte where both are defined; see
// pkg/patchgen for the format and where ply differs on purpose.
package delta
