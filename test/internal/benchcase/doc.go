// Package benchcase builds the inputs of ply's three-way apply benchmarks
// and the two implementations they compare, so that the benchmarks in
// test/bench and the table printer in test/bench/cmd/benchtable measure
// exactly the same work.
//
// Each input is a Deployment (apps/v1) whose one container has N env
// entries. Recorded is the previously applied configuration, local is
// recorded with either the image changed ("one") or every env value
// changed ("all"), and live is recorded plus what the server adds
// (metadata.resourceVersion, uid, generation, creationTimestamp and a
// status). Both implementations take the three documents as JSON bytes and
// return the merged object as JSON bytes: ply parses with pkg/parse,
// merges with apply.Merge (kubectl ordering) and encodes with
// value.JSON; strategicpatch runs CreateThreeWayMergePatch and
// StrategicMergePatchUsingLookupPatchMeta with metadata from the same
// embedded schema.
package benchcase
