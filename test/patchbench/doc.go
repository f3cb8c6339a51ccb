// Package patchbench benchmarks ply's strategic merge patches against
// k8s.io/apimachinery's strategicpatch on Deployments whose one container
// has N env entries, every one of them changed:
//
//	go test ./test/patchbench -run XXX -bench . -benchmem -benchtime 2s -count 5 | tee new.txt
//	benchstat new.txt
//	go run ./test/patchbench/cmd/patchtable -benchtime 2s -count 5
//
// BenchmarkPatchApply/items=N/impl=I applies the patch kubectl sends for
// that edit (every env value changed, with its $setElementOrder/env list)
// to the live object: ply with patch.Apply, strategicpatch with
// StrategicMergePatchUsingLookupPatchMeta. BenchmarkPatchCreate/items=N/
// impl=I creates that patch from the two configurations: ply with
// patchgen.TwoWay, strategicpatch with CreateTwoWayMergePatch. Both sides
// take JSON bytes and return JSON bytes, so parsing and encoding are
// measured symmetrically (ply: pkg/parse and value.JSON; strategicpatch:
// encoding/json inside it), and both read merge metadata from the same
// embedded Kubernetes v2 schema, loaded once up front. The package's
// Ginkgo suite checks that both implementations return the same object
// (and the same patch), so the numbers compare equal work; cmd/patchtable
// prints the ratio table docs/patches.md shows.
package patchbench
