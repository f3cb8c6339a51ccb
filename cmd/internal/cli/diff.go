package cli

import (
	"context"
	"errors"
	"flag"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"

	"github.com/plyproject/ply/pkg/cluster"
)

// Exit codes of diff, as kubectl diff's.
const (
	DiffNone    = 0 // no differences
	DiffChanges = 1 // differences found
	DiffError   = 2 // usage error, bad input, or an object could not be diffed
)

// diffFlags are the flags of diff.
type diffFlags struct {
	commonFlags
	changes bool
}

func newDiffFlagSet(f *diffFlags) *flag.FlagSet {
	fs := newFlagSet("diff")
	f.register(fs)
	fs.BoolVar(&f.changes, "changes", false, "before each diff, list the changed fields and what decided each (\"# path: op, reason\")")
	return fs
}

const diffUsageHead = ` -f FILE|DIR|- [-f ...] [-R] [-n NS] [flags]

Shows, as unified diffs of the live objects against the merged ones (YAML,
without managedFields), what apply would change; nothing is written.

Exit codes: 0 no differences, 1 differences, 2 error.

Flags:
`

// Diff runs the diff command; prog is how the user invokes the front end
// and args are the arguments after "diff". It returns DiffNone,
// DiffChanges or DiffError.
func Diff(prog string, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	var f diffFlags
	fs := newDiffFlagSet(&f)
	name := prog + " diff"
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			writeUsage(stdout, "Usage: "+name+diffUsageHead, fs)
			return DiffNone
		}
		usageError(stderr, name, err.Error())
		return DiffError
	}
	if fs.NArg() > 0 {
		usageError(stderr, name, "unexpected argument "+strconv.Quote(fs.Arg(0)))
		return DiffError
	}
	opts, err := f.options(fs)
	if err != nil {
		usageError(stderr, name, err.Error())
		return DiffError
	}
	opts.DryRun = cluster.DryRunClient
	objs, err := cluster.ReadObjects(f.files, f.recursive, stdin)
	if err != nil {
		inputErrors(stderr, err)
		return DiffError
	}
	c, err := newClient(opts)
	if err != nil {
		io.WriteString(stderr, "error: "+oneLine(err.Error())+"\n")
		return DiffError
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	res, err := c.Diff(ctx, objs)
	if err != nil {
		io.WriteString(stderr, "error: "+oneLine(err.Error())+"\n")
		return DiffError
	}
	return reportDiff(res, f.changes, stdout, stderr)
}

// reportDiff prints the diffs in input order and returns the exit code.
func reportDiff(res []cluster.DiffResult, changes bool, stdout, stderr io.Writer) int {
	code := DiffNone
	failed := false
	var sb, eb strings.Builder
	for _, d := range res {
		for _, w := range d.Warnings {
			eb.WriteString("Warning: " + d.Ref.String() + " (" + d.Object.Source + "): " + oneLine(w) + "\n")
		}
		if d.Err != nil {
			eb.WriteString("error: " + d.Ref.Quoted() + " (" + d.Object.Source + "): " + oneLine(d.Err.Error()) + "\n")
			failed = true
			continue
		}
		if !d.Changed() {
			continue
		}
		code = DiffChanges
		if changes {
			for _, fc := range d.Fields {
				sb.WriteString("# " + fc.Path + ": " + fc.Op.String() + ", " + fc.Reason + "\n")
			}
		}
		name := d.Ref.FileName()
		sb.WriteString("diff -u -N live/" + name + " merged/" + name + "\n")
		sb.WriteString(d.Unified)
	}
	io.WriteString(stdout, sb.String())
	io.WriteString(stderr, eb.String())
	if failed {
		return DiffError
	}
	return code
}
