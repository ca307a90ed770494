package client

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
)

// TestExecPluginDiesWithProgram: a program that gives up waiting for a
// hung plugin (its request's context ended) and exits does not leave the
// plugin running: the kernel kills it with its parent. The program is
// this test binary run again as a child.
func TestExecPluginDiesWithProgram(t *testing.T) {
	if dir := os.Getenv("KUBEWIRE_TEST_PLUGIN_PARENT"); dir != "" {
		runPluginParent(dir)
		return
	}
	dir := t.TempDir()
	script := filepath.Join(dir, "hang.sh")
	writeFile(t, script, "#!/bin/sh\necho $$ > "+filepath.Join(dir, "plugin.pid")+"\nexec sleep 600\n", 0o700)
	cmd := exec.Command(os.Args[0], "-test.run=^TestExecPluginDiesWithProgram$")
	cmd.Env = append(os.Environ(), "KUBEWIRE_TEST_PLUGIN_PARENT="+dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the program: %v\n%s", err, out)
	}
	checkProcessGone(t, filepath.Join(dir, "plugin.pid"))
}

// runPluginParent is the program: one request through a hung plugin,
// given up after a moment, then exit.
func runPluginParent(dir string) {
	c, err := New(Config{Host: "https://127.0.0.1:1", Exec: &ExecConfig{Command: filepath.Join(dir, "hang.sh")}})
	if err != nil {
		panic(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	_, _ = For[*corev1.Pod](c).Namespace("default").Get(ctx, "web", GetOptions{})
	for range 1000 { // until the plugin wrote its pid
		if _, err := os.Stat(filepath.Join(dir, "plugin.pid")); err == nil {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	os.Exit(0)
}
