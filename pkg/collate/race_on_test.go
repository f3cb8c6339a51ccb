//go:build race

package collate_test

// raceDetector reports whether the tests run under the race detector, whose sync.Pool drops pooled values at random,
// so that counts of allocations after a pool's warm-up do not hold.
const raceDetector = true
