package main

import (
	"io"

	"github.com/plyproject/ply/cmd/internal/cli"
)

// runApply is ply apply (see cli.Apply).
func runApply(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return cli.Apply("ply", args, stdin, stdout, stderr)
}
