// Package command is the root of ply's and kubectl-ply's command trees, on
// cobra and pflag: NewRoot (with version, help and completion), Main, which
// runs a tree and returns the exit code of the one table in root.go, the
// helpers commands are built with (Command, RunE, NoArgs, UsageError), the
// feature-gate flags (GateFlags: --feature-gates, --compat) and what ply
// lists of the cluster commands (Apply, Diff). It links no cluster client:
// ply's file commands are built on it alone.
package command
