//go:build unix

package main

import (
	"errors"
	"os"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/client/kubeconfig"
)

// TestPrintEnvStartsABackgroundServer runs --print-env (TestMain makes
// the re-executed test binary the command), uses the server through the
// printed KUBECONFIG, stops it with SIGTERM and checks that it saved its
// state and removed its folder.
func TestPrintEnvStartsABackgroundServer(t *testing.T) {
	state := t.TempDir() + "/state.json"
	var out strings.Builder
	if err := run(t.Context(), []string{"--print-env", "--state", state}, &out, os.Stderr); err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^export KUBECONFIG=(\S+)\nexport KUBEWIRE_FAKE_PID=(\d+)\n# kubewire-fake serves https://`).FindStringSubmatch(out.String())
	if m == nil {
		t.Fatalf("--print-env printed:\n%s", out.String())
	}
	path := strings.Trim(m[1], "'")
	pid, _ := strconv.Atoi(m[2])
	t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) })

	cfg, err := kubeconfig.Load(kubeconfig.Options{Paths: []string{path}})
	if err != nil {
		t.Fatal(err)
	}
	c, err := client.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := client.For[*corev1.ConfigMap](c).Namespace("default").Create(t.Context(), &corev1.ConfigMap{ObjectMeta: metaNamed("bg")}, client.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if pgid, err := syscall.Getpgid(pid); err != nil || pgid != pid {
		t.Errorf("background server's process group %d (%v), want one of its own (%d), as a new session gives", pgid, err, pid)
	}

	if err := syscall.Kill(pid, syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for syscall.Kill(pid, 0) == nil {
		if time.Now().After(deadline) {
			t.Fatal("the background server did not exit on SIGTERM")
		}
		time.Sleep(20 * time.Millisecond)
	}
	b, err := os.ReadFile(state)
	if err != nil || !strings.Contains(string(b), `"name": "bg"`) {
		t.Errorf("state after SIGTERM (%v) lacks the ConfigMap:\n%.300s", err, b)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the background server's kubeconfig is left after exit: %v", err)
	}
}
