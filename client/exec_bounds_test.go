package client

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
)

// credentialJSON is what a well-behaved plugin prints.
const credentialJSON = `{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"plugin-token-1"}}`

// watchdog fails t if f has not returned after limit: it turns a hang
// into a failure instead of timing anything.
func watchdog(t *testing.T, limit time.Duration, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(limit):
		t.Fatalf("still blocked after %s", limit)
	}
}

// A plugin that prints far more than the bound is stopped at the bound:
// the client never holds more than about the bound in memory.
func TestExecPluginOutputIsBounded(t *testing.T) {
	dir := t.TempDir()
	const flood = 200 << 20 // 200 MiB
	tests := []struct {
		name, script, wantErr string
	}{
		{"stdout", fmt.Sprintf("#!/bin/sh\nhead -c %d /dev/zero\n", flood), "wrote more than 1048576 bytes"},
		{"stdout forever", "#!/bin/sh\nexec yes kubewire-plugin-output\n", "wrote more than 1048576 bytes"},
		{"stderr", fmt.Sprintf("#!/bin/sh\nhead -c %d /dev/zero | tr '\\\\0' x >&2\nexit 1\n", flood), "exit status 1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			script := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-")+".sh")
			writeFile(t, script, tc.script, 0o700)
			srv := &tokenServer{}
			c, _ := newServerConfig(t, Config{QPS: -1, Exec: &ExecConfig{Command: script, Timeout: time.Minute}}, srv.handler(t))
			runtime.GC()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			var err error
			watchdog(t, time.Minute, func() { err = get(c) })
			runtime.ReadMemStats(&after)
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("err = %v, want one saying %q", err, tc.wantErr)
			}
			if len(err.Error()) > 2048 {
				t.Errorf("the error is %d bytes long", len(err.Error()))
			}
			if grew := after.TotalAlloc - before.TotalAlloc; grew > 16<<20 {
				t.Errorf("the client allocated %d MiB reading a plugin that printed %d MiB; the bound is 1 MiB", grew>>20, flood>>20)
			}
		})
	}
}

// A hung plugin holds nobody past their own deadline: every request
// returns when its context ends, while the run goes on under the plugin's
// own timeout, which kills it and whatever it started.
func TestExecPluginHungHonoursEachContext(t *testing.T) {
	checkNoLeaks(t)
	dir := t.TempDir()
	childPID := filepath.Join(dir, "child.pid")
	script := filepath.Join(dir, "hang.sh")
	writeFile(t, script, "#!/bin/sh\nsleep 600 &\necho $! > "+childPID+"\nsleep 600\n", 0o700)
	srv := &tokenServer{}
	c, _ := newServerConfig(t, Config{QPS: -1, Exec: &ExecConfig{Command: script, Timeout: 3 * time.Second}}, srv.handler(t))

	var wg sync.WaitGroup
	errs := make([]error, 3)
	watchdog(t, 30*time.Second, func() {
		for i := range errs {
			wg.Go(func() {
				ctx, cancel := context.WithTimeout(context.Background(), time.Duration(i+1)*100*time.Millisecond)
				defer cancel()
				_, errs[i] = For[*corev1.Pod](c).Namespace("default").Get(ctx, "web", GetOptions{})
			})
		}
		wg.Wait()
	})
	for i, err := range errs {
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("request %d: err = %v, want its own context's deadline", i, err)
		}
		// A bare "context deadline exceeded" would not tell the user
		// that the plugin is what hangs.
		if err == nil || !strings.Contains(err.Error(), "waiting for exec plugin "+script) {
			t.Errorf("request %d: err = %v, want it to name the plugin it waited for", i, err)
		}
	}
	// The run itself ends at the plugin's timeout, its child killed too.
	var err error
	watchdog(t, 30*time.Second, func() { err = get(c) })
	if err == nil || !strings.Contains(err.Error(), "did not finish within 3s") {
		t.Errorf("after the plugin's timeout: err = %v, want the timeout", err)
	}
	checkProcessGone(t, childPID)
}

// A plugin that exits after printing its credential but leaves a child
// holding its output open is not waited for beyond a short delay, and the
// child is killed.
func TestExecPluginChildHoldingOutput(t *testing.T) {
	dir := t.TempDir()
	childPID := filepath.Join(dir, "child.pid")
	script := filepath.Join(dir, "fork.sh")
	writeFile(t, script, "#!/bin/sh\nsleep 600 &\necho $! > "+childPID+"\necho '"+credentialJSON+"'\n", 0o700)
	srv := &tokenServer{}
	srv.allow("plugin-token-1")
	c, _ := newServerConfig(t, Config{QPS: -1, Exec: &ExecConfig{Command: script, Timeout: time.Hour}}, srv.handler(t))
	var err error
	watchdog(t, 30*time.Second, func() { err = get(c) })
	if err != nil {
		t.Fatal(err)
	}
	checkProcessGone(t, childPID)
}

// checkProcessGone fails t if the process whose id is in file still runs
// a moment after the plugin's end.
func checkProcessGone(t *testing.T, file string) {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	for range 100 {
		var ws syscall.WaitStatus
		syscall.Wait4(pid, &ws, syscall.WNOHANG, nil) // reaped by init normally; harmless
		if syscall.Kill(pid, 0) != nil {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	syscall.Kill(pid, syscall.SIGKILL)
	t.Errorf("the plugin's child %d still runs", pid)
}
