// Package difftest is the differential-test harness: it runs ply's
// apply.Merge and kubectl's strategic-merge-patch apply (package oracle) on
// the same (recorded, local, live) triples and classifies the outcome.
//
// A Target pairs a root type with both implementations' views of the same
// OpenAPI document: the hand-written test schema under test/testdata/schema
// or ply's embedded Kubernetes schema. Run executes one Case; RunMany
// executes a seeded batch and keeps the smallest failures; Shrink reduces a
// failing case while it keeps failing the same way; WriteCase and ReadCase
// store cases as YAML files that the replay test reruns.
//
// The agreement rule: with the oracle successful, ply must succeed with an
// object equal as a JSON value (numbers by value, map key order ignored,
// list order significant); with Overwrite false, ply must return
// *apply.ConflictError exactly when strategicpatch reports a conflict; when
// strategicpatch fails otherwise, ply must fail too.
package difftest
