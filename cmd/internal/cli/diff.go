package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"

	"github.com/spf13/cobra"

	"github.com/plyproject/ply/cmd/internal/command"
	"github.com/plyproject/ply/pkg/cluster"
)

// diffFlags are the flags of diff.
type diffFlags struct {
	commonFlags
	changes    bool
	serverSide bool
	// serverSideApply is --server-side-apply: true diffs against the
	// server's dry-run answer to a server-side apply, auto each object in
	// its lane (see lane); forceConflicts is apply's --force-conflicts.
	serverSideApply string
	forceConflicts  bool
	largeObjects    string
	color           string
	force           bool
	// output is -o: "" for unified diffs, "json" for the plan.
	output string
	prune  pruneFlags
}

const diffLong = `Shows, as unified diffs of the live objects against the merged ones (YAML,
without managedFields), what apply would change; nothing is written.

By default the merged object is sent to the server as apply would send it,
as a server-side dry run (dryRun=All), and the diff shows the server's
answer: defaulting, admission and conversion show, and a validation error
or a refused change (an immutable field) is the object's error, saying that
apply would fail. With --force (or the object's annotation
ply.dev/force-recreate: "true"), such an object is shown as apply --force
would treat it: a line "# <object> would be deleted and created again"
precedes its diff, which compares live with the object that would be
created: the server's answer to its create sent as a dry run (under a
generated name, put back), so that defaults show and a refusal is the
object's error.
An object in a namespace that does not exist yet, which a Namespace of the
same manifests creates, cannot be dry-run by the server: it is shown as
created from the local merge, under a line "# <object>: namespace <ns>
does not exist yet (the manifests create it): shown as merged locally,
...".
--server-side=false diffs against the merged object itself, computed
locally (only reads are sent). --server-side-apply diffs against the
server's answer to the server-side apply that apply --server-side would
send (a dry run under --field-manager, default kubectl, with
--force-conflicts as given): a field another manager owns with another
value is the object's error, as it would be for apply. --server-side=auto
diffs each object in the lane apply --server-side=auto would apply it in
(the lane it was last applied in; a new object client-side unless over the
annotation limit), each as above, and names it before its diff:
"# configmap/web: server-side".

The last-applied annotation's configuration is shown decoded at the end
of each object, its lines commented ("-#     image: web:1"), so that the
fields the next apply will read differently show one a line; ply's
compressed annotation is decompressed, never shown as base64.

The values of Secrets (data, stringData, and the last-applied annotation
that holds them) are shown as ***, or *** (before) and *** (after) where
they change, as kubectl diff shows data; --show-secrets shows them.

KUBECTL_EXTERNAL_DIFF, as with kubectl diff, names a program (with flags)
run on two directories, live/ and merged/, holding one file per changed
object, instead of printing the diffs.

The last line, on standard error (standard output stays a patch), is the
summary of the plan: "Plan: 1 to create, 2 to update, 0 to recreate, 0 to
prune, 3 unchanged, 0 ignored, 0 failed." With -o json (or -o plan), the
plan is printed instead of the diffs: per object its action (create,
update, recreate, prune, unchanged, ignored, failed), its stage (the
order apply writes in), the live resourceVersion, a digest of what apply
would write, and the changed fields with their values before and after
(Secrets' values masked), then the summary. With --prune (and
--applyset, or -l/--all as apply takes them), the objects apply --prune
would delete are listed too ("# <object> would be pruned (stage N)"
after the diffs): the same listing, reading only (no lease is taken,
nothing is written).

An object a per-object control leaves as it is is "ignored", with the
reason ("# configmap/x ignored (reconcile disabled)"): a live object
annotated ply.dev/reconcile: disabled (or Flux's
kustomize.toolkit.fluxcd.io/reconcile: disabled), a manifest annotated
ply.dev/create: if-absent (or kustomize.toolkit.fluxcd.io/ssa:
IfNotPresent) whose object exists, and, among what prune would delete, a
live object annotated ply.dev/prune: disabled (or Flux's
kustomize.toolkit.fluxcd.io/prune: disabled, Argo CD's
argocd.argoproj.io/sync-options: Prune=false, kapp's
kapp.k14s.io/delete-strategy: orphan).

Exit codes (kubectl diff's): 0 no differences, 1 differences (objects to
create, update, recreate or prune), 2 error (an object that cannot be
applied included).`

