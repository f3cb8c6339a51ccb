// Package cli is the command tree of both front ends, on cobra and pflag:
// the ply command and the kubectl plugin kubectl-ply build it with NewRoot
// (apply, diff, version, help, completion; ply adds merge and patch) and
// run it with Main, which returns the exit code of the one table below.
// apply and diff take kubectl's connection flags through
// k8s.io/cli-runtime's ConfigFlags (package kubeflags), kubectl's input flags (-f FILE|DIR|URL|-,
// -R, -k, -l) and mask Secrets unless --show-secrets. Command, RunE,
// NoArgs, UsageError, GateFlags (--feature-gates, --compat) and GatesHelp
// are shared with ply's file commands.
//
// Exit codes of apply: 0 every object applied, 1 an object failed or the
// input is bad, 2 usage error, 3 an object conflicts with changes made on
// the server (--overwrite=false). Exit codes of diff, as kubectl diff: 0 no
// differences, 1 differences, 2 an error (usage, input, server).
package cli
