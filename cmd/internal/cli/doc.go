// Package cli implements the cluster commands of ply, apply and diff, for
// both front ends: the ply command (ply apply, ply diff) and the kubectl
// plugin kubectl-ply (kubectl ply apply, kubectl ply diff). Each command is
// a function of its arguments and standard streams returning the exit
// code, so the front ends only dispatch. GateFlags (--feature-gates,
// --compat) and GatesHelp are shared with ply's file commands too.
//
// Exit codes of apply: 0 every object applied, 1 an object failed or the
// input is bad, 2 usage error, 3 an object conflicts with changes made on
// the server (--overwrite=false). Exit codes of diff, as kubectl diff: 0 no
// differences, 1 differences, 2 an error (usage, input, server).
package cli
