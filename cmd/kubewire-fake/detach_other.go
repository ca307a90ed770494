//go:build !unix

package main

import "syscall"

// detached is the default elsewhere: the server stays in the console's
// process group.
func detached() *syscall.SysProcAttr { return nil }
