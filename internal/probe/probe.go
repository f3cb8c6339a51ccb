// Package probe lets tests observe how often the engine does a piece of work, at no measurable cost otherwise: pkg/collate
// reports each collation (Collated), and a test counts them (OnCollation). Invariant: production code never sets a
// hook, so Collated is one atomic load that finds nil.
package probe

import "sync/atomic"

var collation atomic.Pointer[func()]

// Collated reports one collation (one collate.Collate or collate.CountIn call) to the hook, if a test set one.
func Collated() {
	if f := collation.Load(); f != nil {
		(*f)()
	}
}

// OnCollation makes f the hook Collated calls, returning the function that restores the previous hook. f may run on
// any goroutine that collates.
func OnCollation(f func()) (restore func()) {
	prev := collation.Swap(&f)
	return func() { collation.Store(prev) }
}
