// Package patchgen creates strategic merge patches in the form kubectl
// sends them: TwoWay (strategicpatch.CreateTwoWayMergePatch) and ThreeWay
// (strategicpatch.CreateThreeWayMergePatch, kubectl apply's patch).
//
// patchgen is the public front-end of the one patch producer, the Visitor
// of internal/delta: it resolves the root type, collates the objects into
// one tree (original = Recorded, modified = Local, current = Live) and asks
// internal/delta for the patch: the two-way patch (recorded -> local,
// changes and deletions), or kubectl's three-way patch, the delta (live ->
// local, additions and changes) combined with the deletions (recorded ->
// local) as kubectl does (delta.ThreeWay). Without overwrite it
// checks conflicts by kubectl's rule (delta.Check, which apply.Merge uses
// too). Lists are matched by the index collate built in one hash pass, so
// generation is linear in the size of the objects.
//
// The output equals strategicpatch's JSON byte for byte where both are
// defined (same keys, list order and directive placement):
//
//   - $setElementOrder/<list> carries local's keys (lists of maps) or
//     local's list (sets); it is sent when the list has entries, and, for
//     changes, when from's key order differs from local's (lists of maps) or
//     from's list sorted differs from local's (sets: kubectl sorts before it
//     compares). A list with no items in from is sent whole, without it.
//   - Items of a merged list: changed items (their patch plus merge key) and
//     new items (whole) in local's order, then $patch: delete items ordered
//     by the rendering of their key (as kubectl sorts keys).
//   - $deleteFromPrimitiveList/<set> lists the removed values ordered by
//     their rendering; $retainKeys lists local's non-null fields sorted, and
//     is sent when the map's patch is not empty or from has a non-null field
//     local lacks.
//   - Fields with strategy replace are sent whole whenever modified sets a
//     map there, changed or not; atomic lists and scalars when changed.
//
// Forward compatibility (design 001): every field the patch sets and every
// deletion is explicit, so a server that ignores $setElementOrder and
// $retainKeys still reaches modified's fields (order aside).
//
// Where ply differs on purpose: merge keys of several fields
// (containerPort,protocol) identify items by the whole tuple, so
// $setElementOrder entries and delete items carry every key field (a field
// an item leaves out is filled from the schema's key default). Patch items
// set what they hold, so they carry the key fields local writes and no
// filled-in default; a key field local no longer writes is null, which the
// receiver reads as the default for identity and as a deletion of the
// field. Applying a three-way patch thus gives what apply.Merge gives
// (test/property checks it). strategicpatch knows a single key field. With a single key
// field ply equals strategicpatch. Inputs strategicpatch rejects (items of
// a merged list without their key or not objects, non-scalar set items)
// are errors naming the source and path.
package patchgen
