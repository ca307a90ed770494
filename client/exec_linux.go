package client

import "syscall"

// killWithParent has the kernel kill the plugin when the program exits
// while it runs (a plugin hung on a login prompt would otherwise outlive
// it; the timeout only acts while the program lives). The signal follows
// the OS thread that started the plugin, which run keeps locked until the
// plugin ends.
func killWithParent(attr *syscall.SysProcAttr) { attr.Pdeathsig = syscall.SIGKILL }
