//go:build unix

package client

import (
	"os/exec"
	"syscall"
)

// ownProcessGroup starts the plugin in a process group of its own, so that
// a timeout kills whatever it started too (a helper holding its output
// open, a browser login flow...).
func ownProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	killWithParent(cmd.SysProcAttr)
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}

// killProcessGroup kills what is left of the plugin's process group.
func killProcessGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
