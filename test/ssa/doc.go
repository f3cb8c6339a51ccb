// Package ssa is server-side apply's engine as a test-only peer of ply:
// sigs.k8s.io/structured-merge-diff (merge.Updater.Apply) reached through
// k8s.io/apimachinery's managedfields type converter, and the whole
// managedfields.FieldManager the API server runs for an apply request,
// both over the OpenAPI v3 documents ply embeds (openapi/default/v3).
//
// Like strategicpatch (package oracle), it is never used by ply itself:
// the benchmarks in test/bench run it side by side with ply's three-way
// merge, each taking JSON bytes and returning JSON bytes.
//
// Server-side apply has no last-applied annotation: what the applier set
// last time is the field set it owns, recorded in the object's
// metadata.managedFields. Given the same recorded, local and live
// documents as ply and strategicpatch, the peers here express recorded as
// that field set (Ownership), owned by one manager, and apply local onto
// live as that manager with force (overwrite).
package ssa
