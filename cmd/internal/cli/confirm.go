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

// runPlan is what a server dry run of an apply says it would do.
type runPlan struct {
	res    []cluster.DiffResult
	pruned []cluster.PlannedPrune
	plan   cluster.Plan
}

// planRun diffs objs with diffClient (a dry-run client), as apply (with
// prune, when not nil) would write them, and lists what prune would
// delete: nothing when an object would fail (the plan then holds that
// failure).
func planRun(ctx context.Context, diffClient *cluster.Client, objs []cluster.Object, prune *cluster.Prune, showSecrets bool) (runPlan, error) {
	diffed := objs
	if prune != nil {
		var err error
		if diffed, err = diffClient.PruneObjects(ctx, objs, *prune); err != nil {
			return runPlan{}, err
		}
	}
	res, err := diffClient.Diff(ctx, diffed)
	if err != nil {
		return runPlan{}, err
	}
	pruned, err := prunePlan(ctx, diffClient, res, prune)
	var skipped *cluster.PruneSkippedError
	if err != nil && !errors.As(err, &skipped) {
		return runPlan{}, err
	}
	// With an object that would fail, prune would delete nothing: the
	// plan holds the failures, which refuse it.
	return runPlan{res: res, pruned: pruned, plan: cluster.NewPlan(objs, res, pruned, showSecrets)}, nil
}

// approve shows what the run rp would change on stdout (the diffs) and
// stderr (the summary), and asks on stderr for approval read from stdin
// when it is a terminal; without a terminal it refuses unless yes. It
// returns nil when the run may write; a plan without changes needs no
// approval.
func (f *confirmFlags) approve(rp runPlan, objs []cluster.Object, stdin io.Reader, stdout, stderr io.Writer) error {
	reportDiff(rp.res, false, stdout, stderr)
	stages, _ := cluster.Stages(objs)
	io.WriteString(stdout, prunedLines(rp.pruned, len(stages)))
	io.WriteString(stderr, rp.plan.Summary.String()+"\n")
	switch {
	case rp.plan.Summary.Failed > 0:
		return errors.New("--confirm: not applied: objects would fail (see above)")
	case !rp.plan.Summary.Changes(), f.yes:
		return nil
	}
	if !ask(stdin, stderr, "Apply these changes? [y/N]: ") {
		return errNotConfirmed
	}
	return nil
}

// checkAsker refuses --confirm without a terminal on stdin, unless --yes.
func (f *confirmFlags) checkAsker(stdin io.Reader) error {
	if !f.yes && !isTerminalInput(stdin) {
		return errors.New("--confirm: standard input is not a terminal to ask on; pass --yes to approve without asking")
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

// confirmRun checks, before apply writes, what --confirm and --plan ask:
// the approval of the run's diff, and that the run does what the saved
// plan says. It plans the run with a client that sends the writes as
// server dry runs, and returns command.ExitOK when the run may write,
// else the exit code after printing why.
func (f *applyFlags) confirmRun(ctx context.Context, c *cobra.Command, opts cluster.Options, objs []cluster.Object, prune *cluster.Prune) int {
	stdin, stdout, stderr := c.InOrStdin(), c.OutOrStdout(), c.ErrOrStderr()
	fail := func(err error) int {
		io.WriteString(stderr, "error: "+oneLine(err.Error())+"\n")
		return command.ExitFailed
	}
	var saved cluster.Plan
	if f.planFile != "" {
		var err error
		if saved, err = readPlanFile(f.planFile); err != nil {
			return fail(err)
		}
	}
	if f.approval.confirm {
		if err := f.approval.checkAsker(stdin); err != nil {
			return fail(err)
		}
	}
	opts.DryRun, opts.Report, opts.StageDone, opts.Progress, opts.Expect, opts.ExpectPrune = cluster.DryRunServer, nil, nil, nil, nil, nil
	dc, err := f.client(opts)
	if err != nil {
		return fail(err)
	}
	rp, err := planRun(ctx, dc, objs, prune, f.showSecrets)
	if err != nil {
		return fail(err)
	}
	if f.planFile != "" {
		if moved := saved.Moved(rp.plan); len(moved) > 0 {
			var sb strings.Builder
			for _, m := range moved {
				sb.WriteString("error: " + f.planFile + ": " + m + "\n")
			}
			sb.WriteString("error: not applied: the run no longer does what the plan " + f.planFile + " says; make the plan again (ply diff -o json)\n")
			io.WriteString(stderr, sb.String())
			return command.ExitFailed
		}
	}
	if f.approval.confirm {
		if err := f.approval.approve(rp, objs, stdin, stdout, stderr); err != nil {
			return fail(err)
		}
	}
	return command.ExitOK
}

// readPlanFile reads the plan saved in path.
func readPlanFile(path string) (cluster.Plan, error) {
	file, err := os.Open(path)
	if err != nil {
		return cluster.Plan{}, errors.New("--plan: " + err.Error())
	}
	defer file.Close()
	p, err := cluster.ReadPlan(file)
	if err != nil {
		return cluster.Plan{}, errors.New("--plan " + path + ": " + err.Error())
	}
	return p, nil
}

// holdToPlan holds apply's writes and prune's deletions to --plan's
// resourceVersions (cluster.Options.Expect and ExpectPrune): an object
// that moves between confirmRun's check and its write or deletion fails,
// and nothing is written or deleted for it.
func (f *applyFlags) holdToPlan(opts *cluster.Options) error {
	if f.planFile == "" {
		return nil
	}
	saved, err := readPlanFile(f.planFile)
	if err != nil {
		return err
	}
	opts.Expect, opts.ExpectPrune = saved.Expect(), saved.ExpectPrune()
	return nil
}
