//go:build !unix

package main

import (
	"io"
	"os"
)

// openInput opens the input file path for one whole read.
func openInput(path string) (io.ReadCloser, error) { return os.Open(path) }
