package controller_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/controller"
	"github.com/kubewire/kubewire/informer"
	"github.com/kubewire/kubewire/reflector"
	"github.com/kubewire/kubewire/workqueue"
)

// fastQueue retries failed Requests after 1ms doubling to 50ms, with no
// overall bucket: tests converge quickly.
var fastQueue = workqueue.Options{BaseDelay: time.Millisecond, MaxDelay: 50 * time.Millisecond, QPS: 1e9, Burst: 1 << 20}

type rig struct {
	e       *env
	factory *informer.Factory
	cms     *informer.Informer[*corev1.ConfigMap]
	secrets *informer.Informer[*corev1.Secret]
	s       *syncer
	ctl     *controller.Controller[*corev1.ConfigMap]
}

// newRig makes the syncer's controller for namespace ns, not running.
func newRig(t *testing.T, e *env, ns string, opts controller.Options) *rig {
	t.Helper()
	// Injected failures back the informers off; short waits keep the
	// tests short.
	f := newFactory(t, e.ctl, informer.FactoryOptions{Reflector: reflector.Options{InitialBackoff: 20 * time.Millisecond, MaxBackoff: time.Second}})
	cms := informer.Shared[*corev1.ConfigMap](f, informer.Scope{Namespace: ns, LabelSelector: client.MatchLabels(map[string]string{"app": "test"})})
	secrets := informer.Shared[*corev1.Secret](f, informer.Scope{Namespace: ns})
	s := newSyncer(e.ctl, cms, secrets)
	ctl := newController(t, "sync", cms, s, opts)
	controller.Owns(ctl, secrets)
	return &rig{e: e, factory: f, cms: cms, secrets: secrets, s: s, ctl: ctl}
}

func (r *rig) start(t *testing.T) (stop func()) {
	stopFactory := running(t, r.factory.Run)
	stopCtl := running(t, r.ctl.Run)
	return func() {
		if err := stopCtl(); err != nil {
			t.Errorf("controller Run: %v", err)
		}
		if err := stopFactory(); !errors.Is(err, context.Canceled) {
			t.Errorf("factory Run: %v", err)
		}
	}
}

func create(t *testing.T, c *client.Client, cms ...*corev1.ConfigMap) {
	t.Helper()
	for _, cm := range cms {
		if _, err := client.For[*corev1.ConfigMap](c).Create(t.Context(), cm, client.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
}

// The whole loop on the fake server: primaries and owned objects
// converge; a changed primary, a deleted or edited owned object and a
// deleted primary are each reconciled back to the state Reconcile
// defines; Run returns nil and leaves no goroutine.
func TestLoop(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t)
		for i := range 30 {
			create(t, e.direct, configMap("default", fmt.Sprintf("cm-%02d", i), "v0"))
		}
		r := newRig(t, e, "default", controller.Options{Workers: 3, Queue: fastQueue})
		stop := r.start(t)
		if div := waitConverged(t, e.direct, "default", 10*time.Second); div != nil {
			t.Fatalf("initial state did not converge: %v", div)
		}
		for i := range 30 {
			if n := r.s.count(controller.Request{Namespace: "default", Name: fmt.Sprintf("cm-%02d", i)}); n == 0 {
				t.Errorf("cm-%02d never reconciled", i)
			}
		}

		cmAPI := client.For[*corev1.ConfigMap](e.direct).Namespace("default")
		secretAPI := client.For[*corev1.Secret](e.direct).Namespace("default")
		steps := []struct {
			name   string
			change func(ctx context.Context) error
		}{
			{"PrimaryChanged", func(ctx context.Context) error {
				return client.RetryOnConflict(ctx, 0, func() error {
					cm, err := cmAPI.Get(ctx, "cm-03", client.GetOptions{})
					if err != nil {
						return err
					}
					cm.Data["v"] = "v1"
					_, err = cmAPI.Update(ctx, cm, client.UpdateOptions{})
					return err
				})
			}},
			{"OwnedDeleted", func(ctx context.Context) error {
				return secretAPI.Delete(ctx, "cm-04", client.DeleteOptions{})
			}},
			{"OwnedEdited", func(ctx context.Context) error {
				s, err := secretAPI.Get(ctx, "cm-05", client.GetOptions{})
				if err != nil {
					return err
				}
				s.Data["v"] = []byte("tampered")
				_, err = secretAPI.Update(ctx, s, client.UpdateOptions{})
				return err
			}},
			{"PrimaryDeleted", func(ctx context.Context) error {
				return cmAPI.Delete(ctx, "cm-06", client.DeleteOptions{})
			}},
			{"PrimaryCreated", func(ctx context.Context) error {
				_, err := cmAPI.Create(ctx, configMap("default", "cm-new", "fresh"), client.CreateOptions{})
				return err
			}},
		}
		for _, step := range steps {
			func() {
				if err := step.change(t.Context()); err != nil {
					t.Fatalf("%s: %v", step.name, err)
				}
				if div := waitConverged(t, e.direct, "default", 10*time.Second); div != nil {
					t.Errorf("%s: did not converge: %v", step.name, div)
				}
			}()
		}
		stop()
		checkNoGoroutines(t, "kubewire/controller.(*", "kubewire/informer.(*", "kubewire/reflector.(*")
	})
}

