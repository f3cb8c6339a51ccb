// Package clusterbench measures applying 1,000 objects (500 ConfigMaps and
// 500 Deployments) to a real kube-apiserver with ply, through the library
// (pkg/cluster's worker pool) and through the `ply apply` binary, each in
// the client-side lane and the server-side one (`--server-side
// --force-conflicts`, one PATCH per object), against
// the bare client-go GET+PUT loop (the ceiling of clients that read and
// write object by object, over JSON and over protobuf) and kubectl 1.32's
// `kubectl apply --server-side` and `kubectl apply -f DIR` on the same
// objects in the same run.
//
// Every measured apply writes every object: a namespace is first filled
// with version 1 of the set (not measured), then the applies alternate
// between versions 2 and 1, each of which changes every object (a
// ConfigMap value, a Deployment's image and env var). Each tool gets its
// own namespace; those of the server-side tools (ply's and kubectl's) are
// seeded server-side, so that no measured run is a hand-over from
// client-side apply.
//
//	go test ./test/clusterbench -run '^$' -bench Apply1000 -count 3 | tee bench.txt
//	go test ./test/clusterbench -run '^$' -bench GetPut -benchtime 3x -count 3
//	go run ./test/clusterbench/cmd/clusterbench -runs 5 -slow-runs 1
//	go test ./test/clusterbench -run '^$' -bench Patch -benchtime 5x -count 3
//	go run ./test/clusterbench/cmd/clusterbench -runs 3 -slow-runs 1 -tools ply,ply-ssa,kubectl-ssa
//
// Lane.Measure also returns the CPU time a run cost the tool, the API
// server and etcd (Sample; harness.Server.CPU), which the command prints
// per object beside objects/s.
//
// BenchmarkApply1000/tool=T reports objects/s for each Tool;
// BenchmarkGetPut interleaves ply and the two loops in each iteration and
// reports their objects/s, ply/getput and proto/json. BenchmarkPatch
// (PatchEnv, PatchSet) sends the same strategic merge patches (kubectl's
// two-way patches between two versions of a set) to the stock
// kube-apiserver and to the one built on ply (test/harness's
// PlyAPIServer), interleaved in each iteration, on the set above and on
// Deployments with 1,000 env entries whose values all change, checks every
// answer against the manifest, and reports both servers' objects/s and
// ply/stock. The servers (test/harness) start on the first benchmark that
// needs them and stop when the test binary ends; a missing prerequisite fails the benchmark
// with the harness's message. docs/benchmarks.md and docs/cluster.md hold
// measured figures.
package clusterbench
