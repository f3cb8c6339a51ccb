// Package gen generates random (recorded, local, live) triples for the
// differential tests, driven by a schema type tree.
//
// A triple starts from a random base object. Recorded is the base (or
// value.Null for a first apply; one time in ten the base with some fields
// set to null, as a previous local may have had), local is the base after user edits
// (changed values, added and removed fields, added, removed and reordered
// list items, fields set to null) and live is the base after server-side
// edits (extra fields and items, reorders, changed values, no nulls).
//
// The generator keeps to inputs kubectl's strategic merge patch accepts, so
// that the oracle has an answer to compare with:
//   - every item of a merged list of maps carries its merge key, and merge
//     key values are unique within a list; set lists hold unique values;
//   - merged lists of maps without a key are never generated, nor are
//     lists with multi-field merge keys unless Config.MultiFieldKeys asks
//     for them (multi-field keys are a ply extension, for the property
//     tests, which need no oracle);
//   - values of maps of non-primitive values, and nested values of
//     free-form objects, are "opaque": a pure function of the case seed,
//     the type and the key, so all three inputs agree on them wherever they
//     are present (strategicpatch cannot look up metadata below a map and
//     rejects any difference there);
//   - numbers are small, strings come from small pools so that independent
//     edits collide often.
//
// Everything is driven by one math/rand/v2 PCG source seeded from the case
// seed, so a triple is reproducible from (generator, seed).
package gen
