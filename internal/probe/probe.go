// Package probe lets tests observe how often the engine does a piece of work, at no measurable cost otherwise: pkg/collate
// reports each collation (Collated), and a test counts them (OnCollation); pkg/visitors reports each repeat of a
// patch's merge key applied to an outcome, and whether the front-end applied it again (Repeated, OnRepeat), once per
// walk that ends without a question for the front-end (visitors.Answers.Walked); pkg/collate
// reports each collation of such a repeat's tree inside a collation (RepeatCollated, OnRepeatCollation). Invariant:
// production code never sets a hook, so Collated, Repeated and RepeatCollated are one atomic load that finds nil.
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
	return set(&collation, f)
}

var repeat atomic.Pointer[func(frontEnd bool)]

// Repeated reports one Repeat of a patch's list (elements.Repeat) applied to its member's outcome, not to nothing, to
// the hook, if a test set one: frontEnd says the front-end applied it again (visitors.InTurn answered: one collation
// more), else Phase 2 merged it from the patch's tree.
func Repeated(frontEnd bool) {
	if f := repeat.Load(); f != nil {
		(*f)(frontEnd)
	}
}

// OnRepeat makes f the hook Repeated calls, returning the function that restores the previous hook. f may run on any
// goroutine that applies a patch.
func OnRepeat(f func(frontEnd bool)) (restore func()) {
	return set(&repeat, f)
}

var repeatCollation atomic.Pointer[func()]

// RepeatCollated reports one collation of a Repeat's tree (elements.Repeat.Element), inside a collation, to the hook,
// if a test set one.
func RepeatCollated() {
	if f := repeatCollation.Load(); f != nil {
		(*f)()
	}
}

// OnRepeatCollation makes f the hook RepeatCollated calls, returning the function that restores the previous hook.
func OnRepeatCollation(f func()) (restore func()) {
	return set(&repeatCollation, f)
}

// set makes f the hook h holds, returning the function that restores the previous hook.
func set[F any](h *atomic.Pointer[F], f F) (restore func()) {
	prev := h.Swap(&f)
	return func() { h.Store(prev) }
}
