package cli

import (
	"bufio"
	"context"
	"errors"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"golang.org/x/term"

	"github.com/plyproject/ply/cmd/internal/command"
	"github.com/plyproject/ply/pkg/cluster"
)

// confirmFlags are apply's approval flags.
type confirmFlags struct {
	confirm bool
	yes     bool
}

func (f *confirmFlags) register(fs *pflag.FlagSet) {
	fs.BoolVar(&f.confirm, "confirm", false, "before writing, show the diff and the plan's summary and ask (y/N) on the terminal;\n"+
		"without a terminal on standard input, refuse unless --yes")
	fs.BoolVar(&f.yes, "yes", false, "with --confirm: approve without asking (the diff and summary are still shown)")
}

// errNotConfirmed is apply's error when the user did not approve.
var errNotConfirmed = errors.New("not applied: the changes were not approved")

// approve shows what applying objs (and pruning, with prune) would
// change, through a server dry run made with diffClient, on stdout (the
// diffs) and stderr (the summary), and asks on stderr for approval read
// from stdin when it is a terminal. Without a terminal it refuses unless
// yes. It returns nil when the run may write; a plan without changes
// needs no approval.
func (f *confirmFlags) approve(ctx context.Context, diffClient *cluster.Client, objs []cluster.Object, prune *cluster.Prune,
	stdin io.Reader, stdout, stderr io.Writer, showSecrets bool) error {
	if !f.yes && !isTerminalInput(stdin) {
		return errors.New("--confirm: standard input is not a terminal to ask on; pass --yes to approve without asking")
	}
	diffed := objs
	if prune != nil {
		var err error
		if diffed, err = diffClient.PruneObjects(ctx, objs, *prune); err != nil {
			return err
		}
	}
	res, err := diffClient.Diff(ctx, diffed)
	if err != nil {
		return err
	}
	pruned, err := prunePlan(ctx, diffClient, res, prune)
	if err != nil {
		return err
	}
	reportDiff(res, false, stdout, stderr)
	stages, _ := cluster.Stages(objs)
	io.WriteString(stdout, prunedLines(pruned, len(stages)))
	plan := cluster.NewPlan(objs, res, pruned, showSecrets)
	io.WriteString(stderr, plan.Summary.String()+"\n")
	switch {
	case plan.Summary.Failed > 0:
		return errors.New("--confirm: not applied: objects would fail (see above)")
	case !plan.Summary.Changes(), f.yes:
		return nil
	}
	if !ask(stdin, stderr, "Apply these changes? [y/N]: ") {
		return errNotConfirmed
	}
	return nil
}

// isTerminalInput reports whether r is a terminal (not merely a
// character device such as /dev/null).
func isTerminalInput(r io.Reader) bool {
	f, ok := r.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// ask writes question to w and reads one line of in: true for "y" or
// "yes" (any case, surrounding blanks ignored), false for anything else,
// an empty line and the end of input included.
func ask(in io.Reader, w io.Writer, question string) bool {
	io.WriteString(w, question)
	line, err := bufio.NewReader(in).ReadString('\n')
	if err != nil && line == "" {
		io.WriteString(w, "\n")
		return false
	}
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "y", "yes":
		return true
	}
	return false
}

// confirmRun asks for approval of the apply (see approve), with a client
// that sends the writes as server dry runs, and returns command.ExitOK
// when the run may write, else the exit code after printing why.
func (f *applyFlags) confirmRun(ctx context.Context, c *cobra.Command, opts cluster.Options, objs []cluster.Object, prune *cluster.Prune) int {
	stderr := c.ErrOrStderr()
	if opts.DryRun != cluster.DryRunNone {
		return command.UsageError(c, "--confirm asks before writing: it cannot be used with --dry-run")
	}
	opts.DryRun, opts.Report, opts.StageDone, opts.Progress = cluster.DryRunServer, nil, nil, nil
	dc, err := f.client(opts)
	if err == nil {
		err = f.approval.approve(ctx, dc, objs, prune, c.InOrStdin(), c.OutOrStdout(), stderr, f.showSecrets)
	}
	if err != nil {
		io.WriteString(stderr, "error: "+oneLine(err.Error())+"\n")
		return command.ExitFailed
	}
	return command.ExitOK
}
