//go:build !unix

package client

import "os/exec"

// ownProcessGroup leaves the plugin in the client's process group: only
// Unix has the process groups that let a timeout kill its children too.
func ownProcessGroup(*exec.Cmd) {}

func killProcessGroup(*exec.Cmd) {}
