package cli

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/plyproject/ply/cmd/internal/command"
)

// PluginName is how kubectl runs the plugin binary kubectl-ply.
const PluginName = "kubectl ply"

// CompletionProgram is the name under which kubectl-ply completes its
// arguments: kubectl runs kubectl_complete-ply (found on PATH; a link to
// kubectl-ply) with the words after "kubectl ply" to complete them, and
// reads the completions one a line and cobra's ":<directive>" last.
const CompletionProgram = "kubectl_complete-ply"

const pluginLong = `kubectl ply applies Kubernetes manifests with ply's three-way merge.

apply and diff take kubectl's flags (-f, -R, -n, --context, --kubeconfig and
every other connection flag), --compat=kubectl (compute exactly what kubectl
apply computes: every feature gate off) and --feature-gates=Name=true|false,...`

// NewRoot returns the command tree of the cluster commands run as name
// ("kubectl ply", or "ply" when ply runs them): apply, diff, version, help
// and completion.
func NewRoot(name, long string) *cobra.Command {
	return command.NewRoot(name, long, newApplyCommand(name), newDiffCommand(name))
}

// NewPluginRoot returns the command tree of the kubectl plugin kubectl-ply.
func NewPluginRoot() *cobra.Command { return NewRoot(PluginName, pluginLong) }

// Plugin is the main of kubectl-ply: it runs the command of args (the
// arguments after the program name) and returns the exit code. Invoked
// as "ply" (program, the base name of its argv[0], as ply runs it for
// apply and diff), the commands speak as ply's: "Run 'ply apply -h'".
// Invoked as kubectl_complete-ply (CompletionProgram), it prints the
// completions of args, as cobra's __complete does.
func Plugin(program string, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	root := NewPluginRoot()
	if program == "ply" {
		root = NewRoot("ply", "ply's cluster commands, which ply runs through kubectl-ply.")
	}
	if program == CompletionProgram {
		args = append([]string{cobra.ShellCompRequestCmd}, args...)
	}
	routeKlog(&warningWriter{w: stderr})
	return command.Main(root, args, stdin, stdout, stderr)
}
