// Command kubectl-ply is ply's cluster commands as a kubectl plugin: with
// the binary on PATH, "kubectl ply apply -f DIR" and "kubectl ply diff -f
// DIR" behave as "ply apply" and "ply diff" (same command tree, flags,
// output and exit codes: cmd/internal/cli), with version and completion.
package main

import (
	"os"

	"github.com/plyproject/ply/cmd/internal/cli"
)

func main() {
	os.Exit(cli.Plugin(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
