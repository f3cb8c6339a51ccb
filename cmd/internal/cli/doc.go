// Package cli is the cluster commands, apply and diff, on cobra and pflag:
// the command tree of the kubectl plugin kubectl-ply (NewRoot, Plugin),
// which ply runs for them too (cmd/ply). The tree's root, its exit codes,
// version and the feature-gate flags are package command's, shared with
// ply's file commands. apply and diff take kubectl's connection flags
// through k8s.io/cli-runtime's ConfigFlags (package kubeflags), kubectl's
// input flags (-f FILE|DIR|URL|-, -R, -k, -l) and mask Secrets unless
// --show-secrets.
//
// Exit codes of apply: 0 every object applied, 1 an object failed or the
// input is bad, 2 usage error, 3 an object conflicts with changes made on
// the server (--overwrite=false). Exit codes of diff, as kubectl diff: 0 no
// differences, 1 differences, 2 an error (usage, input, server).
package cli
