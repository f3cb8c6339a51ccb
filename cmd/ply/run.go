package main

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/plyproject/ply/cmd/internal/cli"
)

// Exit codes of ply (cli's one table).
const (
	exitOK       = cli.ExitOK
	exitInput    = cli.ExitFailed   // bad input: unreadable file, parse or schema error, invalid object
	exitUsage    = cli.ExitUsage    // unknown command or flag, missing required flag
	exitConflict = cli.ExitConflict // local conflicts with changes made on the server
)

const long = `ply computes Kubernetes three-way applies.

  ply merge --local F [--recorded F] --live F [flags]   print the merged object
  ply patch apply --live F --patch F [flags]           print live with a strategic merge patch applied
  ply patch create --original F --modified F [--current F] [flags]
                                                       print the two-way (or three-way) strategic merge patch
  ply apply -f FILE|DIR|URL|- [flags]                  apply manifests to the cluster (kubectl's last-applied format)
  ply diff -f FILE|DIR|URL|- [flags]                   show what apply would change (exit 1: differences)

merge, patch, apply and diff take --compat=kubectl (compute exactly what kubectl
computes: every feature gate off) and --feature-gates=Name=true|false,... (one
gate at a time, on top of --compat; the gates are listed in each command's help).`

// newRoot returns ply's command tree: cli's (apply, diff, version, help,
// completion) with merge and patch.
func newRoot() *cobra.Command {
	return cli.NewRoot("ply", long, newMergeCommand(), newPatchCommand())
}

// rootFor returns the command tree args need: for "ply merge ..." and
// "ply patch ...", which never talk to a cluster, a root holding that
// command alone (cli.NewLocalRoot: building apply's and diff's flags is
// most of the whole tree's cost, paid by every run); otherwise the whole
// tree. The commands come from the same constructors either way.
func rootFor(args []string) *cobra.Command {
	if len(args) > 0 {
		switch args[0] {
		case "merge":
			return cli.NewLocalRoot("ply", long, newMergeCommand())
		case "patch":
			return cli.NewLocalRoot("ply", long, newPatchCommand())
		}
	}
	return newRoot()
}

// run is ply's main: it runs the command of args (the arguments after the
// program name) and returns the exit code. It never panics: a panic is
// reported as an internal error with exit code 1.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return cli.Main(rootFor(args), args, stdin, stdout, stderr)
}
