//go:build unix

package envtest

import (
	"errors"
	"os"
	"syscall"
)

// supported says whether Start can run servers here.
const supported = true

// signalGroup signals the process group led by p, or p alone if there is
// no such group. The signal must reach the process once only: a second
// SIGTERM makes kube-apiserver skip its graceful shutdown and exit 1.
func signalGroup(p *os.Process, sig syscall.Signal) {
	if err := syscall.Kill(-p.Pid, sig); err != nil {
		_ = p.Signal(sig)
	}
}

// killGroup kills the process group led by pid (a leftover of a crashed run).
func killGroup(pid int) {
	if err := syscall.Kill(-pid, syscall.SIGKILL); err != nil {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
}

// pidExists reports whether some process has pid.
func pidExists(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
