// Package bench benchmarks ply's three-way apply against kubectl's
// strategic merge patch on Deployments with many env entries:
//
//	go test ./test/bench -run XXX -bench . -benchmem -count 6 | tee new.txt
//	benchstat new.txt
//
// Sub-benchmarks are named BenchmarkThreeWay/env=N/change=C/impl=I with N
// the number of env entries, C "one" (image changed) or "all" (every env
// value changed) and I "ply" or "strategicpatch"; both implementations take
// the same JSON bytes and return JSON bytes (see package benchcase). The
// package's Ginkgo suite checks that they return the same object, so the
// numbers compare equal work. cmd/benchtable prints the comparison as a
// markdown table; docs/benchmarks.md holds the measured one.
package bench
