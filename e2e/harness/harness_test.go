//go:build unix

package harness

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestMain(m *testing.M) { os.Exit(Main(m)) }

func TestLastLines(t *testing.T) {
	tests := []struct {
		in   string
		n    int
		want string
	}{
		{"", 3, "\t(no output)"},
		{"a\nb\nc\nd\n", 2, "\tc\n\td"},
		{"a\nb", 5, "\ta\n\tb"},
	}
	for _, tt := range tests {
		if got := lastLines([]byte(tt.in), tt.n); got != tt.want {
			t.Errorf("lastLines(%q, %d) = %q, want %q", tt.in, tt.n, got, tt.want)
		}
	}
}

func TestFailedChecks(t *testing.T) {
	in := "[+]ping ok\n[-]poststarthook/rbac/bootstrap-roles failed: not finished\n[+]etcd ok\nreadyz check failed\n"
	want := "[-]poststarthook/rbac/bootstrap-roles failed: not finished\nreadyz check failed"
	if got := failedChecks([]byte(in)); got != want {
		t.Errorf("failedChecks = %q, want %q", got, want)
	}
}

func TestLockFileWaits(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.lock")
	unlock, err := lockFile(t.Context(), path, nil)
	if err != nil {
		t.Fatal(err)
	}
	waited := make(chan struct{})
	got := make(chan error, 1)
	go func() {
		u, err := lockFile(t.Context(), path, func() { close(waited) })
		if err == nil {
			u()
		}
		got <- err
	}()
	select {
	case <-waited:
	case <-time.After(10 * time.Second):
		t.Fatal("second lockFile did not report waiting")
	}
	unlock()
	if err := <-got; err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	u, _ := lockFile(t.Context(), path, nil)
	defer u()
	cancel()
	if _, err := lockFile(ctx, path, func() {}); err != context.Canceled {
		t.Errorf("lockFile with a cancelled context: %v", err)
	}
}

// TestKillLeftovers plays a crashed run: a pid file whose owner is gone,
// naming a live child and a data folder.
func TestKillLeftovers(t *testing.T) {
	t.Setenv(EnvCache, t.TempDir())
	root, _ := cacheRoot()
	if err := os.MkdirAll(filepath.Join(root, "running"), 0o755); err != nil {
		t.Fatal(err)
	}
	child := exec.Command("sleep", "60")
	child.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	reaped := make(chan struct{})
	go func() { child.Wait(); close(reaped) }()
	t.Cleanup(func() { child.Process.Kill(); <-reaped })

	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	dataDir, err := os.MkdirTemp("", dataDirPrefix+"leftover-")
	if err != nil {
		t.Fatal(err)
	}
	start, ok := procStart(child.Process.Pid)
	if !ok {
		t.Skip("no /proc: leftovers are reported, not killed")
	}
	rec := pidRecord{
		Owner: pidEntry{PID: dead.Process.Pid, Start: "1"},
		Procs: []pidEntry{
			{PID: child.Process.Pid, Start: start, Name: "sleep"},
			{PID: os.Getpid(), Start: "1", Name: "pid reused by another process"},
		},
		Dirs: []string{dataDir, "/"},
	}
	b, _ := json.Marshal(rec)
	pidFile := filepath.Join(root, "running", "1.json")
	if err := os.WriteFile(pidFile, b, 0o644); err != nil {
		t.Fatal(err)
	}
	var log strings.Builder
	killLeftovers(&log)
	select {
	case <-reaped:
	case <-time.After(10 * time.Second):
		t.Fatal("leftover child still runs")
	}
	if _, err := os.Stat(dataDir); !os.IsNotExist(err) {
		t.Errorf("leftover data folder: %v", err)
	}
	if _, err := os.Stat(pidFile); !os.IsNotExist(err) {
		t.Errorf("pid file left: %v", err)
	}
	if !strings.Contains(log.String(), fmt.Sprintf("killing sleep (pid %d)", child.Process.Pid)) {
		t.Errorf("log: %q", log.String())
	}
}

