// Package property holds property tests of ply's merge: semantic invariants
// checked over random (recorded, local, live) triples from
// test/internal/gen, for the test schema and for Kubernetes kinds under both
// embedded schemas (openapi.DefaultV2 and the lazily parsed v3 documents of
// openapi.Default).
//
// The properties, each over thousands of generated triples:
//
//   - determinism: merging the same triple again, or in several goroutines
//     at once, gives the same object (as JSON), the same change list and the
//     same warnings or error;
//   - idempotence: merging the result again with the same local as both
//     recorded and local (what a second "apply" of an unchanged file does)
//     gives the same object and no changes;
//   - untouched fields: a live field or list item that neither recorded nor
//     local holds keeps its live value exactly (each live object also gets
//     a label and an annotation of its own, as a controller would add);
//   - kubectl's path gives the same object: the three-way patch ply
//     generates (patchgen.ThreeWay) applied to live by ply's patch engine
//     (patch.Apply, kubectl ordering) equals the merge (kubectl ordering);
//     with the v3 targets' multi-field keys this found patch items carrying
//     filled-in key defaults and a key field's deletion lost in the join;
//   - no drops outside the merge scope: every map and merged list that local
//     holds and live holds is still in the result, and so is everything
//     below it that recorded and local leave out, except the fields of a
//     retainKeys union local leaves out (the only schema-declared clearing).
//
// A concurrency spec shares one *openapi.Schema of each kind between 16
// goroutines merging different objects at once (the v3 one loading its
// documents lazily while they do), for the race detector: go test -race
// ./test/property. FuzzMergeProperties checks all properties on triples
// from fuzzed seeds. The package holds tests only.
package property
