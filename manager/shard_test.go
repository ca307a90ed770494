package manager_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/controller"
	"github.com/kubewire/kubewire/informer"
	"github.com/kubewire/kubewire/leaderelection"
	"github.com/kubewire/kubewire/manager"
	"github.com/kubewire/kubewire/sharding"
)

// shardedReplica is one manager of a sharded controller.
type shardedReplica struct {
	id     string
	m      *manager.Manager
	cms    *informer.Informer[*corev1.ConfigMap]
	cancel context.CancelFunc
	done   chan error
}

// reconciles records who reconciled what, and overlaps.
type reconciles struct {
	mu       sync.Mutex
	by       map[string]map[string]bool // object → replicas
	running  map[string]string
	overlaps []string
}

func startSharded(t *testing.T, cfg client.Config, id string, rec *reconciles) *shardedReplica {
	t.Helper()
	m, err := manager.New(newClient(t, cfg), manager.Options{
		Name: "test-operator",
		Sharding: &sharding.Config{Namespace: "default", Identity: id, Slots: 16,
			LeaseDuration: 2 * time.Second, RenewDeadline: 1500 * time.Millisecond, RetryPeriod: 200 * time.Millisecond},
	})
	if err != nil {
		t.Fatal(err)
	}
	// The key is named once, by the ring (its default, uid): the
	// informer and the controller take it.
	cms := informer.Shared[*corev1.ConfigMap](m.Factory(), informer.Scope{Namespace: "default"})
	m.Add(newController(t, "count", cms, controller.ReconcilerFunc(func(ctx context.Context, req controller.Request) (controller.Result, error) {
		rec.mu.Lock()
		if other, ok := rec.running[req.Name]; ok {
			rec.overlaps = append(rec.overlaps, fmt.Sprintf("%s reconciled by %s and %s at once", req.Name, id, other))
		}
		rec.running[req.Name] = id
		if rec.by[req.Name] == nil {
			rec.by[req.Name] = map[string]bool{}
		}
		rec.by[req.Name][id] = true
		rec.mu.Unlock()
		time.Sleep(time.Millisecond)
		rec.mu.Lock()
		delete(rec.running, req.Name)
		rec.mu.Unlock()
		return controller.Result{}, nil
	}), controller.Options{Workers: 2}))
	r := &shardedReplica{id: id, m: m, cms: cms, done: make(chan error, 1)}
	ctx, cancel := context.WithCancel(context.Background())
	r.cancel = cancel
	go func() { r.done <- m.Run(ctx) }()
	t.Cleanup(func() { _ = r.stop() })
	return r
}

func (r *shardedReplica) stop() error {
	if r.cancel == nil {
		return nil
	}
	r.cancel()
	r.cancel = nil
	select {
	case err := <-r.done:
		return err
	case <-time.After(time.Minute):
		return errors.New("Run did not return")
	}
}

