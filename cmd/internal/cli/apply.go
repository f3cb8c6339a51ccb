package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/cli-runtime/pkg/printers"

	"github.com/plyproject/ply/cmd/internal/command"
	"github.com/plyproject/ply/cmd/internal/kubeflags"
	"github.com/plyproject/ply/pkg/apply"
	"github.com/plyproject/ply/pkg/cluster"
)

// ProgressThreshold is the number of objects above which apply reports
// progress on a terminal's standard error without --progress.
const ProgressThreshold = 50

// applyFlags are the flags of apply.
type applyFlags struct {
	commonFlags
	dryRun string
	// serverSide is --server-side: true, false or auto;
	// forceConflicts and largeObjects are the server-side lane's flags.
	serverSide     string
	forceConflicts bool
	largeObjects   string
	gracePeriod    int
	maxAttempts    int
	progress       bool
	force          bool
	prune          pruneFlags
	wait           bool
	timeout        time.Duration
	// print are kubectl's print flags: -o (name, json, yaml, jsonpath,
	// go-template, ...), --template, --show-managed-fields, ...
	print kubeflags.PrintFlags
	// approval are --confirm and --yes.
	approval confirmFlags
	// planFile is --plan: the plan (ply diff -o json) the run must match.
	planFile string
}

const applyLong = `Applies the objects of the manifests to the cluster with ply's three-way
merge of the configuration last applied (the
kubectl.kubernetes.io/last-applied-configuration annotation, written in
kubectl's format), the manifest and the live object. One line per object,
in input order: "deployment.apps/web created|configured|unchanged|recreated".

Objects are applied in stages: by Argo CD sync wave
(argocd.argoproj.io/sync-wave), then kapp change rules
(kapp.k14s.io/change-group, kapp.k14s.io/change-rule: "upsert after
upserting <group>"), then kind: Namespaces; CustomResourceDefinitions
(waited for until established); service accounts, RBAC, config maps,
secrets, storage and classes, services; workloads and everything else;
admission webhooks and policies and API services last. With --wait, each
stage is waited for before the next starts; prune deletes in the reverse
order.

Per-object controls leave an object as it is, printed "configmap/x ignored
(reason)": a live object annotated ply.dev/reconcile: disabled (or Flux's
kustomize.toolkit.fluxcd.io/reconcile: disabled) is not written nor
pruned; a manifest annotated ply.dev/create: if-absent (or
kustomize.toolkit.fluxcd.io/ssa: IfNotPresent) is created only when
absent; prune does not delete a live object annotated ply.dev/prune:
disabled (or kustomize.toolkit.fluxcd.io/prune: disabled, Argo CD's
argocd.argoproj.io/sync-options: Prune=false, kapp's
kapp.k14s.io/delete-strategy: orphan).

With -o (kubectl's print flags: name, json, yaml, jsonpath=..., go-template,
...) the resulting objects are printed instead: the server's answer, or
the merged object with --dry-run=client. The values of Secrets are ***
unless --show-secrets. As kubectl, -o name prints each object as it is
done; the other formats print once, at the end, the one object of an
input of one, else a List (apiVersion v1) of the objects in input order
(-o jsonpath='{.items[*].metadata.name}').

With --prune, objects a previous apply created that the manifests no longer
hold are deleted after a successful apply ("configmap/old pruned"):
--applyset=[RESOURCE][.GROUP]/NAME tracks them in an ApplySet as kubectl
does (a Secret by default; namespaced parents need -n); -l SELECTOR or --all
with --prune-allowlist is kubectl's older form (cluster-scoped kinds only
when --prune-allowlist names them). Nothing is pruned when an object fails;
--dry-run shows what would be; --cascade sets the propagation. A run with
--applyset holds a lease on the set (a Lease beside the parent): another
run waits for it, at most --lock-timeout.

With --wait, after each stage's writes ply watches its objects until
kstatus computes each Current (reconciled and ready: observedGeneration
caught up, the kind's readiness rules, a Ready condition) or Failed, all
stages within --timeout (default 5m): per stage, one final line per object
not ready when first read, "deployment.apps/web Current: Deployment is
available. Replicas: 1", and a summary line for the others ("3 objects
Current when first read (configmaps: 3)"), on standard output (standard
error with -o), and on a terminal a live line per object still waited for,
redrawn in place on standard error. An object that is Failed or not
Current in time is an error naming it and its last status (exit code 1),
and the later stages are not applied. Ctrl-C exits 130, as kubectl under
SIGINT.

With --server-side, each object is sent as one server-side apply patch
under --field-manager (default kubectl, as kubectl apply --server-side):
the server merges it and records the fields it sets; "configmap/x
serverside-applied". Fields another manager owns with other values fail
the object, naming each field and its manager, unless --force-conflicts.
The first server-side apply of an object applied client-side moves the
client-side manager's fields to the server-side one, as kubectl does.
--server-side=auto applies each object in the lane it was last applied in
(a new one client-side) and prints the lane on its line. Objects whose
configuration is over the annotation limit are applied server-side in
every lane, unless --large-objects=compressed-annotation.

The connection flags are kubectl's (--kubeconfig, --context, -n, --token,
--as, --server, ...), read the way kubectl reads them.

Exit codes: 0 success, 1 an object failed or bad input, 2 usage error,
3 a conflict with changes made on the server (--overwrite=false) or with
another field manager (--server-side without --force-conflicts).`

