// Package bench benchmarks ply's three-way apply against kubectl's
// strategic merge patch and server-side apply's engine on Deployments with
// many env entries:
//
//	go test ./test/bench -run XXX -bench . -benchmem -count 6 | tee new.txt
//	benchstat new.txt
//
// Sub-benchmarks are named BenchmarkThreeWay/env=N/change=C/impl=I with N
// the number of env entries, C "one" (image changed) or "all" (every env
// value changed) and I an implementation of package benchcase (Impls: ply
// and its variants, strategicpatch, smd, fieldmanager); each takes the same
// JSON bytes and returns JSON bytes. The package's Ginkgo suite checks that
// they return the same object, so the
// numbers compare equal work. cmd/benchtable prints the comparison as a
// markdown table; docs/benchmarks.md holds the measured one.
package bench
