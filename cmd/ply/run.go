package main

import (
	"fmt"
	"io"
	"runtime/debug"

	"github.com/plyproject/ply/openapi"
)

// Exit codes of ply.
const (
	exitOK       = 0
	exitInput    = 1 // bad input: unreadable file, parse or schema error, invalid object
	exitUsage    = 2 // unknown command or flag, missing required flag
	exitConflict = 3 // local conflicts with changes made on the server
)

const usage = `ply computes Kubernetes three-way applies.

Usage:
  ply merge --local F [--recorded F] --live F [flags]   print the merged object
  ply patch apply --live F --patch F [flags]           print live with a strategic merge patch applied
  ply patch create --original F --modified F [--current F] [flags]
                                                       print the two-way (or three-way) strategic merge patch
  ply apply -f FILE|DIR|- [flags]                      apply manifests to the cluster (kubectl's last-applied format)
  ply diff -f FILE|DIR|- [flags]                       show what apply would change (exit 1: differences)
  ply version                                          print version information
  ply help [merge|patch]                               print this help, or a command's

merge, patch, apply and diff take --compat=kubectl (compute exactly what kubectl
computes: every feature gate off) and --feature-gates=Name=true|false,... (one
gate at a time, on top of --compat; the gates are listed in each command's help).

Run 'ply merge -h', 'ply patch -h', 'ply apply -h' or 'ply diff -h' for their flags.
`

// run is ply's main: it runs the command of args (the arguments after the
// program name) and returns the exit code. It never panics: a panic is
// reported as an internal error with exit code 1.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "ply: internal error: %v\n", r)
			code = exitInput
		}
	}()
	if len(args) == 0 {
		io.WriteString(stderr, usage)
		return exitUsage
	}
	switch cmd, rest := args[0], args[1:]; cmd {
	case "merge":
		return runMerge(rest, stdin, stdout, stderr)
	case "patch":
		return runPatch(rest, stdin, stdout, stderr)
	case "apply":
		return runApply(rest, stdin, stdout, stderr)
	case "diff":
		return runDiff(rest, stdin, stdout, stderr)
	case "version":
		if len(rest) > 0 {
			fmt.Fprintf(stderr, "ply version: unexpected argument %q\n", rest[0])
			return exitUsage
		}
		return runVersion(stdout)
	case "help", "-h", "-help", "--help":
		switch {
		case len(rest) == 0:
			io.WriteString(stdout, usage)
			return exitOK
		case len(rest) == 1 && rest[0] == "merge":
			writeMergeUsage(stdout)
			return exitOK
		case len(rest) == 1 && rest[0] == "patch":
			writePatchUsage(stdout)
			return exitOK
		}
		fmt.Fprintf(stderr, "ply help: unknown topic %q\n\n%s", rest[0], usage)
		return exitUsage
	default:
		fmt.Fprintf(stderr, "ply: unknown command %q\n\n%s", cmd, usage)
		return exitUsage
	}
}

// runVersion prints ply's module version and the Kubernetes release of the
// embedded schema.
func runVersion(stdout io.Writer) int {
	version := "(devel)"
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		version = bi.Main.Version
	}
	fmt.Fprintf(stdout, "ply %s\nembedded schema: Kubernetes %s\n", version, openapi.DefaultKubernetesVersion)
	return exitOK
}
