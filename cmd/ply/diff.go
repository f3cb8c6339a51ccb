package main

import (
	"io"

	"github.com/plyproject/ply/cmd/internal/cli"
)

// runDiff is ply diff (see cli.Diff).
func runDiff(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return cli.Diff("ply", args, stdin, stdout, stderr)
}
