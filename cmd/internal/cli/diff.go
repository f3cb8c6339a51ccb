package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"

	"github.com/spf13/cobra"

	"github.com/plyproject/ply/pkg/cluster"
)

// diffFlags are the flags of diff.
type diffFlags struct {
	commonFlags
	changes bool
}

const diffLong = `Shows, as unified diffs of the live objects against the merged ones (YAML,
without managedFields), what apply would change; nothing is written.

Exit codes (kubectl diff's): 0 no differences, 1 differences, 2 error.`

const diffExample = `  # What applying a folder would change
  %[1]s diff -Rf manifests/

  # The same, with the changed fields and what decided each
  %[1]s diff -f web.yaml --changes`

func newDiffCommand(name string) *cobra.Command {
	var f diffFlags
	c := &cobra.Command{
		Use:         "diff -f FILENAME",
		Short:       "Show what apply would change (exit 1: differences)",
		Long:        diffLong,
		Example:     fmt.Sprintf(diffExample, name),
		Args:        NoArgs,
		Annotations: map[string]string{styleAnnotation: "true"},
		RunE: RunE(func(c *cobra.Command, _ []string) int {
			return diffMain(c, &f)
		}),
	}
	fs := c.Flags()
	f.register(fs)
	fs.BoolVar(&f.changes, "changes", false, "before each diff, list the changed fields and what decided each (\"# path: op, reason\")")
	return WithGatesHelp(c)
}

// diffMain is the diff command's main; it returns DiffNone, DiffChanges or
// DiffError.
func diffMain(c *cobra.Command, f *diffFlags) int {
	stdin, stdout, stderr := c.InOrStdin(), c.OutOrStdout(), c.ErrOrStderr()
	opts, err := f.options(c)
	if err != nil {
		return UsageError(c, err.Error())
	}
	opts.DryRun = cluster.DryRunClient
	objs, err := cluster.ReadObjects(f.files, f.recursive, stdin)
	if err != nil {
		inputErrors(stderr, err)
		return DiffError
	}
	cl, err := f.client(opts)
	if err != nil {
		io.WriteString(stderr, "error: "+oneLine(err.Error())+"\n")
		return DiffError
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	res, err := cl.Diff(ctx, objs)
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