const diffExample = `  # What applying a folder would change
  %[1]s diff -Rf manifests/

  # The same, with the changed fields and what decided each
  %[1]s diff -f web.yaml --changes

  # Diff against the locally merged objects, without the server's dry run
  %[1]s diff -f web.yaml --server-side=false

  # The plan of a CI job, with what prune would delete
  %[1]s diff -n team-a -f manifests/ --prune --applyset=web -o json

  # Diff with another program, as kubectl diff does
  KUBECTL_EXTERNAL_DIFF="meld" %[1]s diff -k overlays/prod`

func newDiffCommand(name string) *cobra.Command {
	var f diffFlags
	c := command.Command(command.Diff.Use, command.Diff.Short, diffLong,
		fmt.Sprintf(diffExample, name), func(c *cobra.Command) int { return diffMain(c, &f) })
	c.Annotations = map[string]string{command.KubectlErrors: "true"}
	fs := c.Flags()
	f.register(fs)
	fs.BoolVar(&f.serverSide, "server-side", true, "diff against the server's answer to a dry run of the write; false: against the locally merged object")
	fs.StringVar(&f.serverSideApply, "server-side-apply", "false", "diff against the server's dry-run answer to apply --server-side's server-side apply;\n"+
		"auto: each object in the lane apply --server-side=auto would apply it in")
	fs.Lookup("server-side-apply").NoOptDefVal = "true"
	fs.BoolVar(&f.forceConflicts, "force-conflicts", false, "with --server-side-apply, as apply --force-conflicts: take over fields other managers own")
	fs.StringVar(&f.largeObjects, "large-objects", "server-side", "as apply's: objects over the annotation limit are diffed server-side (as with\n"+
		"--server-side-apply) or client-side with compressed-annotation")
	fs.StringVar(&f.color, "color", "auto", "colour the diff: auto (when standard output is a terminal and NO_COLOR is unset), always or never")
	fs.BoolVar(&f.force, "force", false, "diff as apply --force would apply: an object whose update the server refuses for immutable fields\n"+
		"is shown as deleted and created again (per object: the annotation "+cluster.ForceAnnotation+": \"true\")")
	fs.BoolVar(&f.changes, "changes", false, "before each diff, list the changed fields and what decided each (\"# path: op, reason\")")
	fs.StringVarP(&f.output, "output", "o", "", "json (or plan): print the plan (per object its action, stage and changed fields, and a summary) instead of diffs")
	f.prune.registerDiffPrune(fs)
	f.registerCompletions(c)
	registerOutputCompletion(c, []string{planOutput, planFormat})
	return command.WithGatesHelp(c)
}

