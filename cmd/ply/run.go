package main

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"slices"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/plyproject/ply/cmd/internal/command"
)

// Exit codes of ply (command's one table).
const (
	exitOK       = command.ExitOK
	exitInput    = command.ExitFailed   // bad input: unreadable file, parse or schema error, invalid object
	exitUsage    = command.ExitUsage    // unknown command or flag, missing required flag
	exitConflict = command.ExitConflict // local conflicts with changes made on the server
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

// clusterProgram is the binary that holds the cluster commands: ply runs
// it for them, so that ply itself links no cluster client (client-go,
// cli-runtime, kustomize, kstatus) and `ply merge` and `ply patch` start
// without initialising them.
const clusterProgram = "kubectl-ply"

// clusterCommands are the commands ply runs through clusterProgram.
var clusterCommands = []command.Summary{command.Apply, command.Diff}

// newRoot returns ply's command tree: merge and patch, version, help and
// completion, and apply and diff as entries that list them in the help
// and run clusterProgram (run sends their arguments there before cobra
// sees them). When args (the arguments after the program name) run merge
// or patch, the tree holds that one alone besides version and help: nothing
// the command prints lists root's commands (command.Main leaves out
// completion alike), and `ply merge` then builds no flag set of patch's
// three commands.
func newRoot(args []string, stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	only := ""
	if len(args) > 0 && (args[0] == "merge" || args[0] == "patch") {
		only = args[0]
	}
	var cmds []*cobra.Command
	if only != "patch" {
		cmds = append(cmds, newMergeCommand())
	}
	if only != "merge" {
		cmds = append(cmds, newPatchCommand())
	}
	if only != "" {
		return command.NewRoot("ply", long, cmds...)
	}
	for _, s := range clusterCommands {
		cmds = append(cmds, &cobra.Command{
			Use: s.Use, Short: s.Short, DisableFlagParsing: true,
			RunE: command.RunE(func(c *cobra.Command, args []string) int {
				return runCluster(append([]string{c.Name()}, args...), stdin, stdout, stderr)
			}),
		})
	}
	return command.NewRoot("ply", long, cmds...)
}

// run is ply's main: it runs the command of args (the arguments after the
// program name) and returns the exit code. It never panics: a panic is
// reported as an internal error with exit code 1.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if cluster, name := forCluster(args); name != "" {
		return runCluster(cluster, stdin, stdout, stderr)
	}
	return command.Main(newRoot(args, stdin, stdout, stderr), args, stdin, stdout, stderr)
}

// forCluster returns, when args run a cluster command, its help or the
// completion of its arguments ("apply ...", "help apply", "-h apply",
// "__complete apply ..."), the arguments to run clusterProgram with and
// the command's name; else name is "". The completion of a command's name
// stays ply's, which lists them all. A help flag before the command goes
// after it ("-h apply" is "apply -h"), where cobra reads it as help for
// the command.
func forCluster(args []string) (cluster []string, name string) {
	lead := 0
	for lead < len(args) && (args[lead] == "-h" || args[lead] == "--help") {
		lead++
	}
	rest := args[lead:]
	if len(rest) == 0 {
		return nil, ""
	}
	name = rest[0]
	switch name {
	case "help":
		if len(rest) < 2 {
			return nil, ""
		}
		name = rest[1]
	case cobra.ShellCompRequestCmd, cobra.ShellCompNoDescRequestCmd:
		if lead > 0 || len(rest) < 3 {
			return nil, ""
		}
		name = rest[1]
	}
	for _, s := range clusterCommands {
		if s.Name() == name {
			return append(slices.Clone(rest), args[:lead]...), name
		}
	}
	return nil, ""
}

// failed is the exit code of a cluster command that could not run: diff's
// error code for diff (1 means differences there), else ExitFailed.
func failed(args []string) int {
	if _, name := forCluster(args); name == command.Diff.Name() {
		return command.DiffError
	}
	return command.ExitFailed
}

// execCluster replaces ply by clusterProgram run with args as ply's,
// where the system can (Unix): the cluster command then has ply's process,
// streams and signals as they are. It returns only when it could not, and
// run then starts clusterProgram as a child (or reports why it cannot).
func execCluster(args []string) {
	if path, err := findCluster(); err == nil {
		syscall.Exec(path, append([]string{"ply"}, args...), os.Environ())
	}
}

// runCluster runs clusterProgram with args as ply's (argv[0] "ply"), with
// the given streams, and returns its exit code. An interrupt (SIGINT)
// reaches it from the terminal with ply's, so ply only outlives it; a
// termination request (SIGTERM) sent to ply is passed on.
func runCluster(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	path, err := findCluster()
	if err != nil {
		io.WriteString(stderr, "ply: "+err.Error()+"\n")
		return failed(args)
	}
	cmd := &exec.Cmd{Path: path, Args: append([]string{"ply"}, args...), Stdin: stdin, Stdout: stdout, Stderr: stderr}
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(signals)
	if err := cmd.Start(); err != nil {
		io.WriteString(stderr, "ply: cannot run "+path+": "+err.Error()+"\n")
		return failed(args)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	for {
		select {
		case s := <-signals:
			if s == syscall.SIGTERM {
				cmd.Process.Signal(s)
			}
		case err := <-done:
			if code := exitCodeOf(err); code >= 0 {
				return code
			}
			return failed(args)
		}
	}
}

// exitCodeOf returns the exit code of a program that ended with err (from
// exec.Cmd.Wait); killed by a signal, the shell's code for it; -1 when err
// is not the program's exit.
func exitCodeOf(err error) int {
	var ee *exec.ExitError
	switch {
	case err == nil:
		return command.ExitOK
	case !errors.As(err, &ee):
		return -1
	case ee.ExitCode() >= 0:
		return ee.ExitCode()
	}
	if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return -1
}

// findCluster returns clusterProgram's path: beside ply's own binary (the
// two are built and installed together), else on PATH.
func findCluster() (string, error) {
	name := clusterProgram
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	if self, err := os.Executable(); err == nil {
		if self, err = filepath.EvalSymlinks(self); err == nil {
			p := filepath.Join(filepath.Dir(self), name)
			if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
				return p, nil
			}
		}
	}
	p, err := exec.LookPath(name)
	if errors.Is(err, exec.ErrNotFound) || errors.Is(err, fs.ErrNotExist) {
		return "", errors.New("the cluster commands (apply, diff) are " + clusterProgram + "'s, which is neither beside ply nor on PATH: " +
			"install it with ply (go install github.com/plyproject/ply/cmd/...)")
	}
	return p, err
}
