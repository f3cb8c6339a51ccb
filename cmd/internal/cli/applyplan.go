package cli

import (
	"context"
	"errors"
	"io"
	"os"
	"os/signal"

	"github.com/spf13/cobra"

	"github.com/plyproject/ply/cmd/internal/command"
	"github.com/plyproject/ply/cmd/internal/kubeflags"
	"github.com/plyproject/ply/pkg/cluster"
)

// planFormat is the -o value that prints the plan of a run (kind Plan)
// instead of its objects: apply's with --dry-run, and diff's synonym of
// its -o json. apply's -o json|yaml keep kubectl's meaning, the objects.
const planFormat = "plan"

// planUsage is what apply's -o help adds about planFormat.
const planUsage = "\nplan (with --dry-run=server|client): the plan of the run, as ply diff -o json prints it (not kubectl's)"

// isPlanOutput reports whether diff's -o value o prints the plan.
func isPlanOutput(o string) bool { return o == planOutput || o == planFormat }

// applyOutputFormats are the -o values apply completes: kubectl's, and
// planFormat.
func applyOutputFormats() []string { return append(kubeflags.Formats(), planFormat) }

// checkPlanOutput refuses apply -o plan where it cannot print what the
// run would do: without a dry run (the run writes; its plan is ply diff's
// -o json), and with the flags that write after approving a plan
// (--confirm, --plan) or wait for the writes (--wait).
func (f *applyFlags) checkPlanOutput(dry cluster.DryRun) error {
	switch {
	case f.print.Output != planFormat:
		return nil
	case dry == cluster.DryRunNone:
		return errors.New("-o plan prints what apply would do: it needs --dry-run=server or --dry-run=client (ply diff -o json prints the same plan)")
	case f.approval.confirm || f.planFile != "":
		return errors.New("-o plan cannot be used with --confirm or --plan: it writes nothing")
	case f.wait:
		return errors.New("-o plan cannot be used with --wait: it writes nothing")
	}
	return nil
}

// printRunPlan prints the plan of the dry run opts describes (objs, prune
// when not nil) as ply diff -o json does, the server's warnings on stderr,
// and returns apply's exit code: command.ExitFailed when an object would
// fail (or, with --warnings-as-errors, a warning came), else
// command.ExitOK.
func (f *applyFlags) printRunPlan(c *cobra.Command, opts cluster.Options, objs []cluster.Object, prune *cluster.Prune) int {
	stdout, stderr := c.OutOrStdout(), c.ErrOrStderr()
	cl, err := f.client(opts)
	if err != nil {
		io.WriteString(stderr, "error: "+oneLine(err.Error())+"\n")
		return command.ExitFailed
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	rp, err := planRun(ctx, cl, objs, prune, f.showSecrets)
	switch {
	case ctx.Err() != nil:
		io.WriteString(stderr, "error: interrupted\n")
		return ExitInterrupted
	case err != nil:
		io.WriteString(stderr, "error: "+oneLine(err.Error())+"\n")
		return command.ExitFailed
	}
	io.WriteString(stderr, warningLines(rp.res))
	warnings := 0
	for _, d := range rp.res {
		warnings += len(d.Warnings)
	}
	if printPlan(rp.plan, stdout, stderr) == command.DiffError || f.warningsFailure(stderr, warnings) {
		return command.ExitFailed
	}
	return command.ExitOK
}
