package cli

import (
	"context"
	"errors"
	"io"
	"time"

	"github.com/plyproject/ply/cmd/internal/command"
	"github.com/plyproject/ply/pkg/cluster"
)

// stageWaiter makes apply --wait wait for each stage before the next
// (cluster.Options.StageDone), all stages and the final wait within one
// deadline, and remembers which objects were waited for so that the
// final wait waits only for the last stage and the pruned objects.
type stageWaiter struct {
	cl *cluster.Client
	// timeout bounds the waits together, from the start of the first.
	timeout  time.Duration
	deadline time.Time
	// flush prints the apply lines held back before a stage's wait.
	flush    func()
	newPrint func() *waitPrinter
	waited   map[int]bool
	code     int
}

func newStageWaiter(timeout time.Duration, flush func(), newPrint func() *waitPrinter) *stageWaiter {
	return &stageWaiter{timeout: timeout, flush: flush, newPrint: newPrint, waited: map[int]bool{}}
}

// remaining is the time left for the wait starting now: the whole
// timeout for the first, else what is left of it, never below a
// millisecond (cluster.WaitOptions reads 0 as its default).
func (w *stageWaiter) remaining() time.Duration {
	if w.deadline.IsZero() {
		w.deadline = time.Now().Add(w.timeout)
		return w.timeout
	}
	return max(time.Until(w.deadline), time.Millisecond)
}

// stageDone waits until the objects of s are Current; an object that is
// not (failed, timed out) stops the run: the stages left are not applied.
func (w *stageWaiter) stageDone(ctx context.Context, s cluster.Stage, outs []cluster.Outcome) error {
	var these []cluster.Outcome
	for _, i := range s.Indices {
		w.waited[i] = true
		these = append(these, outs[i])
	}
	w.flush()
	code := waitApplied(ctx, w.cl, these, cluster.WaitOptions{Timeout: w.remaining()}, w.newPrint())
	w.code = max(w.code, code)
	if code != command.ExitOK {
		return errors.New("not every object of the stage became Current (see the errors above)")
	}
	return nil
}

// stageWaiter returns apply's stageWaiter, hooked on opts with --wait:
// the wait's lines go to stdout, to stderr when -o prints objects (so
// that the output stays parseable).
func (f *applyFlags) stageWaiter(opts *cluster.Options, printer *applyPrinter, objects bool, stdout, stderr io.Writer) *stageWaiter {
	out := stdout
	if objects {
		out = stderr
	}
	w := newStageWaiter(f.timeout, printer.flush, func() *waitPrinter { return newWaitPrinter(out, stderr, stderr) })
	if f.wait {
		opts.StageDone = w.stageDone
	}
	return w
}

// finish waits for the objects of outs not waited for yet (the last
// stage's, those pruned) and returns the exit code of all the waits.
func (w *stageWaiter) finish(ctx context.Context, outs []cluster.Outcome) int {
	var rest []cluster.Outcome
	for i, o := range outs {
		if !w.waited[i] {
			rest = append(rest, o)
		}
	}
	code := waitApplied(ctx, w.cl, rest, cluster.WaitOptions{Timeout: w.remaining()}, w.newPrint())
	return max(code, w.code)
}
