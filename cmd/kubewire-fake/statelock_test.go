//go:build unix

package main

import (
	"bufio"
	"context"
	"io"
	"path/filepath"
	"strings"
	"testing"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/client/kubeconfig"
)

// A server started with the --state of one still running waits until
// that one has saved and exited, then loads what it saved: in a script,
// `kill $KUBEWIRE_FAKE_PID` returns before the save, and a start right
// after it used to load the file as it was before (or none), losing the
// objects of the run before.
func TestStateWaitsForThePreviousServer(t *testing.T) {
	state := filepath.Join(t.TempDir(), "state.json")
	first := start(t, "--state", state)
	cms := client.For[*corev1.ConfigMap](first.client).Namespace("default")
	if _, err := cms.Create(t.Context(), &corev1.ConfigMap{ObjectMeta: metaNamed("from-the-first")}, client.CreateOptions{}); err != nil {
		t.Fatal(err)
	}

	// The second server, started while the first runs.
	ctx, cancel := context.WithCancel(context.Background())
	outR, outW := io.Pipe()
	errR, errW := io.Pipe()
	finished := make(chan error, 1)
	go func() {
		err := run(ctx, []string{"--state", state}, outW, errW)
		outW.Close()
		errW.Close()
		finished <- err
	}()
	defer func() { cancel(); <-finished }()
	lines := make(chan string, 16)
	go forwardLines(outR, "stdout: ", lines)
	go forwardLines(errR, "stderr: ", lines)
	// It either serves at once (loading a state the first has not saved
	// yet) or says it waits; only then does the first stop.
	var kubeconfigPath string
	for kubeconfigPath == "" {
		l := <-lines
		if p, ok := strings.CutPrefix(l, "stdout: kubeconfig "); ok {
			kubeconfigPath = p
		}
		if strings.HasPrefix(l, "stderr: kubewire-fake: waiting for the server using ") {
			break
		}
	}
	if err := first.stop(); err != nil {
		t.Fatal(err)
	}
	for kubeconfigPath == "" {
		l, ok := <-lines
		if !ok {
			t.Fatal("the second server ended before serving")
		}
		if p, ok := strings.CutPrefix(l, "stdout: kubeconfig "); ok {
			kubeconfigPath = p
		}
	}

	cfg, err := kubeconfig.Load(kubeconfig.Options{Paths: []string{kubeconfigPath}})
	if err != nil {
		t.Fatal(err)
	}
	c, err := client.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := client.For[*corev1.ConfigMap](c).Namespace("default").Get(t.Context(), "from-the-first", client.GetOptions{}); err != nil {
		t.Errorf("the second server lacks what the first saved: %v", err)
	}
}

// forwardLines sends each line of r, prefixed, to lines.
func forwardLines(r io.Reader, prefix string, lines chan<- string) {
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		lines <- prefix + sc.Text()
	}
	io.Copy(io.Discard, r)
}