// A Reconcile error requeues the Request after its backoff until it
// succeeds; a panic is recovered, logged with its stack and requeued;
// RequeueAfter reconciles again; every outcome reaches Metrics.
func TestOutcomes(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t)
		create(t, e.direct, configMap("default", "fails", ""), configMap("default", "panics", ""), configMap("default", "later", ""))
		f := newFactory(t, e.ctl, informer.FactoryOptions{})
		cms := informer.Shared[*corev1.ConfigMap](f, informer.Scope{Namespace: "default"})

		var mu sync.Mutex
		calls := map[string]int{}
		done := make(chan string, 10)
		r := controller.ReconcilerFunc(func(ctx context.Context, req controller.Request) (controller.Result, error) {
			mu.Lock()
			calls[req.Name]++
			n := calls[req.Name]
			mu.Unlock()
			switch {
			case req.Name == "fails" && n <= 3:
				return controller.Result{}, fmt.Errorf("attempt %d failed", n)
			case req.Name == "panics" && n == 1:
				var m map[string]int
				//lint:ignore SA5000 a nil map write on purpose: a real bug's panic
				m["boom"]++
			case req.Name == "later" && n == 1:
				return controller.Result{RequeueAfter: 20 * time.Millisecond}, nil
			}
			done <- req.Name
			return controller.Result{}, nil
		})
		var logs syncBuffer
		m := &countingMetrics{}
		ctl := newController(t, "outcomes", cms, r, controller.Options{
			Queue: fastQueue, Metrics: m, Logger: slog.New(slog.NewTextHandler(&logs, nil)),
		})
		stopF := running(t, f.Run)
		stop := running(t, ctl.Run)
		got := map[string]bool{}
		for len(got) < 3 {
			select {
			case name := <-done:
				got[name] = true
			case <-time.After(10 * time.Second):
				t.Fatalf("reconciled successfully only %v", got)
			}
		}
		if err := stop(); err != nil {
			t.Errorf("Run: %v", err)
		}
		_ = stopF()

		mu.Lock()
		defer mu.Unlock()
		if calls["fails"] != 4 || calls["panics"] != 2 || calls["later"] != 2 {
			t.Errorf("calls = %v, want fails 4, panics 2, later 2", calls)
		}
		if got, want := m.snapshot(), map[controller.Outcome]int{controller.Success: 3, controller.Error: 3, controller.Panic: 1, controller.Requeue: 1}; !equalCounts(got, want) {
			t.Errorf("metrics = %v, want %v", got, want)
		}
		out := logs.String()
		for _, want := range []string{"attempt 3 failed", "reconcile panicked", "assignment to entry in nil map", "controller_test.TestOutcomes"} {
			if !strings.Contains(out, want) {
				t.Errorf("logs lack %q:\n%s", want, out)
			}
		}
	})
}

type countingMetrics struct {
	mu       sync.Mutex
	outcomes map[controller.Outcome]int
	waits    atomic.Int64
	timeouts atomic.Int64
}

func (m *countingMetrics) Reconciled(_ string, o controller.Outcome, _ time.Duration) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.outcomes == nil {
		m.outcomes = map[controller.Outcome]int{}
	}
	m.outcomes[o]++
}

func (m *countingMetrics) WaitedForWrites(_ string, _ time.Duration, timedOut bool) {
	m.waits.Add(1)
	if timedOut {
		m.timeouts.Add(1)
	}
}

func (m *countingMetrics) snapshot() map[controller.Outcome]int {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := map[controller.Outcome]int{}
	for k, v := range m.outcomes {
		out[k] = v
	}
	return out
}

func equalCounts(a, b map[controller.Outcome]int) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// Run can be called again after it returned, as a replica that leads
// again does: the cache is replayed and everything is reconciled again.
// Filter, Owns and Watches refuse to change a running controller.
func TestRunAgain(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t)
		for i := range 5 {
			create(t, e.direct, configMap("default", fmt.Sprintf("cm-%d", i), "x"))
		}
		r := newRig(t, e, "default", controller.Options{Queue: fastQueue})
		stopF := running(t, r.factory.Run)
		for term := range 3 {
			stop := running(t, r.ctl.Run)
			deadline := time.Now().Add(10 * time.Second)
			for r.s.total.Load() < int64(5*(term+1)) && time.Now().Before(deadline) {
				time.Sleep(5 * time.Millisecond)
			}
			if term == 0 {
				func() {
					defer func() {
						if recover() == nil {
							t.Error("Filter on a running controller did not panic")
						}
					}()
					r.ctl.Filter(controller.GenerationChanged)
				}()
			}
			if err := stop(); err != nil {
				t.Fatalf("term %d: Run: %v", term, err)
			}
			if n := r.s.total.Load(); n < int64(5*(term+1)) {
				t.Fatalf("after term %d: %d reconciles, want at least %d", term, n, 5*(term+1))
			}
		}
		_ = stopF()
	})
}
