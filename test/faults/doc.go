// Package faults is ply's fault suite: `ply apply` (with and without
// --prune --applyset) runs of hundreds of ConfigMaps against a real
// kube-apiserver and etcd (package test/harness) through the harness's
// fault-injecting proxy, which resets connections, stalls requests,
// answers 429 and 503 before forwarding, and after forwarding drops the
// server's answer (a 503, a reset, a body cut in half), while a concurrent
// writer labels the same objects directly on the server; and runs during
// which etcd or the API server is restarted.
//
// Every run is checked against the proxy's record of what the server
// stored (harness.Exchange.Stored): an object reported created or
// configured was written by the run, one reported unchanged was not, one
// reported pruned was deleted; after the run every object of the manifest
// holds its data, every pruned one is gone, and every label the concurrent
// writer set is still there. The specs print their figures (runs, faults
// injected, objects reported and mismatches, objects lost, the concurrent
// writer's writes lost, objects failed); docs/cluster.md ("Faults") quotes
// them.
//
// The random faults are drawn from a seeded source (seed below, rate 25 %),
// so the share of each fault is stable from run to run; which request gets
// which fault depends on the order requests arrive in.
//
//	go test ./test/faults/ -ginkgo.v
package faults
