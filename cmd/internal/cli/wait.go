package cli

import (
	"context"
	"errors"
	"io"
	"os"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/plyproject/ply/cmd/internal/command"
	"github.com/plyproject/ply/pkg/cluster"
)

// waitApplied waits, after an apply, until every object applied (any
// outcome but Failed, Ignored and Pruned) is Current and every object pruned is
// gone, within opts.Timeout, printing through p; it returns command.ExitFailed
// when an object failed, timed out or could not be watched, else command.ExitOK.
func waitApplied(ctx context.Context, cl *cluster.Client, outs []cluster.Outcome, opts cluster.WaitOptions, p *waitPrinter) int {
	var current, gone []cluster.WaitItem
	for _, o := range outs {
		switch o.Action {
		case cluster.Failed, cluster.Ignored:
			// Reported by the apply, or left as it is: nothing to wait for.
		case cluster.Pruned:
			gone = append(gone, cluster.WaitItemOf(o))
		default:
			current = append(current, cluster.WaitItemOf(o))
		}
	}
	if len(current)+len(gone) == 0 {
		return command.ExitOK
	}
	p.start(append(append([]cluster.WaitItem(nil), current...), gone...))
	opts.Report = p.report
	rs := cl.Wait(ctx, current, gone, opts)
	return p.finish(rs)
}

// maxLiveLines is the number of objects the live block shows on a
// terminal; the others are counted on one more line.
const maxLiveLines = 20

// waitPrinter prints the states of a wait: a final line per object that
// was not in its state when first read (cluster.WaitLine) on out, in input
// order as the objects finish, and one summary line for those that were
// ("4 objects Current when first read (configmaps: 3, services: 1)"); with
// live (a terminal), besides, a block of one line per object still waited
// for, redrawn in place below the final lines as states change, each line
// cut to the terminal's width in its message, so that the names stay.
// Errors (the objects that failed, timed out or could not be watched) go
// to errw at the end, once each, without a final line of their own. Its
// methods run on the goroutine of cluster.Client.Wait.
type waitPrinter struct {
	out, errw io.Writer
	live      io.Writer
	width     int

	states  []cluster.WaitResult
	seen    []bool
	printed []bool
	// atOnce marks the objects whose first state read was their end,
	// without an error: summarised, not printed one by one.
	atOnce []bool
	next   int
	drawn  int
}

// newWaitPrinter returns a printer of final lines to out and errors to
// errw; when stderr is a terminal, the live block is drawn on it.
func newWaitPrinter(out, errw, stderr io.Writer) *waitPrinter {
	p := &waitPrinter{out: out, errw: errw}
	if isTerminal(stderr) {
		p.live = stderr
		p.width = 120
		if f, ok := stderr.(*os.File); ok {
			if w, _, err := term.GetSize(int(f.Fd())); err == nil && w > 0 {
				p.width = w
			}
		}
	}
	return p
}

// start readies the printer for the objects of items (those waited for
// Current, then those waited for deletion, as cluster.Client.Wait orders
// its results).
func (p *waitPrinter) start(items []cluster.WaitItem) {
	n := len(items)
	p.states = make([]cluster.WaitResult, n)
	for i, it := range items {
		p.states[i] = cluster.WaitResult{Item: it, Status: "Unknown", Message: "not read yet"}
	}
	p.seen = make([]bool, n)
	p.printed = make([]bool, n)
	p.atOnce = make([]bool, n)
	p.next = 0
}

// report takes a new state of the object at index i.
func (p *waitPrinter) report(i int, r cluster.WaitResult) {
	if r.Done && r.Err == nil && !p.seen[i] {
		p.atOnce[i] = true
	}
	p.states[i], p.seen[i] = r, true
	p.clear()
	if r.Done {
		if p.live != nil {
			// On a terminal, an object's final line comes as it finishes.
			p.printed[i] = true
			if p.ownLine(r, i) {
				io.WriteString(p.out, cluster.WaitLine(r)+"\n")
			}
		} else {
			p.flushOrdered()
		}
	}
	p.draw()
}

// ownLine reports whether the object at i, finished in r, gets a final
// line: not when its error says it all, nor when it was done when first
// read (the summary counts it).
func (p *waitPrinter) ownLine(r cluster.WaitResult, i int) bool {
	return r.Err == nil && !p.atOnce[i]
}

// flushOrdered prints the final lines of the finished objects that no
// unfinished object precedes.
func (p *waitPrinter) flushOrdered() {
	for p.next < len(p.states) && p.seen[p.next] && p.states[p.next].Done {
		if !p.printed[p.next] {
			p.printed[p.next] = true
			if p.ownLine(p.states[p.next], p.next) {
				io.WriteString(p.out, cluster.WaitLine(p.states[p.next])+"\n")
			}
		}
		p.next++
	}
}

// clear erases the live block.
func (p *waitPrinter) clear() {
	if p.live == nil || p.drawn == 0 {
		return
	}
	io.WriteString(p.live, "\x1b["+strconv.Itoa(p.drawn)+"A\x1b[J")
	p.drawn = 0
}

