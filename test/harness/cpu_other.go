//go:build unix && !linux

package harness

import (
	"errors"
	"time"
)

// CPU returns the CPU time of the server's processes; it reads
// /proc/PID/stat, which only Linux has.
func (s *Server) CPU() (apiserver, etcd time.Duration, err error) {
	return 0, 0, errors.New("harness: CPU times are read from /proc, which only Linux has")
}
