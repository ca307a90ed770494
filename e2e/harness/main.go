//go:build unix

package harness

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"slices"
	"sync"
	"syscall"
	"testing"
)

// Main runs a test package's tests and stops every cluster they started.
// Call it from TestMain:
//
//	func TestMain(m *testing.M) { os.Exit(harness.Main(m)) }
//
// After the tests, whether they passed or not, it stops every cluster
// still running. On SIGINT or SIGTERM it stops them and
// exits with status 130. Main returns m.Run's exit code, or 1 if a
// cluster failed to stop cleanly.
//
// A panicking test ends the process without returning here; then the
// kernel's parent-death signal stops the children (Linux), and the next
// Start deletes their folders.
func Main(m *testing.M) int {
	mainState.mu.Lock()
	mainState.active = true
	mainState.mu.Unlock()

	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	handled := make(chan struct{})
	go func() {
		defer close(handled)
		select {
		case s := <-sig:
			fmt.Fprintf(os.Stderr, "e2e: %v: stopping kube-apiserver and etcd\n", s)
			if err := running.stopAll(); err != nil {
				fmt.Fprintln(os.Stderr, err)
			}
			os.Exit(130)
		case <-done:
		}
	}()
	defer func() {
		close(done)
		<-handled
		signal.Stop(sig)
	}()

	code := m.Run()
	if err := running.stopAll(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		if code == 0 {
			code = 1
		}
	}
	return code
}

// mainState records whether Main runs, and the shared clusters.
var mainState struct {
	mu     sync.Mutex
	active bool
	shared map[string]*sharedCluster
}

type sharedCluster struct {
	once sync.Once
	c    *Cluster
	err  error
}

// TB is the part of testing.TB the harness uses.
type TB interface {
	Helper()
	Fatal(args ...any)
	Fatalf(format string, args ...any)
	Cleanup(func())
}

// Shared returns the cluster named name, starting it with opts on first
// use; later calls with the same name return the same cluster and ignore
// opts. It lives until [Main] stops it when the tests end, so Shared
// needs Main in TestMain. If the cluster fails to start, this and every
// later call with the name fail t with the same error.
//
// Tests that share a cluster must not depend on what other tests leave in
// it: give each test its own namespace or unique object names.
func Shared(t TB, name string, opts Options) *Cluster {
	t.Helper()
	mainState.mu.Lock()
	if !mainState.active {
		mainState.mu.Unlock()
		t.Fatal("harness.Shared needs TestMain to call harness.Main, which stops shared clusters")
	}
	if mainState.shared == nil {
		mainState.shared = make(map[string]*sharedCluster)
	}
	sc := mainState.shared[name]
	if sc == nil {
		sc = new(sharedCluster)
		mainState.shared[name] = sc
	}
	mainState.mu.Unlock()

	sc.once.Do(func() {
		if opts.Name == "" {
			opts.Name = name
		}
		sc.c, sc.err = Start(context.Background(), opts)
	})
	if sc.err != nil {
		t.Fatal(sc.err)
	}
	return sc.c
}

// StartForTest starts a cluster that only t uses and stops it when t
// ends (through t.Cleanup, which also runs when t panics).
func StartForTest(t TB, opts Options) *Cluster {
	t.Helper()
	c, err := Start(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := c.Stop(); err != nil {
			t.Fatalf("%v", err)
		}
	})
	return c
}

// running records every cluster started and not yet stopped in the test
// process, for Main to stop: at the end of the tests, and from its
// signal handler. It is the harness's one piece of package-level state,
// and has to be: a signal handler must find every cluster.
var running = &registry{}

type registry struct {
	mu       sync.Mutex
	clusters []*Cluster // in start order
}

func (r *registry) add(c *Cluster) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.clusters = append(r.clusters, c)
}

func (r *registry) remove(c *Cluster) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.clusters = slices.DeleteFunc(r.clusters, func(x *Cluster) bool { return x == c })
}

// stopAll stops every running cluster, newest first, and returns the
// errors joined.
func (r *registry) stopAll() error {
	r.mu.Lock()
	clusters := slices.Clone(r.clusters)
	r.mu.Unlock()
	var errs []error
	for _, c := range slices.Backward(clusters) {
		errs = append(errs, c.Stop())
	}
	return errors.Join(errs...)
}