// draw writes the live block: a line per object still waited for, each
// cut to the terminal's width so that the block's height is its number of
// lines.
func (p *waitPrinter) draw() {
	if p.live == nil {
		return
	}
	var sb strings.Builder
	shown, more := 0, 0
	for i, r := range p.states {
		if p.printed[i] || (p.seen[i] && r.Done) {
			continue
		}
		if shown == maxLiveLines {
			more++
			continue
		}
		sb.WriteString(liveLine(r, p.width-1) + "\n")
		shown++
	}
	if more > 0 {
		sb.WriteString("waiting: " + strconv.Itoa(more) + " more objects\n")
		shown++
	}
	io.WriteString(p.live, sb.String())
	p.drawn = shown
}

// finish prints what is left in input order (the final lines not yet
// printed, then the errors) and returns the exit code.
func (p *waitPrinter) finish(rs []cluster.WaitResult) int {
	p.clear()
	code := command.ExitOK
	var sb, eb strings.Builder
	stopped := 0
	for i, r := range rs {
		if !p.printed[i] {
			p.printed[i] = true
			if p.ownLine(r, i) {
				sb.WriteString(cluster.WaitLine(r) + "\n")
			}
		}
		var we *cluster.WaitError
		switch {
		case r.Err == nil:
		case errors.As(r.Err, &we) && we.Failure == cluster.WaitCanceled:
			stopped++
		default:
			eb.WriteString("error: " + oneLine(r.Err.Error()) + "\n")
			code = command.ExitFailed
		}
	}
	sb.WriteString(atOnceSummary(rs, p.atOnce))
	if stopped > 0 {
		// Interrupted: one line for all, and the status of a process
		// that SIGINT ends, as kubectl's.
		eb.WriteString("error: interrupted, " + strconv.Itoa(stopped) + " " + plural(stopped, "object") + " not waited for to the end\n")
		code = ExitInterrupted
	}
	io.WriteString(p.out, sb.String())
	io.WriteString(p.errw, eb.String())
	return code
}

// ExitInterrupted is the exit code after Ctrl-C (SIGINT): 128+2, what the
// shell reports for kubectl, which the signal ends.
const ExitInterrupted = 130

// atOnceSummary is the line that counts the objects done when first read,
// by state and resource: "3 objects Current when first read (configmaps:
// 2, services: 1)"; "" when there are none.
func atOnceSummary(rs []cluster.WaitResult, atOnce []bool) string {
	type key struct{ status, resource string }
	counts := map[key]int{}
	var order []key
	for i, r := range rs {
		if i >= len(atOnce) || !atOnce[i] {
			continue
		}
		res := r.Item.Ref.Resource
		if res == "" {
			res = strings.ToLower(r.Item.Ref.Kind)
		}
		if g := r.Item.Ref.Group; g != "" {
			res += "." + g
		}
		k := key{string(r.Status), res}
		if counts[k] == 0 {
			order = append(order, k)
		}
		counts[k]++
	}
	var sb strings.Builder
	for len(order) > 0 {
		st := order[0].status
		n, parts, rest := 0, []string(nil), order[:0:0]
		for _, k := range order {
			if k.status != st {
				rest = append(rest, k)
				continue
			}
			n += counts[k]
			parts = append(parts, k.resource+": "+strconv.Itoa(counts[k]))
		}
		sb.WriteString(strconv.Itoa(n) + " " + plural(n, "object") + " " + st + " when first read (" + strings.Join(parts, ", ") + ")\n")
		order = rest
	}
	return sb.String()
}

// plural is word, with an s unless n is 1.
func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// liveLine is the live line of r in at most width runes: the object's name
// and status whole where they fit, the message cut, so that lines of
// objects whose names share a long prefix still differ.
func liveLine(r cluster.WaitResult, width int) string {
	head := r.Item.Ref.String() + " " + string(r.Status)
	if r.Message == "" || utf8.RuneCountInString(head) >= width-4 {
		return cutFront(head, width)
	}
	return head + cut(": "+oneLine(r.Message), width-utf8.RuneCountInString(head))
}

// cutFront shortens s to at most n runes, keeping its end and marking the
// cut with a leading "…".
func cutFront(s string, n int) string {
	if n < 2 || utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return "…" + string(r[len(r)-n+1:])
}

// cut shortens s to at most n runes, marking the cut with "…".
func cut(s string, n int) string {
	if n < 2 || utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// DefaultWaitTimeout is the default of apply's --timeout.
const DefaultWaitTimeout = 5 * time.Minute

// checkWait checks the flags of --wait: --timeout is not negative (and
// positive with --wait; without, it bounds the deletes of re-creations, as
// kubectl apply's does); a dry run has nothing to wait for.
func (f *applyFlags) checkWait(c *cobra.Command, dry cluster.DryRun) error {
	if f.timeout < 0 || (f.wait && f.timeout == 0) {
		return errors.New("--timeout must be positive, not " + f.timeout.String())
	}
	if !f.wait {
		return nil
	}
	if dry != cluster.DryRunNone {
		return errors.New("--wait cannot be used with --dry-run=" + dry.String() + ": nothing is written to wait for")
	}
	return nil
}
