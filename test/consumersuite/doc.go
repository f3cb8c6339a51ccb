// Package consumersuite runs the tests of a real caller of apimachinery's strategicpatch, Helm's pkg/kube (whose
// upgrade computes CreateThreeWayMergePatch over NewPatchMetaFromStruct), against ply: built once on stock
// apimachinery and once with `replace k8s.io/apimachinery => <copy>`, the copy test/internal/patchedmachinery writes
// (its strategicpatch is ply's pkg/strategicpatch). They must pass alike.
//
// Prepare writes, in a scratch directory, the patched apimachinery copy and two modules that differ only in that
// replace: each requires Helm at HelmVersion (the release whose Kubernetes modules are go.mod's minor, v0.36) and ply,
// replaced by the source tree, so that both build with the same module versions (ply's go.mod raises Helm's
// Kubernetes modules to its own). Run tests Helm's package, which the go command fetches into the module cache, in
// either module (`go test -json helm.sh/helm/v3/pkg/kube`); the patched run also writes a coverage profile of the
// copy's strategicpatch and ply's engine, which Covered reads, to show which tests reach the patched code. Nothing of
// Helm's or apimachinery's is written outside the scratch directory, and nothing is committed.
package consumersuite
