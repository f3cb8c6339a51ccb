package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

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
}

// WithGatesHelp appends the feature gates' section to the help of c.
func WithGatesHelp(c *cobra.Command) *cobra.Command {
	c.SetUsageTemplate(c.UsageTemplate() + GatesHelp())
	return c
}

const applyLong = `Applies the objects of the manifests to the cluster with ply's three-way
merge of the configuration last applied (the
kubectl.kubernetes.io/last-applied-configuration annotation, written in
kubectl's format), the manifest and the live object. Namespaces and
CustomResourceDefinitions are applied first. One line per object, in input
order: "deployment.apps/web created|configured|unchanged".

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

  # Compute exactly what kubectl apply computes
  %[1]s apply -f web.yaml --compat=kubectl`

func newApplyCommand(name string) *cobra.Command {
	var f applyFlags
	c := &cobra.Command{
		Use:         "apply -f FILENAME",
		Short:       "Apply manifests to the cluster (kubectl's last-applied format)",
		Long:        applyLong,
		Example:     fmt.Sprintf(applyExample, name),
		Args:        NoArgs,
		Annotations: map[string]string{styleAnnotation: "true"},
		RunE: RunE(func(c *cobra.Command, _ []string) int {
			return applyMain(c, &f)
		}),
	}
	fs := c.Flags()
	f.register(fs)
	fs.StringVar(&f.dryRun, "dry-run", "none", "none, client (compute, send nothing) or server (the server validates, persists nothing)")
	fs.IntVar(&f.maxAttempts, "max-attempts", cluster.DefaultMaxAttempts, "the attempts per object when writes conflict with concurrent writers")
	fs.BoolVar(&f.progress, "progress", false, "report progress on standard error (default: when more than "+
		strconv.Itoa(ProgressThreshold)+" objects and standard error is a terminal)")
	return WithGatesHelp(c)
}

// applyMain is the apply command's main.
func applyMain(c *cobra.Command, f *applyFlags) int {
	stdin, stdout, stderr := c.InOrStdin(), c.OutOrStdout(), c.ErrOrStderr()
	opts, err := f.options(c)
	if err != nil {
		return UsageError(c, err.Error())
	}
	if opts.DryRun, err = cluster.ParseDryRun(f.dryRun); err != nil {
		return UsageError(c, err.Error())
	}
	if f.maxAttempts < 1 {
		return UsageError(c, "--max-attempts must be at least 1, not "+strconv.Itoa(f.maxAttempts))
	}
	opts.MaxAttempts = f.maxAttempts

	objs, err := cluster.ReadObjects(f.files, f.recursive, stdin)
	if err != nil {
		return inputErrors(stderr, err)
	}
	if len(objs) == 0 {
		io.WriteString(stderr, "error: no objects passed to apply\n")
		return ExitFailed
	}
	if f.progress || (len(objs) > ProgressThreshold && isTerminal(stderr)) {
		opts.Progress = stderr
	}
	cl, err := f.client(opts)
	if err != nil {
		io.WriteString(stderr, "error: "+oneLine(err.Error())+"\n")
		return ExitFailed
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	outs := cl.Apply(ctx, objs)
	return reportApply(outs, opts.DryRun, stdout, stderr)
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

// reportApply prints the outcomes in order and returns the exit code.
func reportApply(outs []cluster.Outcome, dry cluster.DryRun, stdout, stderr io.Writer) int {
	code := ExitOK
	var sb, eb strings.Builder
	suffix := dryRunSuffix(dry)
	for _, o := range outs {
		for _, w := range o.Warnings {
			eb.WriteString("Warning: " + o.Ref.String() + " (" + o.Object.Source + "): " + oneLine(w) + "\n")
		}
		if o.Action == cluster.Failed {
			eb.WriteString("error: " + o.Ref.Quoted() + " (" + o.Object.Source + "): " + oneLine(errString(o.Err)) + "\n")
			var ce *apply.ConflictError
			switch {
			case errors.As(o.Err, &ce):
				code = ExitConflict
			case code == ExitOK:
				code = ExitFailed
			}
			continue
		}
		sb.WriteString(o.Ref.String() + " " + o.Action.String() + suffix + "\n")
	}
	io.WriteString(stdout, sb.String())
	io.WriteString(stderr, eb.String())
	return code
}

// errString is err's message, or a placeholder for a nil error.
func errString(err error) string {
	if err == nil {
		return "failed"
	}
	return err.Error()
}

// inputErrors prints each line of err as an error and returns ExitFailed.
func inputErrors(stderr io.Writer, err error) int {
	var sb strings.Builder
	for _, l := range strings.Split(err.Error(), "\n") {
		if l != "" {
			sb.WriteString("error: " + l + "\n")
		}
	}
	io.WriteString(stderr, sb.String())
	return ExitFailed
}
