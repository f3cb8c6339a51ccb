package visitors

import (
	"github.com/plyproject/ply/internal/probe"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/value"
)

// InTurn is the error a walk ends with where Phase 2 cannot decide, from the patch's tree, what a repeat of a patch
// list's merge key (elements.Repeat) gives applied to the outcome of the items of its key before it (repeat.go lists
// those cases). The API server applies such an item in turn, as a patch of its own onto that outcome; a front-end
// does the same (pkg/patch: a collation of the item with Onto as live, walked), records what it gave in the Answers
// it walks with (Answers.Answer) and walks the tree again, which then takes that answer at the repeat. Phase 2 itself
// never collates or calls a front-end: it reads the tree and the answers it is given.
//
// Invariant: what the answer is depends on Onto, Patch, Type and Depth alone, which the question holds, so an answer
// recorded for one walk holds for every walk of any tree that asks the same question.
type InTurn struct {
	// Item is the repeat's node, the item's path its error's.
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

// Error says which repeat the walk stopped at and why: a front-end that walks without answering (Answers nil, or
// a walk of its own) reports it as an error at that item.
func (q *InTurn) Error() string {
	return q.Item.Path().String() + ": the patch names this item's key again, and only applying it to its key's " +
		"outcome in turn decides it (visitors.InTurn: the front-end answers it)"
}

// Answers holds a front-end's answers to the InTurn questions of its walks, and counts the repeats of a walk for
// tests (internal/probe) once that walk ends otherwise than with a question: a walk the front-end repeats after an
// answer counts its repeats once, as a walk that needed none does.
type Answers struct {
	byItem map[int32][]answer // by the repeat node's ID: its questions answered, compared whole (Identical)
	walk   repeatCounts       // the repeats the current walk applied to their key's outcome
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
// relative to the item). The repeats the walk that asked counted are dropped: that walk is to be repeated.
func (a *Answers) Answer(q *InTurn, out value.Value, err error) {
	if a.byItem == nil {
		a.byItem = map[int32][]answer{}
	}
	a.byItem[q.Item.ID] = append(a.byItem[q.Item.ID], answer{question: *q, out: out, err: err})
	a.walk = repeatCounts{}
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

// find returns the answer to q, if a holds one (a nil: none).
func (a *Answers) find(q *InTurn) (value.Value, error, bool) {
	if a == nil {
		return value.Value{}, nil, false
	}
	for _, ans := range a.byItem[q.Item.ID] {
		p := &ans.question
		if p.Type == q.Type && p.Depth == q.Depth && value.Identical(p.Onto, q.Onto) && value.Identical(p.Patch, q.Patch) {
			return ans.out, ans.err, true
		}
	}
	return value.Value{}, nil, false
}

// repeated counts one repeat the walk applied to its key's outcome, answered says by an answer (a nil: reported to
// the test hooks at once, there being no walk to repeat).
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
