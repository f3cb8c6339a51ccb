package cluster

import (
	"context"
	"errors"
	"io"
	"math"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	utilnet "k8s.io/apimachinery/pkg/util/net"
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

// DefaultRequestTimeout bounds each request Apply, Diff and ApplyPrune
// send when the rest.Config sets no Timeout (kubectl's --request-timeout
// unset or 0): a request the server has not answered by then counts as a
// transient failure and is retried like one. The API server itself gives
// up on a request after 60s by default (its --request-timeout); 30s leaves
// room for one retry within a minute and is longer than any admission
// webhook may take (30s at most each).
const DefaultRequestTimeout = 30 * time.Second

// DefaultRetryTimeout is how long a request that fails transiently is
// retried when Options.RetryTimeout is zero: long enough for an API server
// or etcd restart (a few seconds), short enough that a server that stays
// down fails the run within a minute.
const DefaultRetryTimeout = 30 * time.Second

// transient reports whether err is a failure that repeating the request
// may cure: the server's 429 and 5xx answers (overload, etcd unavailable,
// a timeout, a proxy or load balancer in front of a restarting server),
// connections refused, reset or lost, an answer cut short or unreadable,
// and a request that did not finish within its own timeout (but not one
// whose caller's context ended). Every other error — a refusal (4xx), a
// TLS or configuration error, a *GaveUpError — is final.
func transient(err error) bool {
	var gaveUp *GaveUpError
	if err == nil || errors.As(err, &gaveUp) {
		return false
	}
	var status apierrors.APIStatus
	if errors.As(err, &status) {
		code := status.Status().Code
		return code == http.StatusTooManyRequests || (code >= 500 && !typedPatchRefusal(status.Status().Message))
	}
	var te *attemptTimeoutError
	var be *badAnswerError
	switch {
	case errors.As(err, &te), errors.As(err, &be):
		return true
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return false
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return true
	}
	return utilnet.IsConnectionReset(err) || utilnet.IsConnectionRefused(err) || utilnet.IsProbableEOF(err) ||
		utilnet.IsHTTP2ConnectionLost(err) || utilnet.IsTimeout(err) || isStreamError(err)
}

// isStreamError reports whether err is an HTTP/2 stream reset (a
// connection's stream cut while the answer was being read), which client-go
// wraps without a type of its own.
func isStreamError(err error) bool {
	msg := err.Error()
	return strings.Contains(msg, "stream error") || strings.Contains(msg, "INTERNAL_ERROR") ||
		strings.Contains(msg, "http2: response body closed")
}

// attemptTimeoutError is one attempt of a request that did not finish
// within the request timeout.
type attemptTimeoutError struct {
	after time.Duration
	err   error
}

func (e *attemptTimeoutError) Error() string {
	return "no answer within the request timeout (" + e.after.String() + "): " + e.err.Error()
}

func (e *attemptTimeoutError) Unwrap() error { return e.err }

// badAnswerError is an answer of the server that cannot be read (cut
// short): the request may have been carried out.
type badAnswerError struct{ msg string }

func (e *badAnswerError) Error() string { return e.msg }

// GaveUpError is the failure of a request that failed transiently until
// the retry time (Options.RetryTimeout) ran out, or that was not sent
// because every request to the server had failed for that long.
type GaveUpError struct {
	// Failures is the number of transient failures of the operation (0
	// when nothing was sent).
	Failures int
	// After is the time since the first failure (of the operation, or of
	// every request to the server when nothing was sent).
	After time.Duration
	// Err is the last failure.
	Err error
}

func (e *GaveUpError) Error() string {
	if e.Failures == 0 {
		return "not sent: every request to the server has failed for " + e.After.Round(time.Second).String() + ", the last with: " + e.Err.Error()
	}
	n := strconv.Itoa(e.Failures) + " transient failures"
	if e.Failures == 1 {
		n = "1 transient failure"
	}
	return "gave up after " + n + " in " + e.After.Round(100*time.Millisecond).String() + ": " + e.Err.Error()
}

func (e *GaveUpError) Unwrap() error { return e.Err }

// retries tracks the transient failures of one operation: a read, or the
// reads and writes of one object. The retry time runs from the first
// failure; the backoff grows with each failure.
type retries struct {
	c        *Client
	failures int
	first    time.Time
}

// retrier returns a fresh retries for one operation.
func (c *Client) retrier() *retries { return &retries{c: c} }

// attempt runs op once, within the request timeout, after checking that
// the server is worth a request (see Client.unreachable), and records its
// outcome in the Client's health.
func (r *retries) attempt(ctx context.Context, op func(context.Context) error) error {
	if err := r.c.unreachable(); err != nil {
		err.Failures = r.failures
		return err
	}
	actx, cancel := context.WithTimeout(ctx, r.c.requestTimeout)
	err := op(actx)
	cancel()
	// A deadline the caller's context did not set is the request
	// timeout's (this one, client-go's or the http.Client's, which
	// --request-timeout also sets).
	if ctx.Err() != nil {
		return err // the caller gave up: nothing learnt of the server
	}
	if err != nil && (errors.Is(err, context.DeadlineExceeded) || utilnet.IsTimeout(err)) {
		err = &attemptTimeoutError{after: r.c.requestTimeout, err: err}
	}
	r.c.observe(err)
	return err
}

// wait decides what follows the transient failure err: nil after waiting
// the backoff (or the server's Retry-After, when longer) when the retry
// time has not run out, else the *GaveUpError to return (or ctx's error).
func (r *retries) wait(ctx context.Context, err error) error {
	now := r.c.now()
	if r.first.IsZero() {
		r.first = now
	}
	r.failures++
	elapsed := now.Sub(r.first)
	if r.c.retryTimeout <= 0 || elapsed >= r.c.retryTimeout {
		return &GaveUpError{Failures: r.failures, After: elapsed, Err: err}
	}
	d := r.c.backoff.Delay(r.failures, r.c.random())
	if s, ok := apierrors.SuggestsClientDelay(err); ok && time.Duration(s)*time.Second > d {
		d = time.Duration(s) * time.Second
	}
	d = min(d, r.c.retryTimeout-elapsed)
	if err := r.c.sleep(ctx, d); err != nil {
		return err
	}
	return nil
}

// do runs op, a request that is safe to repeat (a read, a delete with a
// UID precondition), until it succeeds, fails for good or the retry time
// runs out.
func (r *retries) do(ctx context.Context, op func(context.Context) error) error {
	for {
		err := r.attempt(ctx, op)
		if !transient(err) {
			return err
		}
		if err := r.wait(ctx, err); err != nil {
			return err
		}
	}
}

// health is what a Client knows of the server's availability: since when
// every request has failed transiently (0 when the last one was answered),
// and the last such failure.
type health struct {
	failingSince atomic.Int64 // UnixNano
	mu           sync.Mutex
	last         error
}

// observe records the outcome of one request.
func (c *Client) observe(err error) {
	if !transient(err) {
		c.health.failingSince.Store(0)
		return
	}
	c.health.failingSince.CompareAndSwap(0, c.now().UnixNano())
	c.health.mu.Lock()
	c.health.last = err
	c.health.mu.Unlock()
}

// unreachable returns a *GaveUpError when every request to the server has
// failed transiently for the retry time: the operations of the run that
// come after then fail at once instead of waiting the retry time each.
func (c *Client) unreachable() *GaveUpError {
	since := c.health.failingSince.Load()
	if since == 0 || c.retryTimeout <= 0 {
		return nil
	}
	down := c.now().Sub(time.Unix(0, since))
	if down < c.retryTimeout {
		return nil
	}
	c.health.mu.Lock()
	defer c.health.mu.Unlock()
	return &GaveUpError{After: down, Err: c.health.last}
}
