// Package engine is ply's engine behind apimachinery's strategicpatch API (package strategicpatch above it): patch
// application (Options.Apply, pkg/patch), merging of patches (Compose, patch.Compose), two- and three-way patch
// creation (TwoWay, ThreeWay, pkg/patchgen) and the conflict check of two patches (ConflictingMaps), on JSON text,
// objects held as Go values, or value.Values.
//
// The schema is a Lookup, the shape of strategicpatch's LookupPatchMeta, which this package does not import: it
// imports nothing of k8s.io/apimachinery's strategicpatch or jsonmergepatch, so that package strategicpatch's api.go can
// sit inside a copy of apimachinery's own package and call it without an import cycle (test/smpsuite). Each call builds
// ply's schema type (openapi.Type, in a one-type openapi.FromTypes schema) from the Lookup, asking it only for the keys
// the documents hold (a patch's keys alone when applying), and fails a look-up where strategicpatch fails one. A
// Lookup that is a TypeCacher (package strategicpatch's look-ups of a Go type are) keeps the struct types built for its
// objects by shape, which later calls with objects of a shape seen before share: a type is fully given by its shape.
//
// Invariants: Options{} (every feature gate off) gives strategicpatch's results, bytes and errors, but for the classes
// docs/strategicpatch.md lists; arguments are never modified; results share no memory with the arguments, but
// ApplyMap's, which holds original's values the patch does not reach (strategicpatch's result is original), and none
// refers to the memory the calls keep for the next ones (documents read into a pooled parse.Arena, scratch memory of
// the schema builder and of ApplyMap's conversion, ThreeWayJSON's patch built in patchgen.ThreeWayReused's memory,
// ApplyJSON's result in patch.ApplyReused's: results are encoded or converted before it is reset, errors are computed
// again without it); JSON arguments are read with their strings in the arguments' own memory, which nothing refers to
// once the call returns (what is kept for later calls, field names of types and look-ups, is copied, and a
// Lookup keeping a key copies it); errors are apimachinery's (mergepatch's sentinels compared with ==, ErrConflict,
// ErrPreconditionFailed, the messages of a patch list out of $setElementOrder's order and of an item without its merge
// key), else ply's *elements.Error naming the source and field path.
package engine
