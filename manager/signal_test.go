//go:build unix

package manager

import (
	"context"
	"os"
	"syscall"
	"testing"
)

// The first SIGTERM ends the ctx (a graceful stop); the second exits,
// for the program whose graceful stop hangs.
func TestNotifyContextSecondSignalExits(t *testing.T) {
	exited := make(chan struct{})
	ctx, stop := notifyContext(context.Background(), func() { close(exited) })
	defer stop()
	if err := syscall.Kill(os.Getpid(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	<-ctx.Done()
	select {
	case <-exited:
		t.Fatal("exited at the first signal")
	default:
	}
	if err := syscall.Kill(os.Getpid(), syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	<-exited
}

// stop ends the ctx and releases the signals without exiting.
func TestNotifyContextStop(t *testing.T) {
	ctx, stop := notifyContext(context.Background(), func() { t.Error("exited") })
	stop()
	if ctx.Err() == nil {
		t.Error("ctx still live after stop")
	}
	stop()
}
