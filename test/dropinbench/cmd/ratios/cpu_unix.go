//go:build unix

package main

import (
	"syscall"
	"time"
)

// processCPU is the user and system time the process has used, all its threads included.
func processCPU() (time.Duration, error) {
	var r syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &r); err != nil {
		return 0, err
	}
	return time.Duration(r.Utime.Nano() + r.Stime.Nano()), nil
}
