//go:build !linux

package e2e

import "syscall"

func operatorProcAttr() *syscall.SysProcAttr { return nil }

func peakRSS(int) string { return "?" }