const applyExample = `  # Apply the manifests of a folder and its sub-folders
  %[1]s apply -Rf manifests/

  # Apply a manifest from standard input in namespace team-a
  cat web.yaml | %[1]s apply -n team-a -f -

  # See what the server would store, persisting nothing
  %[1]s apply -f web.yaml --dry-run=server

  # Apply a folder and delete what an earlier apply of it created and it no longer holds
  %[1]s apply -n team-a -f manifests/ --prune --applyset=web

  # Apply, then wait up to 10 minutes until every object is ready
  %[1]s apply -f web.yaml --wait --timeout=10m

  # Apply server-side, as kubectl apply --server-side does
  %[1]s apply -f web.yaml --server-side

  # Compute exactly what kubectl apply computes
  %[1]s apply -f web.yaml --compat=kubectl`

func newApplyCommand(name string) *cobra.Command {
	var f applyFlags
	c := command.Command(command.Apply.Use, command.Apply.Short, applyLong,
		fmt.Sprintf(applyExample, name), func(c *cobra.Command) int { return applyMain(c, &f) })
	c.Annotations = map[string]string{command.KubectlErrors: "true"}
	fs := c.Flags()
	f.register(fs)
	fs.StringVar(&f.dryRun, "dry-run", "none", "none, client (compute, send nothing) or server (the server validates, persists nothing);\n"+
		"a bare --dry-run is client, as kubectl's (deprecated there)")
	fs.Lookup("dry-run").NoOptDefVal = bareDryRun
	fs.IntVar(&f.gracePeriod, "grace-period", -1, "the grace period in seconds of the deletions (prune, re-creation with --force);\n"+
		"negative: each object's default, as kubectl's")
	fs.StringVar(&f.serverSide, "server-side", "false", "true: send each object as a server-side apply patch (field manager kubectl); false: ply's\n"+
		"client-side three-way merge; auto: each object in the lane it was last applied in (a new one client-side)")
	fs.Lookup("server-side").NoOptDefVal = "true"
	fs.BoolVar(&f.forceConflicts, "force-conflicts", false, "with --server-side, take over the fields other managers own with other values")
	fs.StringVar(&f.largeObjects, "large-objects", "server-side", "objects whose configuration is over the annotation limit: server-side (apply them\n"+
		"server-side) or compressed-annotation (client-side, recorded in ply's compressed annotation)")
	fs.BoolVar(&f.force, "force", false, "delete and create again an object whose update the server refuses for immutable fields\n"+
		"(never a Namespace or CustomResourceDefinition); per object: the annotation "+cluster.ForceAnnotation+": \"true\"")
	f.prune.register(fs)
	fs.BoolVar(&f.wait, "wait", false, "after the writes, wait until every object applied is Current (kstatus: reconciled, ready)\n"+
		"and every object deleted is gone; exit code 1 when one fails or the timeout passes")
	fs.DurationVar(&f.timeout, "timeout", DefaultWaitTimeout, "with --wait, how long to wait for all objects; when given, also how long a re-creation\n"+
		"(--force) waits for the old object to be gone, which is all kubectl apply's --timeout bounds")
	fs.IntVar(&f.maxAttempts, "max-attempts", cluster.DefaultMaxAttempts, "the attempts per object when writes conflict with concurrent writers")
	fs.BoolVar(&f.progress, "progress", false, "report progress on standard error (default: when more than "+
		strconv.Itoa(ProgressThreshold)+" objects and standard error is a terminal; there, as a bar)")
	f.approval.register(fs)
	fs.StringVar(&f.planFile, "plan", "", "apply only if the run does exactly what this plan (saved from ply diff -o json with the same flags) says:\n"+
		"the same objects, actions and content, and no live object changed since (its resourceVersion)")
	f.print.AddFlags(c)
	fs.Lookup("output").Usage += planUsage
	f.registerCompletions(c)
	registerOutputCompletion(c, applyOutputFormats())
	return command.WithGatesHelp(c)
}

