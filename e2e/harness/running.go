//go:build unix

package harness

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
)

// running records, for the whole test process, every cluster and child
// process the harness has started and not yet stopped.
//
// It is the one piece of package-level state in the harness, and it has
// to be: a signal handler or the end of TestMain must find every child to
// stop it, and the pid file that lets the next run clean up after a crash
// describes the whole process.
var running = &registry{procs: make(map[*proc]bool)}

// registry is the type of running.
type registry struct {
	mu       sync.Mutex
	clusters []*Cluster     // in start order
	procs    map[*proc]bool // live children
	dirs     []string       // data folders to delete after a crash
	pidFile  string         // "" until the first write
}

// pidRecord is the content of a pid file.
type pidRecord struct {
	Owner pidEntry   `json:"owner"` // the test process
	Procs []pidEntry `json:"procs"` // its etcd and kube-apiserver children
	Dirs  []string   `json:"dirs"`  // their temporary data folders
}

type pidEntry struct {
	PID   int    `json:"pid"`
	Start string `json:"start"` // procStart, "" where unknown
	Name  string `json:"name,omitempty"`
}

func (r *registry) add(p *proc) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.procs[p] = true
	r.writeLocked()
}

func (r *registry) remove(p *proc) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.procs, p)
	r.writeLocked()
}

func (r *registry) addCluster(c *Cluster) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.clusters = append(r.clusters, c)
	r.dirs = append(r.dirs, c.Dir)
	r.writeLocked()
}

func (r *registry) removeCluster(c *Cluster) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.clusters = slices.DeleteFunc(r.clusters, func(x *Cluster) bool { return x == c })
	// Stopped cleanly: the folder is gone, or kept on purpose.
	r.dirs = slices.DeleteFunc(r.dirs, func(d string) bool { return d == c.Dir })
	r.writeLocked()
}

// stopAll stops every running cluster, newest first, and then any child
// process left over. It returns the errors joined.
func (r *registry) stopAll() error {
	r.mu.Lock()
	clusters := slices.Clone(r.clusters)
	r.mu.Unlock()
	var errs []error
	for _, c := range slices.Backward(clusters) {
		errs = append(errs, c.Stop())
	}
	r.mu.Lock()
	var procs []*proc
	for p := range r.procs {
		procs = append(procs, p)
	}
	r.mu.Unlock()
	for _, p := range procs {
		errs = append(errs, p.stop(stopGrace))
	}
	return errors.Join(errs...)
}

// writeLocked rewrites this process's pid file, or removes it when
// nothing is left to clean up. Failing to write it is not fatal: it only
// helps the next run after a crash.
func (r *registry) writeLocked() {
	if r.pidFile == "" {
		root, err := cacheRoot()
		if err != nil {
			return
		}
		dir := filepath.Join(root, "running")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return
		}
		r.pidFile = filepath.Join(dir, strconv.Itoa(os.Getpid())+".json")
	}
	if len(r.procs) == 0 && len(r.dirs) == 0 {
		_ = os.Remove(r.pidFile)
		return
	}
	start, _ := procStart(os.Getpid())
	rec := pidRecord{Owner: pidEntry{PID: os.Getpid(), Start: start}, Dirs: r.dirs}
	for p := range r.procs {
		s, _ := procStart(p.pid())
		rec.Procs = append(rec.Procs, pidEntry{PID: p.pid(), Start: s, Name: p.name})
	}
	b, _ := json.MarshalIndent(rec, "", "  ")
	tmp := r.pidFile + ".tmp"
	if os.WriteFile(tmp, b, 0o644) == nil {
		_ = os.Rename(tmp, r.pidFile)
	}
}

// killLeftovers kills the children of earlier test processes that died
// without stopping them, found in their pid files, and deletes their data
// folders. A pid file whose owner still runs belongs to a concurrent test
// process and is left alone. A recorded child is killed only if a process
// with its pid and its start time still runs (on Linux); elsewhere it is
// reported, not killed.
func killLeftovers(log io.Writer) {
	root, err := cacheRoot()
	if err != nil {
		return
	}
	dir := filepath.Join(root, "running")
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".json") || name == strconv.Itoa(os.Getpid())+".json" {
			continue
		}
		path := filepath.Join(dir, name)
		b, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		var rec pidRecord
		if err := json.Unmarshal(b, &rec); err != nil {
			_ = os.Remove(path)
			continue
		}
		if alive(rec.Owner) {
			continue
		}
		for _, p := range rec.Procs {
			switch {
			case p.Start != "" && alive(p):
				fmt.Fprintf(log, "e2e: killing %s (pid %d) left running by test process %d\n", p.Name, p.PID, rec.Owner.PID)
				signalGroup(p.PID, syscall.SIGKILL)
			case p.Start == "" && syscall.Kill(p.PID, 0) == nil:
				fmt.Fprintf(log, "e2e: %s (pid %d) of test process %d may still run; check and kill it by hand\n", p.Name, p.PID, rec.Owner.PID)
			}
		}
		for _, d := range rec.Dirs {
			if isDataDir(d) {
				_ = os.RemoveAll(d)
			}
		}
		_ = os.Remove(path)
	}
}

// alive reports whether the recorded process still runs: the same pid
// with the same start time, or where start times are unknown, any
// process with that pid.
func alive(e pidEntry) bool {
	if e.Start == "" {
		err := syscall.Kill(e.PID, 0)
		return err == nil || errors.Is(err, syscall.EPERM)
	}
	s, ok := procStart(e.PID)
	return ok && s == e.Start
}

// isDataDir guards RemoveAll against a corrupt pid file: only folders the
// harness creates are removed.
func isDataDir(d string) bool {
	fi, err := os.Stat(d)
	if err != nil || !fi.IsDir() {
		return false
	}
	return filepath.IsAbs(d) && strings.HasPrefix(filepath.Base(d), dataDirPrefix)
}
