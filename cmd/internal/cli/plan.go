package cli

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"strconv"

	"github.com/spf13/pflag"

	"github.com/plyproject/ply/cmd/internal/command"
	"github.com/plyproject/ply/pkg/cluster"
)

// planOutput is diff's -o value that prints the plan as JSON.
const planOutput = "json"

// registerDiffPrune adds to diff the pruning flags that select what
// apply --prune would delete: --prune, --applyset, --all and
// --prune-allowlist (-l is a common flag).
func (f *pruneFlags) registerDiffPrune(fs *pflag.FlagSet) {
	fs.BoolVar(&f.prune, "prune", false, "also list the objects apply --prune with the same flags would delete (reads only: no lease, no write)")
	fs.StringVar(&f.applySet, "applyset", "", "with --prune: the ApplySet, as apply's --applyset")
	fs.BoolVar(&f.all, "all", false, "with --prune and no --applyset: every object of the --prune-allowlist kinds")
	fs.StringArrayVar(&f.allowlist, "prune-allowlist", nil, "with --prune and no --applyset: a group/version/Kind to prune (repeatable)")
	f.cascade = "background"
}

// checkOutput checks diff's -o.
func checkDiffOutput(o string) error {
	if o != "" && !isPlanOutput(o) {
		return errors.New(`unable to match a printer suitable for the output format "` + o + `", allowed formats are: json, plan`)
	}
	return nil
}

// prunePlan returns what apply --prune with p would delete after applying
// the objects of res; nil when p is nil.
func prunePlan(ctx context.Context, cl *cluster.Client, res []cluster.DiffResult, p *cluster.Prune) ([]cluster.PlannedPrune, error) {
	if p == nil {
		return nil, nil
	}
	return cl.PrunePlan(ctx, res, *p)
}

// printPlan prints plan as indented JSON and returns diff's exit code:
// command.DiffError when an object failed, command.DiffChanges when the
// plan writes or deletes, else command.DiffNone.
func printPlan(plan cluster.Plan, stdout, stderr io.Writer) int {
	b, err := json.MarshalIndent(plan, "", "  ")
	if err != nil {
		io.WriteString(stderr, "error: cannot print the plan: "+err.Error()+"\n")
		return command.DiffError
	}
	stdout.Write(append(b, '\n'))
	return planCode(plan.Summary)
}

// planCode is diff's exit code for a plan's summary.
func planCode(s cluster.PlanSummary) int {
	switch {
	case s.Failed > 0:
		return command.DiffError
	case s.Changes():
		return command.DiffChanges
	}
	return command.DiffNone
}

// prunedLines are the text diff's lines for the objects prune would
// delete, "# configmap/old would be pruned (stage 4)", and those it would
// leave, "# configmap/keep ignored (prune disabled): not pruned".
func prunedLines(pruned []cluster.PlannedPrune, stages int) string {
	s := ""
	for _, p := range pruned {
		if p.IgnoredReason != "" {
			s += "# " + p.Ref.String() + " ignored (" + p.IgnoredReason + "): not pruned\n"
			continue
		}
		s += "# " + p.Ref.String() + " would be pruned (stage " + strconv.Itoa(stages+p.Stage) + ")\n"
	}
	return s
}

// ignoredWhy is the reason on the line of an object a per-object control
// left as it is, " (reconcile disabled)"; "" for the others.
func ignoredWhy(o cluster.Outcome) string {
	if o.Action != cluster.Ignored {
		return ""
	}
	return " (" + o.IgnoredReason + ")"
}
