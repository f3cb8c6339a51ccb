package harness

import (
	"errors"
	"os"
	"strconv"
	"strings"
	"time"
)

// clockTicks is the unit of the CPU times in /proc/PID/stat (USER_HZ),
// 100 on every Linux architecture Go supports.
const clockTicks = 100

// CPU returns the CPU time (user and system) the running kube-apiserver
// and etcd processes have used since they started, read from
// /proc/PID/stat; a benchmark subtracts two readings to charge a run with
// the server's work. RestartAPIServer and RestartEtcd start the count
// again.
func (s *Server) CPU() (apiserver, etcd time.Duration, err error) {
	s.mu.Lock()
	api, db := s.apiserver, s.etcd
	s.mu.Unlock()
	if api == nil || db == nil || api.exited() || db.exited() {
		return 0, 0, errors.New("harness: the server is not running")
	}
	if apiserver, err = processCPU(api.cmd.Process.Pid); err != nil {
		return 0, 0, err
	}
	etcd, err = processCPU(db.cmd.Process.Pid)
	return apiserver, etcd, err
}

// processCPU returns utime+stime of process pid.
func processCPU(pid int) (time.Duration, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, err
	}
	// The command name (field 2) is in parentheses and may hold spaces:
	// the fields after its closing parenthesis start with field 3.
	end := strings.LastIndexByte(string(b), ')')
	if end < 0 {
		return 0, errors.New("harness: cannot read /proc/" + strconv.Itoa(pid) + "/stat")
	}
	f := strings.Fields(string(b[end+1:]))
	if len(f) < 13 {
		return 0, errors.New("harness: cannot read /proc/" + strconv.Itoa(pid) + "/stat")
	}
	var ticks int64
	for _, s := range f[11:13] { // utime and stime, fields 14 and 15
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return 0, errors.New("harness: cannot read /proc/" + strconv.Itoa(pid) + "/stat: " + err.Error())
		}
		ticks += n
	}
	return time.Duration(ticks) * time.Second / clockTicks, nil
}
