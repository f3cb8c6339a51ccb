// Package parity checks that `ply apply --ordering kubectl` and `ply apply
// --compat=kubectl` (every feature gate off) leave a real kube-apiserver in
// the same state as kubectl 1.32's client-side `kubectl apply`.
//
// The suite starts its own kube-apiserver and etcd through test/harness
// (BeforeSuite; a missing prerequisite fails the suite with the harness's
// message, it never skips) and replays testdata/steps/NN.yaml, a sequence
// of manifest versions of a Deployment, a Service, a ConfigMap and a custom
// resource (testdata/crd.yaml), with the same client-go writes made to
// every namespace between steps (scale, labels, annotations, an injected
// sidecar, server-set env vars). Four namespaces receive each step:
//
//   - kubectl: kubectl apply only (the reference),
//   - ply: ply apply --ordering kubectl only,
//   - handover-p / handover-k: the two tools alternate (ply first, kubectl
//     first), so each tool continues from the other's last-applied
//     annotation at every step;
//   - compat: ply apply --compat=kubectl only;
//   - handover-c: ply apply --compat=kubectl and kubectl alternate.
//
// After each step the live objects of every namespace equal the reference
// once the fields that must differ are taken out: uid, resourceVersion,
// creationTimestamp, managedFields, generation, namespace, a Service's
// allocated clusterIP(s), and the last-applied annotation, which is
// compared as JSON (without its namespace) in the object diff and, in
// addition, must be the same text once each namespace's name is replaced
// by a placeholder (ply writes kubectl's format byte for byte). Each
// tool's per-object report (created, configured, unchanged) must match
// too.
//
// The one intended difference, a TCP and a UDP port on one containerPort
// (ply keys container ports by containerPort and protocol, kubectl's patch
// by containerPort alone: the MultiFieldMergeKeys gate), is kept out of
// that sequence and shown by its own spec on testdata/multikey. With
// --compat=kubectl it does not apply: testdata/controller replays a
// controller's UDP port 53 meeting a manifest's TCP port 53, where ply
// --compat=kubectl leaves what kubectl leaves and ply's default does not.
// A manifest declaring TCP and UDP on one containerPort (testdata/multikey
// v2) has two items with one merge key under kubectl's key: with
// --compat=kubectl (UniqueMergeKeys off) ply merges it as kubectl does and
// leaves the same objects at every step, and with that gate on it refuses
// it and writes nothing. Another spec applies a patch naming containerPort
// 53 twice, as kubectl sends for that manifest, with kubectl patch and
// with ply patch apply --compat=kubectl: the same ports.
//
// A manifest holding a directive key in a map (testdata/directive: a pod
// securityContext holding "$patch: replace", then "$patch: delete") is
// recorded as it stands and merged through kubectl's three-way patch: ply
// apply --compat=kubectl leaves the same object and annotation as kubectl
// at every step, and with the gate MultiFieldMergeKeys on refuses it,
// writing nothing.
//
// prune_test.go compares pruning with ApplySets: testdata/prune/NN.yaml
// applied with kubectl's `apply --prune --applyset` (KUBECTL_APPLYSET=true)
// in one namespace, with ply's in another, and with the tools handing the
// set over in both directions in two more, must leave the same objects,
// member labels and annotations and parent (the set's id, the namespace
// and the tooling aside) and print the same reports; the older form
// (`--prune -l`, with kubectl's default kinds and with an allowlist) must
// print the same reports and leave the same objects.
//
// Run it with `go test ./test/parity/` (see docs/cluster.md).
package parity
