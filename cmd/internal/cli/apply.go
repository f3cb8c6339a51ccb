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
	dryRun      string
	maxAttempts int
	progress    bool
	force       bool
	prune       pruneFlags
	wait        bool
	timeout     time.Duration
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

With -o (kubectl's print flags: name, json, yaml, jsonpath=..., go-template,
...) the resulting objects are printed instead: the server's answer, or
the merged object with --dry-run=client. The values of Secrets are ***
unless --show-secrets. Results are printed as objects finish: in input
order when standard output is not a terminal.

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
stages within --timeout (default 5m): one final line per object,
"deployment.apps/web Current: Deployment is available. Replicas: 1", on
standard output (standard error with -o), and on a terminal a live line
per object still waited for, redrawn in place on standard error. An
object that is Failed or not Current in time is an error naming it and
its last status (exit code 1), and the later stages are not applied.

The connection flags are kubectl's (--kubeconfig, --context, -n, --token,
--as, --server, ...), read the way kubectl reads them.

Exit codes: 0 success, 1 an object failed or bad input, 2 usage error,
3 a conflict with changes made on the server (--overwrite=false).`

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

  # Compute exactly what kubectl apply computes
  %[1]s apply -f web.yaml --compat=kubectl`

func newApplyCommand(name string) *cobra.Command {
	var f applyFlags
	c := command.Command(command.Apply.Use, command.Apply.Short, applyLong,
		fmt.Sprintf(applyExample, name), func(c *cobra.Command) int { return applyMain(c, &f) })
	c.Annotations = map[string]string{command.KubectlErrors: "true"}
	fs := c.Flags()
	f.register(fs)
	fs.StringVar(&f.dryRun, "dry-run", "none", "none, client (compute, send nothing) or server (the server validates, persists nothing)")
	fs.BoolVar(&f.force, "force", false, "delete and create again an object whose update the server refuses for immutable fields\n"+
		"(never a Namespace or CustomResourceDefinition); per object: the annotation "+cluster.ForceAnnotation+": \"true\"")
	f.prune.register(fs)
	fs.BoolVar(&f.wait, "wait", false, "after the writes, wait until every object applied is Current (kstatus: reconciled, ready)\n"+
		"and every object deleted is gone; exit code 1 when one fails or the timeout passes")
	fs.DurationVar(&f.timeout, "timeout", DefaultWaitTimeout, "with --wait, how long to wait for all objects (unlike kubectl apply's --timeout,\n"+
		"which bounds the wait for deletions only)")
	fs.IntVar(&f.maxAttempts, "max-attempts", cluster.DefaultMaxAttempts, "the attempts per object when writes conflict with concurrent writers")
	fs.BoolVar(&f.progress, "progress", false, "report progress on standard error (default: when more than "+
		strconv.Itoa(ProgressThreshold)+" objects and standard error is a terminal; there, as a bar)")
	f.approval.register(fs)
	fs.StringVar(&f.planFile, "plan", "", "apply only if the run does exactly what this plan (saved from ply diff -o json with the same flags) says:\n"+
		"the same objects, actions and content, and no live object changed since (its resourceVersion)")
	f.print.AddFlags(c)
	return command.WithGatesHelp(c)
}

// applyMain is the apply command's main.
func applyMain(c *cobra.Command, f *applyFlags) int {
	stdin, stdout, stderr := c.InOrStdin(), c.OutOrStdout(), c.ErrOrStderr()
	opts, err := f.options(c)
	if err != nil {
		return command.UsageError(c, err.Error())
	}
	if opts.DryRun, err = cluster.ParseDryRun(f.dryRun); err != nil {
		return command.UsageError(c, err.Error())
	}
	var objPrinter printers.ResourcePrinter
	if f.print.Wanted() {
		if objPrinter, err = f.print.ToPrinter(); err != nil {
			return command.UsageError(c, err.Error())
		}
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
	printer := newApplyPrinter(objPrinter, opts.DryRun, f.showSecrets, !isTerminal(stdout), stdout, stderr)
	switch {
	case (f.progress || len(objs) > ProgressThreshold) && isTerminal(stderr):
		printer.bar = &progressBar{w: stderr, total: len(objs)}
	case f.progress:
		opts.Progress = stderr
	}
	opts.Report = printer.report
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
	if !f.wait {
		return printer.code
	}
	return max(printer.code, stages.finish(ctx, outs))
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
// stdout, errors and warnings on stderr. Ordered, it holds an outcome back
// until those before it in the input are printed.
type applyPrinter struct {
	mu          sync.Mutex
	objects     printers.ResourcePrinter
	suffix      string
	showSecrets bool
	ordered     bool
	stdout      io.Writer
	stderr      io.Writer
	pending     map[int]cluster.Outcome
	// printed holds the indices at or after next printed by flush.
	printed map[int]bool
	next    int
	code    int
	// bar, when set, shows the progress on a terminal below the results.
	bar *progressBar
}

func newApplyPrinter(objects printers.ResourcePrinter, dry cluster.DryRun, showSecrets, ordered bool, stdout, stderr io.Writer) *applyPrinter {
	return &applyPrinter{objects: objects, suffix: dryRunSuffix(dry), showSecrets: showSecrets, ordered: ordered,
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
	if !p.ordered {
		p.print(o)
		return
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
		p.print(o)
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
		p.print(p.pending[i])
		delete(p.pending, i)
		p.printed[i] = true
	}
}

// print prints one outcome and updates the exit code.
func (p *applyPrinter) print(o cluster.Outcome) {
	var eb strings.Builder
	for _, w := range o.Warnings {
		eb.WriteString("Warning: " + o.Ref.String() + " (" + o.Object.Source + "): " + oneLine(w) + "\n")
	}
	if o.Action == cluster.Failed {
		eb.WriteString("error: " + o.Ref.Quoted() + " (" + o.Object.Source + "): " + oneLine(errString(o.Err)) + "\n")
		var ce *apply.ConflictError
		switch {
		case errors.As(o.Err, &ce):
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
		io.WriteString(p.stdout, o.Ref.String()+" "+o.Action.String()+p.suffix+"\n")
		return
	}
	obj := o.Result
	if !p.showSecrets {
		obj = cluster.MaskSecret(obj)
	}
	u := &unstructured.Unstructured{}
	var buf bytes.Buffer
	err := u.UnmarshalJSON(obj.JSON())
	if err == nil {
		err = p.objects.PrintObj(u, &buf)
	}
	if err != nil {
		io.WriteString(p.stderr, "error: "+o.Ref.Quoted()+" ("+o.Object.Source+"): cannot print the object: "+oneLine(err.Error())+"\n")
		if p.code == command.ExitOK {
			p.code = command.ExitFailed
		}
		return
	}
	p.stdout.Write(buf.Bytes())
}

// finish ends the progress bar, if any.
func (p *applyPrinter) finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bar != nil {
		p.bar.finish()
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
