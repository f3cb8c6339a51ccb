// Package smpsuite runs k8s.io/apimachinery's own strategicpatch tests against ply (pkg/strategicpatch).
//
// Prepare writes the patched copy of the apimachinery module go.mod pins (test/internal/patchedmachinery: the module
// copied from the module cache into a scratch directory, patch.go of pkg/util/strategicpatch replaced by ply's
// pkg/strategicpatch/api.go, the declarations of the original patch.go that merge nothing kept beside it, go.mod
// requiring ply replaced by the source tree). Kept lists the kept declarations and the suite checks that list. On top of
// the copy, test functions that call other unexported functions of patch.go, which ply does not have, are removed and
// reported with the names they use, as is TestSortMergeLists, which tests the kept fixture helper rather than the API.
//
// Run runs `go test -json` on the package in the copy (GOFLAGS=-mod=mod, GOWORK=off, the module cache and GOPROXY of
// the environment) and reads every test's and subtest's outcome. Nothing of apimachinery's is written outside the
// scratch directory.
package smpsuite
