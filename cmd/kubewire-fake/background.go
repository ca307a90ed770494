package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// envBackground, set in a background server's environment, names the
// folder it owns (its kubeconfig unless --kubeconfig says otherwise, and
// its log), which it removes when it exits; it then reports readiness on
// file descriptor 3.
const envBackground = "KUBEWIRE_FAKE_BACKGROUND_DIR"

// readyMessage is what a background server sends its parent when it
// serves.
type readyMessage struct {
	URL        string `json:"url"`
	Kubeconfig string `json:"kubeconfig"`
	PID        int    `json:"pid"`
}

// backgroundDir is the folder of a background server, "" in the
// foreground.
func backgroundDir() string { return os.Getenv(envBackground) }

// signalReady tells the parent of a background server where it serves.
func signalReady(url, kubeconfig string) error {
	f := os.NewFile(3, "ready")
	if f == nil {
		return errors.New("no readiness pipe on file descriptor 3")
	}
	defer f.Close()
	return json.NewEncoder(f).Encode(readyMessage{URL: url, Kubeconfig: kubeconfig, PID: os.Getpid()})
}

// startBackground starts this program again with the same arguments as
// a background server in a session of its own (so the shell's Ctrl-C
// and hang-up do not reach it), its output in a log file, waits until
// it serves, and prints shell lines that point kubectl at it:
//
//	export KUBECONFIG='/tmp/kubewire-fake-123/kubeconfig'
//	export KUBEWIRE_FAKE_PID=4567
//
// The server stops (saving --state) on SIGTERM: kill $KUBEWIRE_FAKE_PID.
func startBackground(ctx context.Context, args []string, stdout io.Writer) error {
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "kubewire-fake-")
	if err != nil {
		return err
	}
	logPath := filepath.Join(dir, "kubewire-fake.log")
	logFile, err := os.Create(logPath)
	if err != nil {
		os.RemoveAll(dir)
		return err
	}
	defer logFile.Close()
	pr, pw, err := os.Pipe()
	if err != nil {
		os.RemoveAll(dir)
		return err
	}
	defer pr.Close()

	cmd := exec.Command(exe, args...)
	cmd.Env = append(os.Environ(), envBackground+"="+dir)
	cmd.Stdin = nil
	cmd.Stdout, cmd.Stderr = logFile, logFile
	cmd.ExtraFiles = []*os.File{pw} // descriptor 3
	cmd.SysProcAttr = detached()
	if err := cmd.Start(); err != nil {
		pw.Close()
		os.RemoveAll(dir)
		return err
	}
	pw.Close() // the child holds the only write end now
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()

	ready := make(chan readyMessage, 1)
	go func() {
		var m readyMessage
		if json.NewDecoder(pr).Decode(&m) == nil {
			ready <- m
		}
		close(ready)
	}()
	select {
	case m, ok := <-ready:
		if !ok {
			err := <-exited
			return fmt.Errorf("the background server stopped before serving (%v); its log:\n%s", err, readTail(logPath))
		}
		fmt.Fprintf(stdout, "export KUBECONFIG=%s\nexport KUBEWIRE_FAKE_PID=%d\n", shellQuote(m.Kubeconfig), m.PID)
		fmt.Fprintf(stdout, "# kubewire-fake serves %s (log: %s); stop it with: kill $KUBEWIRE_FAKE_PID\n", m.URL, logPath)
		return nil
	case <-ctx.Done():
		_ = cmd.Process.Kill()
		<-exited
		os.RemoveAll(dir)
		return ctx.Err()
	case <-time.After(time.Minute):
		_ = cmd.Process.Kill()
		<-exited
		return fmt.Errorf("the background server was not ready after a minute; its log:\n%s", readTail(logPath))
	}
}

// readTail returns the end of a log file.
func readTail(path string) string {
	b, _ := os.ReadFile(path)
	if len(b) > 4096 {
		b = b[len(b)-4096:]
	}
	return strings.TrimRight(string(b), "\n")
}

// shellQuote quotes s for a POSIX shell.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+:=,") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
