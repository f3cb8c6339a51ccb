package cluster

import (
	"math"
	"time"
)

// DefaultMaxAttempts is the number of attempts Apply makes for one object
// when Options.MaxAttempts is zero: the first write plus nine retries after
// conflicts with concurrent writers.
const DefaultMaxAttempts = 10

// Backoff is the retry policy after a write conflict (HTTP 409): the wait
// before retry n (n >= 1) is Initial * Factor^(n-1), capped at Max, of
// which the fraction Jitter is randomized so that writers that collided do
// not retry in lock step.
type Backoff struct {
	// Initial is the wait before the first retry, before jitter.
	Initial time.Duration
	// Max caps the wait, before jitter.
	Max time.Duration
	// Factor multiplies the wait after each retry; values below 1 count
	// as 1.
	Factor float64
	// Jitter, in [0, 1], is the randomized fraction of each wait: the
	// wait is in [d*(1-Jitter), d] for the capped delay d.
	Jitter float64
}

// DefaultBackoff is the policy Apply uses: 25ms doubling up to 2s, half of
// it randomized. Ten attempts wait at most 7.175s in total.
func DefaultBackoff() Backoff {
	return Backoff{Initial: 25 * time.Millisecond, Max: 2 * time.Second, Factor: 2, Jitter: 0.5}
}

// Delay returns the wait before retry number retry (1 is the retry after
// the first failed attempt) for the random draw r in [0, 1) (values out of
// range are clamped). It is a pure function: the same arguments give the
// same wait, never negative and never above Max (nor above Initial when Max
// is smaller).
func (b Backoff) Delay(retry int, r float64) time.Duration {
	if retry < 1 || b.Initial <= 0 {
		return 0
	}
	f := b.Factor
	if f < 1 || math.IsNaN(f) {
		f = 1
	}
	limit := float64(b.Max)
	if limit < float64(b.Initial) {
		limit = float64(b.Initial)
	}
	d := float64(b.Initial) * math.Pow(f, float64(retry-1))
	if d > limit || math.IsInf(d, 0) || math.IsNaN(d) {
		d = limit
	}
	j := b.Jitter
	switch {
	case j < 0 || math.IsNaN(j):
		j = 0
	case j > 1:
		j = 1
	}
	switch {
	case r < 0 || math.IsNaN(r):
		r = 0
	case r > 1:
		r = 1
	}
	return time.Duration(d*(1-j) + d*j*r)
}
