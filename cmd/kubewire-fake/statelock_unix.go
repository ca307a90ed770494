//go:build unix

package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"syscall"
	"time"
)

// lockState takes the lock of a state file, held by the server that
// loaded it until it has saved it again, and returns its release. A
// second server with the same --state waits for the first to save and
// exit, so that `kill $KUBEWIRE_FAKE_PID` followed at once by a new start
// (kill returns before the old server saved) loads the saved objects
// rather than the file as it was before.
func lockState(ctx context.Context, path string, stderr io.Writer) (release func(), err error) {
	f, err := os.OpenFile(path+".lock", os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	told := false
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return func() { f.Close() }, nil // closing releases the lock
		}
		if err != syscall.EWOULDBLOCK && err != syscall.EINTR {
			f.Close()
			return nil, fmt.Errorf("lock %s: %w", f.Name(), err)
		}
		if !told {
			fmt.Fprintf(stderr, "kubewire-fake: waiting for the server using %s to save it and exit\n", path)
			told = true
		}
		select {
		case <-ctx.Done():
			f.Close()
			return nil, fmt.Errorf("waiting for the server using %s: %w", path, ctx.Err())
		case <-time.After(20 * time.Millisecond):
		}
	}
}
