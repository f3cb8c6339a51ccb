//go:build unix && !linux

package harness

import "syscall"

// sysProcAttr puts a child in its own process group so that kill reaches
// its children too. Only Linux also kills children when the test process
// dies (Pdeathsig); elsewhere call Stop or StopAll.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
