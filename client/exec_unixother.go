//go:build unix && !linux

package client

import "syscall"

// killWithParent does nothing: only Linux has a parent-death signal.
func killWithParent(*syscall.SysProcAttr) {}
