package e2e

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/kubewire/kubewire/e2e/kubectl"
)

// kubectlResult is what one step printed and how it exited, normalised.
type kubectlResult struct {
	name           string // the command line
	stdout, stderr string
	code           int
}

func (r kubectlResult) same(o kubectlResult) bool {
	return r.stdout == o.stdout && r.stderr == o.stderr && r.code == o.code
}

// kubectlRunner runs kubectl against one server.
type kubectlRunner struct {
	t          *testing.T
	bin        string
	kubeconfig string
	dir        string // for the editor script and kubectl's cache
}

// run runs the script and returns one result per step (the steps a
// watch runs while it watches come after it).
func (r kubectlRunner) run(script []kubectlStep) []kubectlResult {
	var out []kubectlResult
	for _, st := range script {
		if st.watch {
			out = append(out, r.watch(st)...)
			continue
		}
		out = append(out, r.one(st))
	}
	return out
}

func (r kubectlRunner) cmd(ctx context.Context, st kubectlStep) *exec.Cmd {
	cmd := exec.CommandContext(ctx, r.bin, st.args...)
	cmd.Env = append(os.Environ(),
		"KUBECONFIG="+r.kubeconfig,
		"KUBECACHEDIR="+filepath.Join(r.dir, "cache"),
		"HOME="+r.dir, // no user kuberc or cache
		"KUBECTL_KUBERC=false",
		"NO_COLOR=1",
	)
	if st.edit != "" {
		editor := filepath.Join(r.dir, "editor.sh")
		script := fmt.Sprintf("#!/bin/sh\nexec sed -i %s \"$1\"\n", shellQuoted(st.edit))
		if err := os.WriteFile(editor, []byte(script), 0o755); err != nil {
			r.t.Fatal(err)
		}
		cmd.Env = append(cmd.Env, "KUBE_EDITOR="+editor)
	}
	if st.stdin != "" {
		stdin := st.stdin
		if st.uidOf != "" {
			stdin = strings.ReplaceAll(stdin, "${UID}", r.uid(ctx, st.uidOf))
		}
		cmd.Stdin = strings.NewReader(stdin)
	}
	return cmd
}

// uid is the uid of obj ("pod/tool") in the script's namespace on this
// server.
func (r kubectlRunner) uid(ctx context.Context, obj string) string {
	cmd := r.cmd(ctx, kc("get", obj, "-n", kubectlNS, "-o", "jsonpath={.metadata.uid}"))
	out, err := cmd.Output()
	if err != nil {
		r.t.Fatalf("uid of %s: %v", obj, err)
	}
	return strings.TrimSpace(string(out))
}

func (r kubectlRunner) one(st kubectlStep) kubectlResult {
	ctx, cancel := context.WithTimeout(r.t.Context(), time.Minute)
	defer cancel()
	cmd := r.cmd(ctx, st)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		code = exit.ExitCode()
	case err != nil:
		r.t.Fatalf("kubectl %s: %v", strings.Join(st.args, " "), err)
	}
	return kubectlResult{name: stepName(st), stdout: normalizeKubectl(stdout.String()), stderr: normalizeKubectl(stderr.String()), code: code}
}

// watch starts the watch, waits for its first line (or a second), runs
// the steps during it, and stops it after st.lines lines or 5 s.
func (r kubectlRunner) watch(st kubectlStep) []kubectlResult {
	ctx, cancel := context.WithTimeout(r.t.Context(), time.Minute)
	defer cancel()
	cmd := r.cmd(ctx, st)
	pr, err := cmd.StdoutPipe()
	if err != nil {
		r.t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		r.t.Fatal(err)
	}
	var (
		mu    sync.Mutex
		lines []string
	)
	grew := make(chan struct{}, 100)
	read := make(chan struct{})
	go func() {
		defer close(read)
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			mu.Lock()
			lines = append(lines, sc.Text())
			mu.Unlock()
			grew <- struct{}{}
		}
	}()
	count := func() int { mu.Lock(); defer mu.Unlock(); return len(lines) }
	// A watch on an empty selection prints nothing until an event: give
	// it a moment to be established before changing things.
	select {
	case <-grew:
	case <-time.After(time.Second):
	}
	var during []kubectlResult
	for _, s := range st.during {
		during = append(during, r.one(s))
	}
	deadline := time.After(5 * time.Second)
wait:
	for count() < st.lines {
		select {
		case <-grew:
		case <-deadline:
			break wait
		}
	}
	_ = cmd.Process.Signal(syscall.SIGTERM)
	<-read
	_ = cmd.Wait()
	mu.Lock()
	out := strings.Join(lines, "\n")
	mu.Unlock()
	res := kubectlResult{name: stepName(st) + fmt.Sprintf(" (stopped after %d lines)", st.lines), stdout: normalizeKubectl(out), stderr: normalizeKubectl(stderr.String())}
	return append([]kubectlResult{res}, during...)
}

func stepName(st kubectlStep) string {
	name := "kubectl " + strings.Join(st.args, " ")
	if st.stdin != "" {
		name += " <<" + firstLine(st.stdin, "name: ")
	}
	if st.edit != "" {
		name += " (editor: sed " + st.edit + ")"
	}
	return name
}

// firstLine returns the first line of s containing substr, trimmed.
func firstLine(s, substr string) string {
	for l := range strings.Lines(s) {
		if strings.Contains(l, substr) {
			return strings.TrimSpace(l)
		}
	}
	return ""
}

func shellQuoted(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// kubectlBinaries builds (or finds cached) kubectl and the client-go
// probe.
func kubectlBinaries(t *testing.T) kubectl.Binaries {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Minute)
	defer cancel()
	bins, err := kubectl.Build(ctx, os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	return bins
}

// kubewireFake is a kubewire-fake process.
type kubewireFake struct {
	kubeconfig string
	url        string
	cmd        *exec.Cmd
}

// buildKubewireFake builds cmd/kubewire-fake from this repository into
// dir.
func buildKubewireFake(t *testing.T, dir string) string {
	t.Helper()
	bin := filepath.Join(dir, "kubewire-fake")
	cmd := exec.CommandContext(t.Context(), "go", "build", "-o", bin, "./cmd/kubewire-fake")
	cmd.Dir = ".." // the SDK module
	cmd.Env = append(os.Environ(), "GOFLAGS=", "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/kubewire-fake: %v\n%s", err, out)
	}
	return bin
}

// startKubewireFake starts kubewire-fake with args and returns once it
// serves; it is stopped with SIGTERM when the test ends.
func startKubewireFake(t *testing.T, bin string, args ...string) *kubewireFake {
	t.Helper()
	dir := t.TempDir()
	f := &kubewireFake{kubeconfig: filepath.Join(dir, "kubeconfig")}
	f.cmd = exec.Command(bin, append([]string{"--kubeconfig", f.kubeconfig}, args...)...)
	f.cmd.Stderr = os.Stderr
	pr, err := f.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if err := f.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = f.cmd.Process.Signal(syscall.SIGTERM)
		_ = f.cmd.Wait()
	})
	sc := bufio.NewScanner(pr)
	for sc.Scan() {
		if u, ok := strings.CutPrefix(sc.Text(), "serving "); ok {
			f.url = u
		}
		if strings.HasPrefix(sc.Text(), "kubeconfig ") {
			t.Logf("kubewire-fake serves %s, ready %s after its start", f.url, time.Since(start).Round(time.Millisecond))
			go func() { // keep draining
				for sc.Scan() {
				}
			}()
			return f
		}
	}
	t.Fatalf("kubewire-fake exited without serving: %v", f.cmd.Wait())
	return nil
}
