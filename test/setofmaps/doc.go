// Package setofmaps tests ply's rule for x-kubernetes-list-type: set lists
// whose items are objects (features.SetOfMaps), as server-side apply merges
// them: atomic items, identity the whole item. The rule is checked in each
// operation — collated, merged, patched, patch-generated — on a custom
// resource whose CRD declares such a list, with the schema chained before
// the embedded default one; with the gate off, the list is replaced whole,
// as kubectl's strategic merge patch replaces it (checked against
// strategicpatch).
package setofmaps
