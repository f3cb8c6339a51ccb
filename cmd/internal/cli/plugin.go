package cli

import (
	"io"
	"runtime/debug"
)

// PluginName is how kubectl runs the plugin binary kubectl-ply.
const PluginName = "kubectl ply"

const pluginUsage = `kubectl ply applies Kubernetes manifests with ply's three-way merge.

Usage:
  kubectl ply apply -f FILE|DIR|- [flags]   apply manifests to the cluster
  kubectl ply diff -f FILE|DIR|- [flags]    show what apply would change
  kubectl ply version                       print version information
  kubectl ply help                          print this help

apply and diff take --compat=kubectl (compute exactly what kubectl apply
computes: every feature gate off) and --feature-gates=Name=true|false,...

Run 'kubectl ply apply -h' for apply's flags and the feature gates.
`

// Plugin is the main of the kubectl plugin kubectl-ply: it runs the
// command of args (the arguments after the program name) and returns the
// exit code. Its commands behave as ply's of the same name.
func Plugin(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		io.WriteString(stderr, pluginUsage)
		return ExitUsage
	}
	cmd, rest := args[0], args[1:]
	switch cmd {
	case "apply":
		return Apply(PluginName, rest, stdin, stdout, stderr)
	case "diff":
		return Diff(PluginName, rest, stdin, stdout, stderr)
	case "version":
		version := "(devel)"
		if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
			version = bi.Main.Version
		}
		io.WriteString(stdout, "kubectl-ply "+version+"\n")
		return ExitOK
	case "help", "-h", "-help", "--help":
		io.WriteString(stdout, pluginUsage)
		return ExitOK
	}
	io.WriteString(stderr, "kubectl ply: unknown command \""+cmd+"\"\n\n"+pluginUsage)
	return ExitUsage
}
