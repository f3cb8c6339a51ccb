// Package load applies changing manifests with ply while eight client-go
// writers modify the same Deployments, against a real kube-apiserver, and
// checks that no write is lost.
//
// The suite starts its own kube-apiserver and etcd through test/harness in
// BeforeSuite (a missing prerequisite fails the suite with the harness's
// message) and stops them in AfterSuite. Its one spec runs for
// $PLY_LOAD_DURATION (default 30s): ply, through the library
// (pkg/cluster) and every fourth round through the `ply apply` binary,
// applies a new version of three Deployments each round, while eight
// writers loop over the same Deployments with their own
// get-modify-update/retry-on-conflict loops: replicas, a label, an
// annotation, a pod-template annotation, an injected sidecar's image, an
// env var injected into ply's own container, minReadySeconds and
// revisionHistoryLimit.
//
// The writers and ply own disjoint fields, so nothing may be overwritten:
// at the end every writer's last successful value and every field of ply's
// last manifest must be in each live object, and the last-applied
// annotation must be that manifest. Every ply apply must succeed; the spec
// reports the number of applies, the write conflicts ply retried and the
// most attempts one apply needed (AddReportEntry and GinkgoWriter).
package load
