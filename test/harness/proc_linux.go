package harness

import "syscall"

// sysProcAttr puts a child in its own process group (so that kill reaches
// its children too) and has the kernel SIGKILL it when the test process
// dies.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
