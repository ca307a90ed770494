//go:build unix

package main

import "syscall"

// detached puts a background server in a session of its own.
func detached() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }
