package cli

import (
	"io"

	"github.com/spf13/cobra"
)

// PluginName is how kubectl runs the plugin binary kubectl-ply.
const PluginName = "kubectl ply"

const pluginLong = `kubectl ply applies Kubernetes manifests with ply's three-way merge.

apply and diff take kubectl's flags (-f, -R, -n, --context, --kubeconfig and
every other connection flag), --compat=kubectl (compute exactly what kubectl
apply computes: every feature gate off) and --feature-gates=Name=true|false,...`

// NewPluginRoot returns the command tree of the kubectl plugin kubectl-ply:
// apply, diff, version, help and completion, as ply's.
func NewPluginRoot() *cobra.Command { return NewRoot(PluginName, pluginLong) }

// Plugin is the main of the kubectl plugin kubectl-ply: it runs the
// command of args (the arguments after the program name) and returns the
// exit code.
func Plugin(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return Main(NewPluginRoot(), args, stdin, stdout, stderr)
}
