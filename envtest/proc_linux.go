package envtest

import (
	"os"
	"strconv"
	"strings"
	"syscall"
)

// sysProcAttr puts a server in its own process group and has the kernel
// kill it when the test process dies, however it dies.
//
// The parent-death signal is tied to the OS thread that started the
// child, not to the process; the Go runtime only ends threads that a
// goroutine locked and did not unlock, which this package never does.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// procStart returns the start time of a live process (field 22 of
// /proc/PID/stat, in clock ticks since boot), which together with the pid
// identifies the process: a pid reused by another process has another
// start time.
func procStart(pid int) (string, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return "", false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')') // the command name may hold spaces
	if i < 0 {
		return "", false
	}
	f := strings.Fields(s[i+1:]) // f[0] is field 3 (state)
	if len(f) < 20 {
		return "", false
	}
	if f[0] == "Z" {
		return "", false // a zombie is as good as gone
	}
	return f[19], true
}
