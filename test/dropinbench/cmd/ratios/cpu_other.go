//go:build !unix

package main

import (
	"errors"
	"time"
)

// processCPU is not measured on this system: -cpu needs getrusage.
func processCPU() (time.Duration, error) {
	return 0, errors.New("-cpu measures getrusage's CPU time, which this system lacks")
}