// applyMain is the apply command's main.
func applyMain(c *cobra.Command, f *applyFlags) int {
	stdin, stdout, stderr := c.InOrStdin(), c.OutOrStdout(), c.ErrOrStderr()
	opts, err := f.options(c)
	if err != nil {
		return command.UsageError(c, err.Error())
	}
	if err := f.writeOptions(c, &opts); err != nil {
		return command.UsageError(c, err.Error())
	}
	var objPrinter printers.ResourcePrinter
	if f.print.Wanted() && f.print.Output != planFormat {
		if objPrinter, err = f.print.ToPrinter(); err != nil {
			return command.UsageError(c, err.Error())
		}
	}
	if err := f.lanes(&opts); err != nil {
		return command.UsageError(c, err.Error())
	}
	if f.maxAttempts < 1 {
		return command.UsageError(c, "--max-attempts must be at least 1, not "+strconv.Itoa(f.maxAttempts))
	}
	opts.MaxAttempts = f.maxAttempts
	opts.Force = f.force
	prune, err := f.prune.options(f.selector, stderr)
	if err != nil {
		return command.UsageError(c, err.Error())
	}
	if err := f.checkWait(c, opts.DryRun); err != nil {
		return command.UsageError(c, err.Error())
	}

	objs, err := f.readObjects(stdin)
	if err != nil {
		return inputErrors(stderr, err)
	}
	if len(objs) == 0 {
		io.WriteString(stderr, "error: no objects passed to apply\n")
		return command.ExitFailed
	}
	if f.print.Output == planFormat {
		return f.printRunPlan(c, opts, objs, prune)
	}
	printer := f.printer(objPrinter, &opts, len(objs), stdout, stderr)
	stages := f.stageWaiter(&opts, printer, objPrinter != nil, stdout, stderr)
	if err := f.holdToPlan(&opts); err != nil {
		io.WriteString(stderr, "error: "+oneLine(err.Error())+"\n")
		return command.ExitFailed
	}
	cl, err := f.client(opts)
	if err != nil {
		io.WriteString(stderr, "error: "+oneLine(err.Error())+"\n")
		return command.ExitFailed
	}
	stages.cl = cl
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if f.approval.confirm || f.planFile != "" {
		if code := f.confirmRun(ctx, c, opts, objs, prune); code != command.ExitOK {
			return code
		}
	}
	var outs []cluster.Outcome
	if prune == nil {
		outs = cl.Apply(ctx, objs)
	} else {
		outs = applyPrune(ctx, cl, objs, *prune, printer)
	}
	printer.finish()
	if ctx.Err() != nil {
		io.WriteString(stderr, "error: interrupted\n")
		return ExitInterrupted
	}
	if f.warningsFailure(stderr, printer.warnings) {
		printer.code = max(printer.code, command.ExitFailed)
	}
	if !f.wait {
		return printer.code
	}
	return max(printer.code, stages.finish(ctx, outs))
}

// printer returns apply's printer of n objects and hooks it on opts: the
// lines (or -o's objects), and the progress (a bar on a terminal).
func (f *applyFlags) printer(objPrinter printers.ResourcePrinter, opts *cluster.Options, n int, stdout, stderr io.Writer) *applyPrinter {
	// Input order on a terminal too: the progress bar shows what is done
	// while an object early in the input holds the lines after it back.
	printer := newApplyPrinter(objPrinter, opts.DryRun, f.showSecrets, stdout, stderr)
	printer.lanes = opts.Lane == cluster.LaneAuto
	if listsObjects(&f.print) {
		printer.list = &listing{total: n}
	}
	switch {
	case (f.progress || n > ProgressThreshold) && isTerminal(stderr):
		printer.bar = &progressBar{w: stderr, total: n}
	case f.progress:
		opts.Progress = stderr
	}
	opts.Report = printer.report
	return printer
}