// Three sharded replicas: every object cached by exactly one and
// reconciled by it alone; a replica leaving hands its objects over.
func TestShardedReplicas(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv, cfg := newServer(t)
		for i := range 60 {
			if err := srv.Add(&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: fmt.Sprintf("cm-%02d", i)}}); err != nil {
				t.Fatal(err)
			}
		}
		rec := &reconciles{by: map[string]map[string]bool{}, running: map[string]string{}}
		rs := []*shardedReplica{startSharded(t, cfg, "r1", rec), startSharded(t, cfg, "r2", rec), startSharded(t, cfg, "r3", rec)}
		// exclusive reports "" once every object is cached by exactly one
		// of rs and every replica has its share.
		exclusive := func(rs []*shardedReplica) func() string {
			return func() string {
				held := map[string][]string{}
				for _, r := range rs {
					st := r.m.Member().Status()
					if len(st.Members) != len(rs) || st.Acting != st.Assigned {
						return fmt.Sprintf("%s: %+v", r.id, st)
					}
					if got, ok := r.cms.SyncedShard(); !ok || !got.Equal(st.Selector) {
						return fmt.Sprintf("%s: cache holds %v, works on %v", r.id, got, st.Selector)
					}
					for _, k := range r.cms.Store().ListKeys() {
						held[k] = append(held[k], r.id)
					}
				}
				if len(held) != 60 {
					return fmt.Sprintf("%d objects cached, want 60", len(held))
				}
				for k, by := range held {
					if len(by) != 1 {
						return fmt.Sprintf("%s cached by %v", k, by)
					}
				}
				return ""
			}
		}
		waitUntil(t, 30*time.Second, exclusive(rs))
		waitUntil(t, 30*time.Second, func() string {
			rec.mu.Lock()
			defer rec.mu.Unlock()
			if len(rec.by) != 60 {
				return fmt.Sprintf("%d objects reconciled", len(rec.by))
			}
			return ""
		})
		ready := rs[0].m.Ready()
		lines, _ := readyzBody(t, rs[0].m)
		if ready != nil || !strings.Contains(lines, "[+]sharding: r1, one of 3 members") {
			t.Errorf("Ready: %v\n%s", ready, lines)
		}

		if err := rs[1].stop(); err != nil {
			t.Fatalf("stop: %v", err)
		}
		waitUntil(t, 30*time.Second, exclusive([]*shardedReplica{rs[0], rs[2]}))
		rec.mu.Lock()
		for _, o := range rec.overlaps {
			t.Error(o)
		}
		rec.mu.Unlock()

		if _, err := manager.New(newClient(t, cfg), manager.Options{Name: "x", Sharding: &sharding.Config{}, LeaderElection: &leaderelection.Config{}}); !errors.Is(err, manager.ErrInvalidOptions) {
			t.Errorf("Sharding with LeaderElection: %v", err)
		}
		// A nil *sharding.Config in the interface field is no sharding.
		var none *sharding.Config
		if m, err := manager.New(newClient(t, cfg), manager.Options{Name: "x", Sharding: none, LeaderElection: &leaderelection.Config{}}); err != nil || m.Member() != nil || m.ShardKey() != "" {
			t.Errorf("nil Sharding: %v", err)
		}
		if _, err := manager.New(newClient(t, cfg), manager.Options{Name: "x", Sharding: &sharding.Config{}, Informers: informer.FactoryOptions{Shard: client.ShardByNamespace}}); !errors.Is(err, manager.ErrInvalidOptions) {
			t.Errorf("Informers.Shard other than the ring's key: %v", err)
		}
	})
}

func waitUntil(t *testing.T, timeout time.Duration, cond func() string) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		msg := cond()
		if msg == "" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal(msg)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// readyzBody is the /readyz answer of m's Handler.
func readyzBody(t *testing.T, m *manager.Manager) (string, int) {
	t.Helper()
	rw := httptest.NewRecorder()
	m.Handler().ServeHTTP(rw, httptest.NewRequest("GET", "/readyz", nil))
	return rw.Body.String(), rw.Code
}

// The start line of a sharded replica names it and its ring, as a
// leader-electing one names its identity and Lease: three replicas
// logging to one place (a test, kubectl logs -l) are told apart.
func TestStartupLoggedSharded(t *testing.T) {
	_, cfg := newNetServer(t)
	var logs lockedBuffer
	m, err := manager.New(newClient(t, cfg), manager.Options{Name: "startup-test",
		Sharding: &sharding.Config{Namespace: "default", Identity: "replica-2"},
		Logger:   slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- m.Run(ctx) }()
	if err := m.Factory().WaitForSync(ctx); err != nil {
		t.Fatal(err)
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("Run = %v", err)
	}
	want := `mode="sharded: member replica-2 of ring startup-test by object.metadata.uid"`
	if out := logs.String(); !strings.Contains(out, want) {
		t.Errorf("the log lacks %q:\n%s", want, out)
	}
}
