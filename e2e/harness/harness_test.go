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
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestMain(m *testing.M) { os.Exit(Main(m)) }

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

	etcdPID, oldPID := c.Env().PID("etcd"), c.Env().PID("kube-apiserver")
	if err := c.RestartAPIServer(t.Context()); err != nil {
		t.Fatal(err)
	}
	if c.Env().PID("kube-apiserver") == oldPID || c.Env().PID("etcd") != etcdPID {
		t.Errorf("restart: kube-apiserver pid %d -> %d, etcd pid %d -> %d", oldPID, c.Env().PID("kube-apiserver"), etcdPID, c.Env().PID("etcd"))
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

	apiPID := c.Env().PID("kube-apiserver")
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
	for _, want := range []string{"envtest lifecycle: kubernetes v1.36.3 ready", "kube-apiserver restarted"} {
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
	for _, want := range []string{"envtest broken:", "kube-apiserver (pid", "exited by itself (exit status 1)", "unknown flag: --no-such-flag", "kube-apiserver.log"} {
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
	fmt.Printf("PIDS %d %d\n", c.Env().PID("etcd"), c.Env().PID("kube-apiserver"))
	switch how {
	case "panic":
		panic("helper panics with a cluster running")
	case "interrupt":
		time.Sleep(time.Minute) // Main's signal handler ends the process
	}
}

// processExists reports whether pid runs (a zombie does not count).
func processExists(pid int) bool {
	if _, err := os.Stat("/proc"); err != nil {
		return syscall.Kill(pid, 0) == nil // no /proc: zombies count
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i >= 0 && !strings.HasPrefix(strings.TrimSpace(s[i+1:]), "Z")
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
