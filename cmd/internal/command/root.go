package command

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
)

// Exit codes of every command of ply and kubectl-ply: the one table.
const (
	ExitOK       = 0
	ExitFailed   = 1 // bad input, or an object failed (diff: differences found)
	ExitUsage    = 2 // usage error: unknown command or flag, bad flag value (diff: any error)
	ExitConflict = 3 // a conflict with changes made on the server (--overwrite=false)
)

// Exit codes of diff, as kubectl diff's: the table above read for diff.
const (
	DiffNone    = ExitOK     // no differences
	DiffChanges = ExitFailed // differences found
	DiffError   = ExitUsage  // usage error, bad input, or an object could not be diffed
)

// exitCode is the error of a command that has printed its messages: Main
// returns the code.
type exitCode int

func (e exitCode) Error() string { return "exit code " + strconv.Itoa(int(e)) }

// RunE adapts a command's main, which prints its messages and returns an
// exit code, to cobra.
func RunE(run func(c *cobra.Command, args []string) int) func(*cobra.Command, []string) error {
	return func(c *cobra.Command, args []string) error {
		if code := run(c, args); code != ExitOK {
			return exitCode(code)
		}
		return nil
	}
}

// Command returns a command that takes flags only, whose main is run:
// use and short name and summarise it, long and example are its help.
func Command(use, short, long, example string, run func(c *cobra.Command) int) *cobra.Command {
	return &cobra.Command{
		Use: use, Short: short, Long: long, Example: example,
		Args: NoArgs,
		RunE: RunE(func(c *cobra.Command, _ []string) int { return run(c) }),
	}
}

// NoArgs is the argument check of commands that take flags only.
func NoArgs(_ *cobra.Command, args []string) error {
	if len(args) > 0 {
		return errors.New("unexpected argument " + strconv.Quote(args[0]))
	}
	return nil
}

// KubectlErrors is the annotation that marks the commands whose usage
// errors read as kubectl's ("error: <message>"); the others print
// "<command>: <message>".
const KubectlErrors = "ply/kubectl-errors"

// UsageError prints a usage error of c, in its style, followed by the hint
// to run c -h, and returns ExitUsage.
func UsageError(c *cobra.Command, msg string) int {
	name := c.CommandPath()
	prefix := name + ": "
	if c.Annotations[KubectlErrors] != "" {
		prefix = "error: "
	}
	io.WriteString(c.ErrOrStderr(), prefix+msg+"\nRun '"+name+" -h' for usage.\n")
	return ExitUsage
}

// Main runs root with args (the arguments after the program name) and the
// given streams, and returns the exit code: a command's own, ExitUsage for
// errors cobra finds (unknown flag, missing flag value, bad argument), 1 for
// a panic, which is reported as an internal error.
func Main(root *cobra.Command, args []string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "%s: internal error: %v\n", root.CommandPath(), r)
			code = ExitFailed
		}
	}()
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	if runsOwnCommand(root, args) {
		root.CompletionOptions.DisableDefaultCmd = true
	} else {
		initCompletion(root)
	}
	c, err := root.ExecuteC()
	var ec exitCode
	switch {
	case err == nil:
		return ExitOK
	case errors.As(err, &ec):
		return int(ec)
	}
	return UsageError(c, err.Error())
}

// Summary is what a command tree lists of one of its commands.
type Summary struct{ Use, Short string }

// Name is the command's name: the first word of its use line.
func (s Summary) Name() string { return strings.Fields(s.Use)[0] }

// The cluster commands: kubectl-ply's (package cli), which ply lists in its
// help and runs through kubectl-ply (cmd/ply).
var (
	Apply = Summary{"apply -f FILENAME", "Apply manifests to the cluster (kubectl's last-applied format)"}
	Diff  = Summary{"diff -f FILENAME", "Show what apply would change (exit 1: differences)"}
)

// NewRoot returns the root of a front end's command tree: name is how the
// user runs it ("ply", "kubectl ply"), long its overview, and cmds its
// commands besides version, help and completion (bash, zsh, fish,
// powershell), which every tree has.
func NewRoot(name, long string, cmds ...*cobra.Command) *cobra.Command {
	root := newRoot(name, long, cmds...)
	root.AddCommand(newVersionCommand(name))
	return root
}

// newRoot returns the root of NewRoot, holding cmds.
func newRoot(name, long string, cmds ...*cobra.Command) *cobra.Command {
	root := &cobra.Command{
		Use:           strings.ReplaceAll(name, " ", "-"),
		Short:         strings.SplitN(long, "\n", 2)[0],
		Long:          long,
		Args:          cobra.ArbitraryArgs,
		SilenceErrors: true,
		SilenceUsage:  true,
		Annotations:   map[string]string{cobra.CommandDisplayNameAnnotation: name},
		RunE: RunE(func(c *cobra.Command, args []string) int {
			w := c.ErrOrStderr()
			if len(args) > 0 {
				io.WriteString(w, name+": unknown command "+strconv.Quote(args[0])+"\n\n")
			}
			c.SetOut(w)
			c.Help()
			return ExitUsage
		}),
	}
	root.AddCommand(cmds...)
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error { return err })
	root.SetHelpCommand(&cobra.Command{
		Use:   "help [command]",
		Short: "Help about any command",
		Long:  "Help prints the help of any command: its flags, examples and exit codes.",
		RunE: RunE(func(c *cobra.Command, args []string) int {
			target, rest, err := c.Root().Find(args)
			if err != nil || len(rest) > 0 {
				topic := strings.Join(args, " ")
				io.WriteString(c.ErrOrStderr(), name+" help: unknown topic "+strconv.Quote(topic)+"\n\n")
				root.SetOut(c.ErrOrStderr())
				root.Help()
				return ExitUsage
			}
			target.Help()
			return ExitOK
		}),
	})
	return root
}

// runsOwnCommand reports whether args run one of the commands root was
// built with (merge, patch apply, version...), not root itself, help or
// completion. Nothing such a command prints lists root's commands, so Main
// does not build cobra's completion command (five commands and their help
// texts) for it: the start-up of ply merge and ply patch apply pays for
// what they use.
func runsOwnCommand(root *cobra.Command, args []string) bool {
	if len(args) == 0 {
		return false
	}
	for _, c := range root.Commands() {
		if c.Name() == args[0] || c.HasAlias(args[0]) {
			return c.Name() != "help" && c.Name() != "completion"
		}
	}
	return false
}

// initCompletion adds cobra's completion command to root, once its streams
// are set (the command writes the scripts to the output it finds then),
// making a missing or unknown shell a usage error where cobra prints the
// help and exits 0.
func initCompletion(root *cobra.Command) {
	root.InitDefaultCompletionCmd()
	for _, c := range root.Commands() {
		if c.Name() == "completion" {
			// cobra's completion command prints its help for an unknown
			// shell and exits 0; here that is a usage error.
			c.Args = cobra.ArbitraryArgs
			c.RunE = RunE(func(c *cobra.Command, args []string) int {
				if len(args) == 0 {
					return UsageError(c, "missing shell, want bash, zsh, fish or powershell")
				}
				return UsageError(c, "unknown shell "+strconv.Quote(args[0])+", want bash, zsh, fish or powershell")
			})
		}
	}
}