// lanes sets the lane options of opts from the flags, refusing what
// kubectl apply --server-side refuses (--dry-run=client, --force).
func (f *applyFlags) lanes(opts *cluster.Options) error {
	var err error
	if opts.Lane, err = cluster.ParseLane(f.serverSide); err != nil {
		return err
	}
	if opts.LargeObjects, err = cluster.ParseLargeObjects(f.largeObjects); err != nil {
		return err
	}
	opts.ForceConflicts = f.forceConflicts
	switch {
	case f.forceConflicts && opts.Lane == cluster.LaneClientSide:
		return errors.New("--force-conflicts only works with --server-side")
	case opts.Lane != cluster.LaneClientSide && opts.DryRun == cluster.DryRunClient:
		return errors.New("--dry-run=client doesn't work with --server-side (did you mean --dry-run=server instead?)")
	case opts.Lane != cluster.LaneClientSide && f.force:
		return errors.New("--force cannot be used with --server-side")
	}
	return nil
}

// writeOptions sets in opts what the flags of kubectl's apply say about
// the writes: --dry-run, --grace-period of the deletes, --timeout of a
// re-creation's delete; it refuses -o plan without a dry run.
func (f *applyFlags) writeOptions(c *cobra.Command, opts *cluster.Options) error {
	var err error
	if opts.DryRun, err = parseDryRun(f.dryRun, c.ErrOrStderr()); err != nil {
		return err
	}
	if f.gracePeriod >= 0 {
		grace := int64(f.gracePeriod)
		opts.GracePeriod = &grace
	}
	if c.Flags().Changed("timeout") {
		opts.DeleteTimeout = f.timeout
	}
	return f.checkPlanOutput(opts.DryRun)
}

// dryRunSuffix is what kubectl appends to its lines in a dry run.
func dryRunSuffix(d cluster.DryRun) string {
	switch d {
	case cluster.DryRunClient:
		return " (dry run)"
	case cluster.DryRunServer:
		return " (server dry run)"
	}
	return ""
}

// applyPrinter prints the outcomes of apply as they come: kubectl's line
// ("deployment.apps/web created"), or the resulting object through the
// printer of kubectl's print flags (-o name|json|yaml|jsonpath=...), on
// stdout, errors and warnings on stderr, in input order: it holds an
// outcome back until those before it in the input are printed.
type applyPrinter struct {
	mu          sync.Mutex
	objects     printers.ResourcePrinter
	suffix      string
	showSecrets bool
	stdout      io.Writer
	stderr      io.Writer
	pending     map[int]cluster.Outcome
	// printed holds the indices at or after next printed by flush.
	printed map[int]bool
	next    int
	code    int
	// warnings counts the warning lines printed.
	warnings int
	// list, when set, collects the resulting objects to print them at
	// the end as kubectl apply -o json|yaml|jsonpath|go-template does
	// (listing): see printList.
	list *listing
	// bar, when set, shows the progress on a terminal below the results.
	bar *progressBar
	// lanes appends each object's lane to its line (--server-side=auto).
	lanes bool
}

func newApplyPrinter(objects printers.ResourcePrinter, dry cluster.DryRun, showSecrets bool, stdout, stderr io.Writer) *applyPrinter {
	return &applyPrinter{objects: objects, suffix: dryRunSuffix(dry), showSecrets: showSecrets,
		stdout: stdout, stderr: stderr, pending: map[int]cluster.Outcome{}, printed: map[int]bool{}}
}

// report takes the outcome of the object at index i; it is safe for
// concurrent use.
func (p *applyPrinter) report(i int, o cluster.Outcome) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bar != nil {
		p.bar.clear()
		if i < p.bar.total {
			defer p.bar.done()
		} else {
			defer p.bar.draw() // a pruned object: not one of the total
		}
	}
	p.pending[i] = o
	for {
		if p.printed[p.next] {
			delete(p.printed, p.next)
			p.next++
			continue
		}
		o, ok := p.pending[p.next]
		if !ok {
			return
		}
		delete(p.pending, p.next)
		p.next++
		p.print(p.next-1, o)
	}
}

// flush prints the outcomes held back, in input order, ahead of those
// not reported yet: apply --wait calls it at the end of a stage, so that
// a stage's lines precede its wait's.
func (p *applyPrinter) flush() {
	p.mu.Lock()
	defer p.mu.Unlock()
	idx := make([]int, 0, len(p.pending))
	for i := range p.pending {
		idx = append(idx, i)
	}
	sort.Ints(idx)
	for _, i := range idx {
		p.print(i, p.pending[i])
		delete(p.pending, i)
		p.printed[i] = true
	}
}

