package visitors

import (
	"iter"

	"github.com/plyproject/ply/internal/probe"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/value"
)

// InTurn is the question Phase 2 asks where it cannot decide, from the patch's tree, what a repeat of a patch list's
// merge key (elements.Repeat) gives applied to the outcome of the items of its key before it (repeat.go lists those
// cases). The API server applies such an item in turn, as a patch of its own onto that outcome; a front-end does the
// same (pkg/patch: a collation of the item with Onto as live, walked) and records what it gave (Answers.Answer).
// Phase 2 itself never collates or calls a front-end: it reads the tree and the answers it is given. A walk asks in
// one of two ways: driven by the front-end (Answers.Pull), it stops at the question until the front-end has answered
// it, then goes on; else it ends with the question as its error, and the front-end, once it has answered, walks the
// tree again.
//
// Invariant: what the answer is depends on Onto, Patch, Type and Depth alone, which the question holds, so an answer
// recorded for one walk holds for every walk of any tree that asks the same question.
type InTurn struct {
	// Item is the node of the first item of the repeat's key in the patch's list (elements.Repeat.ID), whose path the
	// repeat shares: the question's path, and its error's.
	Item *elements.Node
	// Onto is the outcome of the items of its key before it (null: nothing, the item applied as the patch's root).
	Onto value.Value
	// Patch is the item as the patch holds it.
	Patch value.Value
	// Type is the item's type (nil: none).
	Type *openapi.Type
	// Depth is the item's nesting depth in the patch, from its root (elements.Repeat.Depth): the depth limit holds
	// there as for the whole patch.
	Depth int
}

// Error says which repeat the walk ended at and why: a front-end that walks without answering reports it as an error
// at that item.
func (q *InTurn) Error() string {
	return q.Item.Path().String() + ": the patch names this item's key again, and only applying it to its key's " +
		"outcome in turn decides it (visitors.InTurn: the front-end answers it)"
}

// Answers holds a front-end's answers to the InTurn questions of its walks, and counts the repeats a walk applies to
// an outcome for tests (internal/probe), reported once the walk ends (Walked): a walk ended by a question and walked
// again counts its repeats once, as a walk that asked none does.
type Answers struct {
	byPatch map[value.Value][]answer // by the question's Patch as one Value (the item at its place in the patch's tree):
	// its questions answered, compared whole (Identical)
	walk repeatCounts // the repeats the current walk applied to their key's outcome
	// yield, while Pull drives a walk, hands a question to the front-end and returns once it has been answered (false:
	// the walk is to end).
	yield func(*InTurn) bool
}

// answer is what applying one question's item to its outcome gave: a value or an error.
type answer struct {
	question InTurn
	out      value.Value
	err      error
}

// repeatCounts counts the repeats one walk applies to an outcome: decided from the patch's tree, or by an answer.
type repeatCounts struct{ decided, answered int }

// Answer records what applying q's item to q.Onto gave: out, or err (an error at the item's own root, its path
// relative to the item).
func (a *Answers) Answer(q *InTurn, out value.Value, err error) {
	if a.byPatch == nil {
		a.byPatch = map[value.Value][]answer{}
	}
	a.byPatch[q.Patch] = append(a.byPatch[q.Patch], answer{question: *q, out: out, err: err})
}

// Pull drives walk, a walk with a Walker made with a (strategy.Options.Answers), as a coroutine: next runs it up to
// its next question that a holds no answer to and returns that question (true), which the caller answers (Answer)
// before it calls next again, the walk going on from the question; once the walk has ended, next returns false (walk
// returns its own result to the caller, through its closure). stop ends a walk not run to its end: its question, left
// unanswered, ends it as its error. The repeats of an earlier walk not reported (Walked), one ended by a question,
// are dropped as the walk starts.
func (a *Answers) Pull(walk func()) (next func() (*InTurn, bool), stop func()) {
	return iter.Pull(func(yield func(*InTurn) bool) {
		a.walk, a.yield = repeatCounts{}, yield
		defer func() { a.yield = nil }()
		walk()
	})
}

// Walked reports the repeats of the walk that just ended, not with a question, to the test hooks (probe.Repeated),
// and zeroes the counts for the next walk.
func (a *Answers) Walked() {
	for range a.walk.decided {
		probe.Repeated(false)
	}
	for range a.walk.answered {
		probe.Repeated(true)
	}
	a.walk = repeatCounts{}
}

// ask returns the answer to q: one a holds, or, where Pull drives the walk, the one the front-end gives once the walk
// has handed it q; answered is false where there is none (a nil: none), the walk then to end with q.
func (a *Answers) ask(q *InTurn) (out value.Value, err error, answered bool) {
	if out, err, answered = a.find(q); answered || a == nil || a.yield == nil || !a.yield(q) {
		return out, err, answered
	}
	return a.find(q)
}

// find returns the answer to q, if a holds one (a nil: none).
func (a *Answers) find(q *InTurn) (value.Value, error, bool) {
	if a == nil {
		return value.Value{}, nil, false
	}
	for _, ans := range a.byPatch[q.Patch] {
		p := &ans.question
		if p.Type == q.Type && p.Depth == q.Depth && value.Identical(p.Onto, q.Onto) && value.Identical(p.Patch, q.Patch) {
			return ans.out, ans.err, true
		}
	}
	return value.Value{}, nil, false
}

// repeated counts one repeat the walk applied to its key's outcome, answered says by an answer (a nil: reported to
// the test hooks at once).
func (a *Answers) repeated(answered bool) {
	switch {
	case a == nil:
		probe.Repeated(answered)
	case answered:
		a.walk.answered++
	default:
		a.walk.decided++
	}
}