// diffMain is the diff command's main; it returns command.DiffNone, command.DiffChanges or
// command.DiffError.
func diffMain(c *cobra.Command, f *diffFlags) int {
	stdin, stdout, stderr := c.InOrStdin(), c.OutOrStdout(), c.ErrOrStderr()
	opts, err := f.options(c)
	if err != nil {
		return command.UsageError(c, err.Error())
	}
	opts.DryRun = cluster.DryRunClient
	opts.Force = f.force
	if f.serverSide {
		opts.DryRun = cluster.DryRunServer
	}
	if opts.LargeObjects, err = cluster.ParseLargeObjects(f.largeObjects); err != nil {
		return command.UsageError(c, err.Error())
	}
	if err := f.lane(&opts); err != nil {
		return command.UsageError(c, err.Error())
	}
	color, err := useColor(f.color, stdout)
	if err != nil {
		return command.UsageError(c, err.Error())
	}
	external, err := externalDiff(os.Getenv("KUBECTL_EXTERNAL_DIFF"))
	if err != nil {
		return command.UsageError(c, err.Error())
	}
	if err := checkDiffOutput(f.output); err != nil {
		return command.UsageError(c, err.Error())
	}
	prune, err := f.prune.options(f.selector, stderr)
	if err != nil {
		return command.UsageError(c, err.Error())
	}
	objs, err := f.readObjects(stdin)
	if err != nil {
		inputErrors(stderr, err)
		return command.DiffError
	}
	cl, err := f.client(opts)
	if err != nil {
		io.WriteString(stderr, "error: "+oneLine(err.Error())+"\n")
		return command.DiffError
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if prune != nil {
		// Diffed as apply --prune writes them: labelled as the ApplySet's.
		if objs, err = cl.PruneObjects(ctx, objs, *prune); err != nil {
			io.WriteString(stderr, "error: "+oneLine(err.Error())+"\n")
			return command.DiffError
		}
	}
	res, err := cl.Diff(ctx, objs)
	var pruned []cluster.PlannedPrune
	if err == nil {
		pruned, err = prunePlan(ctx, cl, res, prune)
	}
	if ctx.Err() != nil {
		io.WriteString(stderr, "error: interrupted\n")
		return ExitInterrupted
	}
	if err != nil {
		io.WriteString(stderr, "error: "+oneLine(err.Error())+"\n")
		return command.DiffError
	}
	return f.report(objs, res, pruned, external, color, stdout, stderr)
}

// report prints the diff of objs (res, and what prune would delete) as
// -o, KUBECTL_EXTERNAL_DIFF and --color ask, and returns the exit code:
// command.DiffError too when --warnings-as-errors and a warning came.
func (f *diffFlags) report(objs []cluster.Object, res []cluster.DiffResult, pruned []cluster.PlannedPrune,
	external []string, color bool, stdout, stderr io.Writer) int {
	warnings := 0
	for _, d := range res {
		warnings += len(d.Warnings)
	}
	plan := cluster.NewPlan(objs, res, pruned, f.showSecrets)
	if isPlanOutput(f.output) {
		io.WriteString(stderr, warningLines(res))
		code := printPlan(plan, stdout, stderr)
		if f.warningsFailure(stderr, warnings) {
			return command.DiffError
		}
		return code
	}
	var code int
	if external != nil {
		code = runExternalDiff(external, res, stdout, stderr)
	} else {
		out := stdout
		if color {
			out = &colorWriter{w: stdout}
		}
		code = reportDiffLanes(res, f.changes, f.serverSideApply == "auto", out, stderr)
	}
	stages, _ := cluster.Stages(objs)
	io.WriteString(stdout, prunedLines(pruned, len(stages)))
	io.WriteString(stderr, plan.Summary.String()+"\n")
	if f.warningsFailure(stderr, warnings) {
		return command.DiffError
	}
	if code == command.DiffNone && len(pruned) > 0 {
		code = command.DiffChanges
	}
	return code
}

// reportDiff prints the diffs in input order and returns the exit code.
func reportDiff(res []cluster.DiffResult, changes bool, stdout, stderr io.Writer) int {
	return reportDiffLanes(res, changes, false, stdout, stderr)
}

// reportDiffLanes is reportDiff; with lanes, each object diffed is first
// named with its lane (laneLine).
func reportDiffLanes(res []cluster.DiffResult, changes, lanes bool, stdout, stderr io.Writer) int {
	code := command.DiffNone
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
		if lanes {
			sb.WriteString(laneLine(d))
		}
		for _, path := range d.Ignored {
			sb.WriteString("# " + d.Ref.String() + ": " + path + " ignored: live's value kept, another writer's\n")
		}
		if d.IgnoredReason != "" {
			sb.WriteString("# " + d.Ref.String() + " ignored (" + d.IgnoredReason + ")\n")
		}
		if !d.Changed() {
			continue
		}
		code = command.DiffChanges
		if note := recreateNote(d); note != "" {
			sb.WriteString("# " + note + "\n")
		}
		if d.Note != "" {
			sb.WriteString("# " + d.Ref.String() + ": " + d.Note + "\n")
		}
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
		return command.DiffError
	}
	return code
}

// warningLines are the lines of the server's warnings about the objects
// of res, in input order, as reportDiff prints them.
func warningLines(res []cluster.DiffResult) string {
	var sb strings.Builder
	for _, d := range res {
		for _, w := range d.Warnings {
			sb.WriteString("Warning: " + d.Ref.String() + " (" + d.Object.Source + "): " + oneLine(w) + "\n")
		}
	}
	return sb.String()
}

// recreateNote says that the object of d would be deleted and created
// again, and for which fields; "" when it would not.
func recreateNote(d cluster.DiffResult) string {
	if d.Recreate == nil {
		return ""
	}
	msg := d.Ref.String() + " would be deleted and created again: the server refuses to change immutable field"
	if len(d.Recreate.Fields) > 1 {
		msg += "s"
	}
	return msg + " " + strings.Join(d.Recreate.Fields, ", ")
}
