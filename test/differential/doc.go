// Package differential holds the differential test suite: ply's apply.Merge
// against kubectl's strategic-merge-patch apply (k8s.io/apimachinery's
// strategicpatch, the oracle) on random (recorded, local, live) triples of
// the test schema's Widget and of Kubernetes Deployment, Pod and Service,
// once with ply's feature gates on and once with every gate off
// (features.Kubectl(); targets "<name>/kubectl": the same cases, the
// Kubernetes ones read from the embedded OpenAPI v3 documents by both
// sides), where no gated difference is excused.
//
// Run it with `go test ./test/differential/`. Environment:
//
//	PLY_DIFF_N     cases with overwrite=true per run (default 20000); a
//	               fifth as many more run with overwrite=false
//	PLY_DIFF_SEED  base seed (default 1), decimal or 0x-hex
//	PLY_DIFF_RAW   1 compares with strategicpatch's raw result instead of
//	               the result as the API server stores it (nulls and
//	               leftover patch directives dropped)
//	PLY_DIFF_CASE  a case file (written by a failing run) or a case id
//	               "<target>[/kubectl]@<seed>[/no-overwrite]": the Replay spec reruns
//	               just that case and prints both results; run it with
//	               -ginkgo.focus=Replay -ginkgo.v
//
// On failure the suite writes the smallest failing cases, shrunk, as YAML
// files to a temporary directory named in the failure message.
package differential
