// Package patchedmachinery writes a copy of the k8s.io/apimachinery module whose strategic merge patch runs on ply: a
// directory a Go build can name in `replace k8s.io/apimachinery => DIR`.
//
// Write copies the apimachinery module ply's go.mod selects from the module cache, in full, into a directory and, in
// the copy's pkg/util/strategicpatch, replaces patch.go by ply's pkg/strategicpatch/api.go, which compiles there
// unchanged and forwards to pkg/strategicpatch/engine (which imports no strategicpatch, so there is no import cycle).
// Of the original patch.go only declarations that merge nothing are kept (file zz_apimachinery_kept.go): the API's
// types (JSONMap, DiffOptions, MergeOptions, the Sortable types) and sortMergeListsByName with what it calls, the
// function apimachinery's tests normalise their fixtures with; Kept lists them. Module.Missing names the other
// declarations of patch.go, which the copy no longer has (test/smpsuite removes the tests that use them).
//
// The copy's go.mod requires ply, replaced by ply's source tree, and its go.sum adds ply's. A replace in a dependency's
// go.mod is ignored by Go, so a build whose main module replaces apimachinery by the copy replaces ply by the same tree
// itself (test/harness does, for the kube-apiserver built on ply). Nothing is written outside the directory given.
package patchedmachinery
