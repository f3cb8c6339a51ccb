// Package patchgen creates strategic merge patches in the form kubectl
// sends them: TwoWay (strategicpatch.CreateTwoWayMergePatch) and ThreeWay
// (strategicpatch.CreateThreeWayMergePatch, kubectl apply's patch). It
// collates the objects into one tree (original = Recorded, modified =
// Local, current = Live) and asks the patch Visitor of internal/delta for
// the patch (delta.ThreeWay; conflicts by kubectl's rule, delta.Check), in
// time linear in the size of the objects.
//
// The output equals strategicpatch's JSON byte for byte where both are
// defined (same keys, list order and directive placement):
//
//   - $setElementOrder/<list> carries local's keys (lists of maps) or
//     local's list (sets); it is sent when the list has entries, and, for
//     changes, when from's key order differs from local's (lists of maps) or
//     from's list sorted differs from local's (sets). A list with no items
//     in from is sent whole, without it.
//   - Items of a merged list: changed items (their patch plus merge key) and
//     new items (whole) in local's order, then $patch: delete items ordered
//     by the rendering of their key.
//   - $deleteFromPrimitiveList/<set> lists the removed values ordered by
//     their rendering; $retainKeys lists local's non-null fields sorted, and
//     is sent when the map's patch is not empty or from has a non-null field
//     local lacks.
//   - Fields with strategy replace are sent whole whenever modified sets a
//     map there; atomic lists and scalars when changed.
//
// Every field the patch sets and every deletion is explicit, so a server
// that ignores $setElementOrder and $retainKeys still reaches modified's
// fields (design 001).
//
// Where ply differs on purpose: multi-field merge keys (containerPort,
// protocol) identify items by the whole tuple, so $setElementOrder entries
// and delete items carry every key field (one an item leaves out filled
// from the schema's default), while patch items carry only the key fields
// local writes (one local no longer writes is null). Applying a three-way
// patch thus gives what apply.Merge gives. Inputs strategicpatch rejects
// (items of a merged list without their key or not objects, non-scalar set
// items) are errors naming the source and path.
package patchgen
