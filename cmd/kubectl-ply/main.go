// Command kubectl-ply is ply's cluster commands as a kubectl plugin: with
// the binary on PATH, "kubectl ply apply -f DIR" and "kubectl ply diff -f
// DIR" behave as "ply apply" and "ply diff" (same command tree, flags,
// output and exit codes: cmd/internal/cli), with version and completion.
// ply runs it for apply and diff, as "ply" (argv[0]), so that ply's own
// binary links no cluster client (cmd/ply).
package main

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/plyproject/ply/cmd/internal/cli"
)

func main() {
	program := strings.TrimSuffix(filepath.Base(os.Args[0]), ".exe")
	os.Exit(cli.Plugin(program, os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