// print prints the outcome o of the object at input index i and updates
// the exit code.
func (p *applyPrinter) print(i int, o cluster.Outcome) {
	var eb strings.Builder
	for _, w := range o.Warnings {
		eb.WriteString("Warning: " + o.Ref.String() + " (" + o.Object.Source + "): " + oneLine(w) + "\n")
	}
	p.warnings += len(o.Warnings)
	if o.Action == cluster.Failed {
		eb.WriteString("error: " + o.Ref.Quoted() + " (" + o.Object.Source + "): " + oneLine(errString(o.Err)) + "\n")
		var ce *apply.ConflictError
		var mce *cluster.ManagerConflictError
		switch {
		case errors.As(o.Err, &ce), errors.As(o.Err, &mce):
			p.code = command.ExitConflict
		case p.code == command.ExitOK:
			p.code = command.ExitFailed
		}
	}
	io.WriteString(p.stderr, eb.String())
	if o.Action == cluster.Failed {
		return
	}
	if p.objects == nil {
		lane := ""
		if p.lanes && o.Action != cluster.Pruned && o.Action != cluster.Ignored {
			lane = " (" + o.Lane.Word() + ")"
		}
		io.WriteString(p.stdout, o.Ref.String()+" "+o.Action.String()+ignoredWhy(o)+p.suffix+lane+"\n")
		return
	}
	if o.Action == cluster.Ignored && o.Object.Source == cluster.PruneSource {
		// Neither applied nor pruned: not one of -o's objects.
		return
	}
	obj := o.Result
	if !p.showSecrets {
		obj = cluster.MaskSecret(obj)
	}
	u := &unstructured.Unstructured{}
	if err := u.UnmarshalJSON(obj.JSON()); err != nil {
		p.printError(o.Ref.Quoted()+" ("+o.Object.Source+")", err)
		return
	}
	if p.list != nil && o.Action != cluster.Pruned {
		p.list.add(i, u)
		return
	}
	if p.list != nil {
		// kubectl prints the pruned objects after the list, one by one.
		p.list.pruned = append(p.list.pruned, prunedObject{o.Ref.Quoted() + " (" + o.Object.Source + ")", u})
		return
	}
	p.printObject(o.Ref.Quoted()+" ("+o.Object.Source+")", u)
}

// printObject prints u through the -o printer; what names u in an error.
func (p *applyPrinter) printObject(what string, u runtime.Object) {
	var buf bytes.Buffer
	if err := p.objects.PrintObj(u, &buf); err != nil {
		p.printError(what, err)
		return
	}
	p.stdout.Write(buf.Bytes())
}

// printError reports that the resulting object of o cannot be printed.
func (p *applyPrinter) printError(what string, err error) {
	io.WriteString(p.stderr, "error: "+what+": cannot print the object: "+oneLine(err.Error())+"\n")
	if p.code == command.ExitOK {
		p.code = command.ExitFailed
	}
}

// finish ends the progress bar, if any, and prints the collected objects
// of a listing.
func (p *applyPrinter) finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bar != nil {
		p.bar.finish()
	}
	if p.list != nil {
		p.printList()
	}
}

// progressBar draws "[=====>    ] 120/500 objects" on one terminal line,
// redrawn in place as objects finish; results printed meanwhile clear it
// first. Its methods run under the printer's lock.
type progressBar struct {
	w        io.Writer
	total, n int
	drawn    bool
}

// barWidth is the number of cells of the bar.
const barWidth = 30

// clear erases the bar so that a result can take its line.
func (b *progressBar) clear() {
	if b.drawn {
		io.WriteString(b.w, "\r\x1b[K")
		b.drawn = false
	}
}

// done counts one object and redraws the bar.
func (b *progressBar) done() {
	b.n++
	b.draw()
}

// draw writes the bar.
func (b *progressBar) draw() {
	fill := 0
	if b.total > 0 {
		fill = b.n * barWidth / b.total
	}
	bar := strings.Repeat("=", fill)
	if fill < barWidth {
		bar += ">" + strings.Repeat(" ", barWidth-fill-1)
	}
	io.WriteString(b.w, "\r\x1b[K["+bar+"] "+strconv.Itoa(b.n)+"/"+strconv.Itoa(b.total)+" objects")
	b.drawn = true
}

// finish leaves the bar's last state on its line.
func (b *progressBar) finish() {
	if b.drawn {
		io.WriteString(b.w, "\n")
		b.drawn = false
	}
}

// errString is err's message, or a placeholder for a nil error.
func errString(err error) string {
	if err == nil {
		return "failed"
	}
	return err.Error()
}

// inputErrors prints each line of err as an error and returns command.ExitFailed.
func inputErrors(stderr io.Writer, err error) int {
	var sb strings.Builder
	for _, l := range strings.Split(err.Error(), "\n") {
		if l != "" {
			sb.WriteString("error: " + l + "\n")
		}
	}
	io.WriteString(stderr, sb.String())
	return command.ExitFailed
}
