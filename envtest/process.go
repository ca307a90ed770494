package envtest

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"
)

// stopGrace is how long a server gets to exit after SIGTERM.
const stopGrace = 10 * time.Second

// proc is one server process: etcd, kube-apiserver or
// kube-controller-manager.
//
// It runs in a process group of its own (so a terminal's Ctrl-C reaches
// only the test process, which then stops it in order) and, on Linux,
// with SIGKILL as its parent-death signal, so it dies with the test
// process even when that process panics or is killed.
type proc struct {
	name    string // nameEtcd, nameAPIServer or nameControllerManager
	logPath string // its combined stdout and stderr
	cmd     *exec.Cmd
	start   string        // procStart of the process, "" where unknown
	done    chan struct{} // closed when the process has exited and been reaped
	err     error         // the result of Wait; read it only after done is closed
}

// startProc starts a binary with its output appended to logPath.
func startProc(name, path string, args []string, logPath string) (*proc, error) {
	logf, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	defer logf.Close() // the child has its own descriptor
	fmt.Fprintf(logf, "==== %s: %s %q\n", time.Now().Format(time.RFC3339Nano), path, args)

	cmd := exec.Command(path, args...)
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = sysProcAttr()
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", name, err)
	}
	p := &proc{name: name, logPath: logPath, cmd: cmd, done: make(chan struct{})}
	p.start, _ = procStart(cmd.Process.Pid)
	go func() {
		p.err = cmd.Wait()
		close(p.done)
	}()
	return p, nil
}

func (p *proc) pid() int { return p.cmd.Process.Pid }

// exited reports whether the process has ended.
func (p *proc) exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// exitError describes how the process ended, with its last log lines.
func (p *proc) exitError() error {
	how := "exit status 0"
	if p.err != nil {
		how = p.err.Error()
	}
	return fmt.Errorf("%s (pid %d) exited by itself (%s); last lines of its log (%s):\n%s",
		p.name, p.pid(), how, filepath.Base(p.logPath), fileTail(p.logPath, 30))
}

// stop sends SIGTERM to the process group, waits up to grace for the
// process to exit, then sends SIGKILL. It returns once the process has
// been reaped. An exit caused by one of these signals is not an error; a
// process that had already ended by itself is (it crashed under the
// tests), and the error carries its last log lines.
func (p *proc) stop(grace time.Duration) error {
	if p.exited() {
		return p.exitError()
	}
	signalGroup(p.cmd.Process, syscall.SIGTERM)
	timer := time.NewTimer(grace)
	defer timer.Stop()
	select {
	case <-p.done:
	case <-timer.C:
		signalGroup(p.cmd.Process, syscall.SIGKILL)
		<-p.done
	}
	var ee *exec.ExitError
	if errors.As(p.err, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return nil
		}
	}
	if p.err != nil {
		return fmt.Errorf("%s (pid %d) stopped: %w", p.name, p.pid(), p.err)
	}
	return nil
}
