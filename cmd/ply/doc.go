// Command ply is the command-line front end of ply's three-way apply
// engine.
//
//	ply merge --local F [--recorded F] --live F [--schema F]... [--type NAME]
//	          [--overwrite=false] [--ordering seed|kubectl] [-o yaml|json] [--changes]
//	          [--compat=kubectl] [--feature-gates=Name=true|false,...]
//
// merge reads the configuration applied last time (recorded), the one
// applied now (local) and the object on the server (live), and prints what
// the server should hold after the apply. Each file holds one YAML or JSON
// document; "-" reads one of them from standard input. Without --recorded
// (or with an empty or null one) the apply is a first apply; an empty or
// null live means the object does not exist yet.
//
// --schema, repeatable, names a file or folder of OpenAPI v2 JSON, OpenAPI
// v3 JSON or CustomResourceDefinition manifests ("-": standard input); a
// kind resolves from the first that defines it, then from the embedded
// Kubernetes schema.
//
// --compat=kubectl turns every feature gate off, so that ply computes what
// kubectl computes (list order, one-field merge keys read as kubectl reads
// them, ...); --feature-gates=Name=true|false,... sets single gates, on top
// of --compat (see package features; each command's help lists the
// gates). A bad gate name or value, and --ordering seed with SeedOrdering
// off, are usage errors. Every command below takes both flags.
//
// Exit codes: 0 success, 1 bad input (unreadable or malformed file, bad
// schema, invalid object) with a one-line message naming the input and
// field path, 2 usage errors, 3 conflicts with changes made on the server
// (only with --overwrite=false), one conflicting path per line.
//
// The strategic merge patch commands work on files too:
//
//	ply patch apply --live F --patch F [--schema F]... [--type NAME] [--ordering seed|kubectl] [-o yaml|json]
//	ply patch create --original F --modified F [--current F] [--overwrite=false] [--schema F]... [--type NAME] [-o yaml|json]
//
// patch apply prints live with the patch applied (every directive of the
// format, see pkg/patch); patch create prints the two-way patch from
// original to modified, or with --current kubectl apply's three-way patch
// (see pkg/patchgen). Same exit codes as merge.
//
// The cluster commands are the kubectl-ply plugin's (cmd/internal/cli):
// ply runs kubectl-ply, found beside ply's own binary or else on PATH, for
// them (and for their help and the completion of their arguments), under
// ply's name and with ply's streams and exit codes, so that ply's binary
// links no cluster client and merge and patch start without initialising
// one. They apply manifests to a cluster and show what an apply would
// change, with kubectl's flags (every connection flag of
// k8s.io/cli-runtime's ConfigFlags):
//
//	ply apply -f FILE|DIR|URL|- [-R] | -k DIR [-l SELECTOR] [-n NS] [-o name|json|yaml]
//	          [--dry-run=none|client|server] [--overwrite=false] [--ordering seed|kubectl]
//	          [--workers N] [--field-manager NAME] [--show-secrets]
//	ply diff -f FILE|DIR|URL|- [...] [--server-side=false] [--changes] [--color=auto|always|never]
//
// The command tree's root is cmd/internal/command's (cobra and pflag),
// shared with kubectl-ply. ply help, ply COMMAND -h, ply version [-o json] and ply
// completion bash|zsh|fish|powershell print help, version information and
// shell completion scripts.
package main
