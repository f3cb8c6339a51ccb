// Package smpsuite runs k8s.io/apimachinery's own strategicpatch tests against ply (pkg/strategicpatch).
//
// Prepare copies the apimachinery module go.mod pins from the module cache into a scratch directory and, in the copy's
// pkg/util/strategicpatch, replaces patch.go by ply's pkg/strategicpatch/api.go, which compiles there unchanged and
// forwards to pkg/strategicpatch/engine (which imports no strategicpatch, so there is no import cycle). Of the original
// patch.go only declarations that merge nothing are kept (file zz_apimachinery_kept.go): the API's types (JSONMap,
// DiffOptions, MergeOptions, the Sortable types) and sortMergeListsByName with what it calls, the function the tests
// normalise their fixtures with; Kept lists them and the suite checks that list. Test functions that call other
// unexported functions of patch.go, which ply does not have, are removed and reported with the names they use, as is
// TestSortMergeLists, which tests the kept fixture helper rather than the API.
//
// The copy's go.mod requires ply, replaced by the source tree, and its go.sum adds ply's; Run runs `go test -json` on
// the package there (GOFLAGS=-mod=mod, GOWORK=off, the module cache and GOPROXY of the environment) and reads every
// test's and subtest's outcome. Nothing of apimachinery's is written outside the scratch directory.
package smpsuite
