//go:build unix && !linux

package envtest

import "syscall"

// sysProcAttr puts a server in its own process group. There is no
// parent-death signal outside Linux: a server of a test process that is
// killed outright keeps running until the next Start's leftover check
// reports it, or until killed by hand.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}

// procStart cannot identify a process outside Linux, so leftovers of a
// crashed run are reported but not killed.
func procStart(pid int) (string, bool) { return "", false }
