// Package engine is ply's engine behind apimachinery's strategicpatch API (package strategicpatch above it): patch
// application (Options.Apply, pkg/patch), merging of patches (Compose, patch.Compose), two- and three-way patch
// creation (TwoWay, ThreeWay, pkg/patchgen) and the conflict check of two patches (ConflictingMaps), on JSON text,
// objects held as Go values, or value.Values.
//
// The schema is a Lookup, the shape of strategicpatch's LookupPatchMeta, which this package does not import: it
// imports nothing of k8s.io/apimachinery's strategicpatch or jsonmergepatch, so that package strategicpatch's api.go can
// sit inside a copy of apimachinery's own package and call it without an import cycle (test/smpsuite). Each call builds
// ply's schema type (openapi.Type, in a one-type openapi.FromTypes schema) from the Lookup, asking it only for the keys
// the documents hold (a patch's keys alone when applying), and fails a look-up where strategicpatch fails one: where
// two documents hold objects (or lists) in values strategicpatch pairs (the items of a list merged by key by their
// merge key's value). A key holding objects is a struct field, one holding lists and no objects a list (where both,
// the kind two documents hold in one pair, objects if both or neither); values of another kind there are taken whole
// (patch and patchgen Options.OtherKindsAtomic), as strategicpatch takes a value paired with one of another kind. A
// Lookup that is a TypeCacher (package strategicpatch's look-ups of a Go type are) keeps the struct types built for its
// objects by shape, which later calls with objects of a shape seen before share: a type is fully given by its shape.
// It keeps ApplyMap's and ApplyJSON's types as well under the skeletons of the call's two documents, the object scoped
// (trimmed) to what the patch reaches (their keys and the kinds of their values: all the builder reads of them but
// which values pair, and a type that read that is not kept so), so that a later call whose documents have the same
// skeletons builds no type at all (scopedSchemaOf).
//
// ApplyMap converts to ply's values only what the patch reaches, found by the patch's names (never by a look at every
// field of a map the patch merges into): the fields a patch map does not name, and the items of a list merged by key
// that the patch's list does not name, are original's Go values in the result, and so is a value the merge leaves as
// it was (the very map or list converted, an equal string, an equal bool or number held in the Go type the conversion
// gives: kept.toMap); a map of the result where something was left out is a copy of original's (what was left out
// in it as it is) with the fields the merge changed replaced. An item left out is merged as a placeholder holding its
// merge key and its values at the keys the patch's objects there name (what the merge and the schema builder read of
// it). The result is always the one converting original whole gives, because
// two things hold: the schema builder gives the scoped values the type it gives original whole (it reads an object's
// values at the keys the patch's objects at its place hold, and those are kept), and that type merges each place
// where something was left out as scoped assumed from the Lookup (a map as a struct field, a list by the same merge
// key into struct items), which ApplyMap checks on the type built (kept.mergesAs), converting original whole where it
// does not: the builder types a field from the kinds the values at its place hold and from where strategicpatch looks
// it up (a key holding objects in one pair and lists in another both merging is a struct field; a look-up failing
// where strategicpatch does not look leaves the field without type), which the Lookup does not tell. Where the patch
// passes from the top through maps with one field each (a field original holds a map in, with neither strategy nor
// merge key, the patch's map below it without "$patch" and "$retainKeys"), ApplyMap copies those maps of original and
// runs the engine once, on the maps below them, with the Lookup of their field and the bounds on nesting counted from
// the documents' top (applySpine): the engine merges such a field's map as it merges the documents whose top it is. A
// run that fails there is made again on the whole documents, whose error names the path from their top. A map there
// whose patch the engine would merge field by field with nothing but each field's own values to decide is original's
// copy with those fields merged, the engine not run (fieldwise): strings, bools and numbers onto nothing or such
// scalars of original (a scalar paired with a scalar is replaced whatever the schema says), nulls (deleting the
// field), maps onto maps of fields without strategy or merge key, and, with every gate off, lists of maps merged by
// a string key into original's (each key once in original and in the patch; the patch's items in original's order,
// or in the order of a "$setElementOrder" naming every item of both and no other, the list then in that order and
// an item the patch adds, holding strings, bools, numbers and maps of such, taken as it stands), each map merged
// fieldwise in turn; anything else (other directives, a key original lacks without such an order) is the engine's.
// testdata/spine.yaml's and testdata/fieldwise.yaml's cases and FuzzApplyMapScoped check the results against
// converting the documents whole and the engine's run, and a spec of generated patches of lists merged by key against
// the engine's run and apimachinery's. ApplyJSON, every gate off, merges the object it trimmed (trimmer) fieldwise
// where its shape is one of those, on ply's values (fieldwiseValues), no schema type built and the engine not run;
// the same cases and generated patches check its bytes against the engine's run on the whole documents.
//
// Invariants: Options{} (every feature gate off) gives strategicpatch's results, bytes and errors, but for the classes
// docs/strategicpatch.md lists; arguments are never modified; results share no memory with the arguments, but
// ApplyMap's, which holds original's values the patch does not reach or the merge leaves unchanged (strategicpatch's
// result is original) and the patch's strings, bools and numbers it takes (immutable: kept.toMap), and none refers to the memory the calls keep for the next ones (documents read into a pooled
// parse.Arena, scratch memory of the schema builder and of ApplyMap's conversion, ThreeWayJSON's patch built in
// patchgen.ThreeWayReused's memory and current's text written without the values the patch does not depend on
// (trimmedCurrent) in a pooled currentTrimmer's, ApplyJSON's and ApplyMap's merge results in patch.ApplyReused's, what
// ApplyMap leaves out and its maps in its goReader's: results are encoded or converted before it is reset, errors are computed
// again without it); JSON arguments are read with their strings in the arguments' own memory, which nothing refers to
// once the call returns (what is kept for later calls, field names of types and look-ups, is copied, and a
// Lookup keeping a key copies it); errors are apimachinery's (mergepatch's sentinels compared with ==, ErrConflict,
// ErrPreconditionFailed, the messages of a patch list out of $setElementOrder's order and of an item without its merge
// key), else ply's *elements.Error naming the source and field path.
package engine