// TestCluster starts a cluster, restarts its kube-apiserver and stops it.
func TestCluster(t *testing.T) {
	goroutines := runtime.NumGoroutine()
	var log strings.Builder
	c := StartForTest(t, Options{Name: "lifecycle", Log: &log, APIServerFlags: []string{"--watch-cache=false"}})
	hc := c.Client(t)
	get := func(path, token string) (int, string) {
		t.Helper()
		req, _ := http.NewRequestWithContext(t.Context(), "GET", c.URL+path, nil)
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := hc.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, body := get("/readyz", c.AdminToken); code != 200 || body != "ok" {
		t.Fatalf("/readyz: %d %s", code, body)
	}
	if code, _ := get("/api/v1/namespaces", c.UserToken); code != http.StatusForbidden {
		t.Errorf("user token: status %d, want 403 (RBAC)", code)
	}
	code, body := get("/api/v1/namespaces/default", c.AdminToken)
	if code != 200 {
		t.Fatalf("get default namespace: %d %s", code, body)
	}
	var ns struct {
		Metadata struct{ UID, ResourceVersion string }
	}
	_ = json.Unmarshal([]byte(body), &ns)

	etcdPID, oldPID := c.etcd.pid(), c.apiserver.pid()
	if err := c.RestartAPIServer(t.Context()); err != nil {
		t.Fatal(err)
	}
	if c.apiserver.pid() == oldPID || c.etcd.pid() != etcdPID {
		t.Errorf("restart: kube-apiserver pid %d -> %d, etcd pid %d -> %d", oldPID, c.apiserver.pid(), etcdPID, c.etcd.pid())
	}
	if processExists(oldPID) {
		t.Errorf("old kube-apiserver %d still runs", oldPID)
	}
	code, body = get("/api/v1/namespaces/default", c.AdminToken)
	var again struct {
		Metadata struct{ UID, ResourceVersion string }
	}
	_ = json.Unmarshal([]byte(body), &again)
	if code != 200 || again.Metadata.UID != ns.Metadata.UID {
		t.Errorf("after restart: %d, uid %s, want %s", code, again.Metadata.UID, ns.Metadata.UID)
	}

	// Compact: an Exact list at an old resource version is then gone.
	if _, err := c.Compact(t.Context()); err != nil {
		t.Fatal(err)
	}
	code, body = get("/api/v1/namespaces?resourceVersionMatch=Exact&resourceVersion="+ns.Metadata.ResourceVersion, c.AdminToken)
	if code != http.StatusGone || !strings.Contains(body, `"reason":"Expired"`) {
		t.Errorf("Exact list after compaction: %d %s", code, body)
	}

	apiPID := c.apiserver.pid()
	if err := c.Stop(); err != nil {
		t.Fatal(err)
	}
	for _, pid := range []int{etcdPID, apiPID} {
		if processExists(pid) {
			t.Errorf("pid %d still runs after Stop", pid)
		}
	}
	if _, err := os.Stat(c.Dir); !os.IsNotExist(err) {
		t.Errorf("data folder after Stop: %v", err)
	}
	if err := c.Stop(); err != nil {
		t.Errorf("second Stop: %v", err)
	}
	// Stop leaves no goroutine behind (process waiters, HTTP connections).
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > goroutines {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			t.Errorf("%d goroutines before Start, %d after Stop:\n%s", goroutines, runtime.NumGoroutine(), buf[:runtime.Stack(buf, true)])
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	for _, want := range []string{"cluster lifecycle ready", "kube-apiserver restarted"} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, log.String())
		}
	}
}

// TestStartFailure shows what a test sees when kube-apiserver cannot
// start: which binary, why, its last log lines, and nothing left running.
func TestStartFailure(t *testing.T) {
	before := childPIDs(t)
	_, err := Start(t.Context(), Options{Name: "broken", Log: io.Discard, APIServerFlags: []string{"--no-such-flag"}})
	if err == nil {
		t.Fatal("Start succeeded with an unknown flag")
	}
	t.Logf("the error a test sees:\n%v", err)
	msg := err.Error()
	for _, want := range []string{"e2e cluster broken", "kube-apiserver (pid", "exited by itself (exit status 1)", "unknown flag: --no-such-flag", "kube-apiserver.log"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error lacks %q:\n%s", want, msg)
		}
	}
	if after := childPIDs(t); len(after) > len(before) {
		t.Errorf("children before %v, after a failed Start %v", before, after)
	}
}

// TestChildrenDieWithTheTestProcess runs a test process that starts a
// cluster and then ends badly (a panic, an interrupt) and checks that
// etcd and kube-apiserver end with it.
func TestChildrenDieWithTheTestProcess(t *testing.T) {
	for _, how := range []string{"panic", "interrupt"} {
		t.Run(how, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$", "-test.v")
			cmd.Env = append(os.Environ(), "KUBEWIRE_E2E_HELPER="+how)
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			cmd.Stderr = cmd.Stdout
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			var pids []int
			var lines []string
			sc := bufio.NewScanner(out)
			for sc.Scan() {
				lines = append(lines, sc.Text())
				if f, ok := strings.CutPrefix(sc.Text(), "PIDS "); ok {
					for _, s := range strings.Fields(f) {
						pid, _ := strconv.Atoi(s)
						pids = append(pids, pid)
					}
					if how == "interrupt" {
						cmd.Process.Signal(os.Interrupt)
					}
				}
			}
			err = cmd.Wait()
			if len(pids) != 2 {
				t.Fatalf("helper printed no pids; exit %v; output:\n%s", err, strings.Join(lines, "\n"))
			}
			if how == "interrupt" && cmd.ProcessState.ExitCode() != 130 {
				t.Errorf("exit code %d after SIGINT, want 130", cmd.ProcessState.ExitCode())
			}
			deadline := time.Now().Add(15 * time.Second)
			for _, pid := range pids {
				for processExists(pid) {
					if time.Now().After(deadline) {
						t.Fatalf("pid %d outlived its test process (%s)", pid, how)
					}
					time.Sleep(50 * time.Millisecond)
				}
			}
		})
	}
}

// TestHelperProcess is the test process TestChildrenDieWithTheTestProcess runs.
func TestHelperProcess(t *testing.T) {
	how := os.Getenv("KUBEWIRE_E2E_HELPER")
	if how == "" {
		t.Skip("run by TestChildrenDieWithTheTestProcess")
	}
	c, err := Start(context.Background(), Options{Name: "helper-" + how})
	if err != nil {
		t.Fatal(err)
	}
	fmt.Printf("PIDS %d %d\n", c.etcd.pid(), c.apiserver.pid())
	switch how {
	case "panic":
		panic("helper panics with a cluster running")
	case "interrupt":
		time.Sleep(time.Minute) // Main's signal handler ends the process
	}
}

// processExists reports whether pid runs (a zombie does not count).
func processExists(pid int) bool {
	if _, ok := procStart(pid); ok {
		return true
	}
	if _, err := os.Stat("/proc"); err == nil {
		return false
	}
	return syscall.Kill(pid, 0) == nil
}

// childPIDs lists this process's children (Linux), or nil.
func childPIDs(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%d/children", os.Getpid(), os.Getpid()))
	if err != nil {
		return nil
	}
	return strings.Fields(string(b))
}
