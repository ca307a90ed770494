//go:build !unix

package envtest

import (
	"os"
	"syscall"
)

// supported says whether Start can run servers here: the servers and
// their process handling are Unix only.
const supported = false

func sysProcAttr() *syscall.SysProcAttr             { return nil }
func procStart(pid int) (string, bool)              { return "", false }
func signalGroup(p *os.Process, sig syscall.Signal) { _ = p.Kill() }
func killGroup(pid int)                             {}
func pidExists(pid int) bool                        { return false }
