package manager_test

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	coordinationv1 "github.com/kubewire/kubewire/api/coordination/v1"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/controller"
	"github.com/kubewire/kubewire/informer"
	"github.com/kubewire/kubewire/leaderelection"
	"github.com/kubewire/kubewire/manager"
)

// requestLog records the writes a client sends, in order, as
// "VERB resource" lines (a Lease write says who it names).
type requestLog struct {
	next http.RoundTripper
	mu   sync.Mutex
	log  []string
}

func (l *requestLog) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := l.next.RoundTrip(req)
	if req.Method != http.MethodGet && err == nil && resp.StatusCode < 300 {
		parts := strings.Split(strings.TrimSuffix(req.URL.Path, "/"), "/")
		resource := parts[len(parts)-1]
		if len(parts) >= 2 && req.Method != http.MethodPost {
			resource = parts[len(parts)-2]
		}
		l.mu.Lock()
		l.log = append(l.log, req.Method+" "+resource)
		l.mu.Unlock()
	}
	return resp, err
}

func (l *requestLog) writes() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.log...)
}

// leaseHolder is who the Lease names, "" when released.
func leaseHolder(t *testing.T, c *client.Client) string {
	t.Helper()
	l, err := client.For[*coordinationv1.Lease](c).Namespace("default").Get(context.Background(), "shutdown-operator", client.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if l.Spec.HolderIdentity == nil {
		return ""
	}
	return *l.Spec.HolderIdentity
}

// When Run's ctx ends while a Reconcile is in flight, the manager stops
// handing out work but lets that Reconcile finish with a live ctx (its
// status write and its event reach the server), keeps renewing the
// Lease meanwhile, and releases the Lease only after: the next replica
// then takes over without two leaders writing at once. A Reconcile
// still running at GracefulShutdownTimeout has its ctx canceled then.
func TestGracefulShutdown(t *testing.T) {
	for _, tc := range []struct {
		name     string
		finishAt time.Duration // after the ctx ended; 0: the Reconcile waits for its ctx
		wantErr  bool
		alone    bool // no leader election
	}{
		{name: "finishes within the bound", finishAt: 20 * time.Second},
		{name: "runs past the bound", wantErr: true},
		{name: "alone, finishes within the bound", finishAt: 20 * time.Second, alone: true},
		{name: "alone, runs past the bound", wantErr: true, alone: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				srv, cfg := newServer(t)
				if err := srv.Add(&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "cm"}}); err != nil {
					t.Fatal(err)
				}
				log := &requestLog{next: cfg.Transport}
				cfg.Transport = log
				c := newClient(t, cfg)
				opts := manager.Options{Name: "shutdown-operator", Logger: slog.New(slog.DiscardHandler)}
				if !tc.alone {
					opts.LeaderElection = &leaderelection.Config{Namespace: "default", Identity: "a",
						LeaseDuration: 4 * time.Second, RenewDeadline: 3 * time.Second, RetryPeriod: time.Second}
				}
				m, err := manager.New(c, opts)
				if err != nil {
					t.Fatal(err)
				}
				cms := informer.Shared[*corev1.ConfigMap](m.Factory(), informer.Scope{Namespace: "default"})
				started := make(chan struct{})
				var stopped time.Time
				var ctxEndedAt time.Time
				var reconcileErr error
				var holderAtWrite string
				m.Add(newController(t, "slow", cms, controller.ReconcilerFunc(func(ctx context.Context, req controller.Request) (controller.Result, error) {
					close(started)
					if tc.finishAt == 0 {
						<-ctx.Done()
						ctxEndedAt = time.Now()
						reconcileErr = ctx.Err()
						return controller.Result{}, ctx.Err()
					}
					select {
					case <-time.After(tc.finishAt):
					case <-ctx.Done():
						reconcileErr = ctx.Err()
						return controller.Result{}, ctx.Err()
					}
					if !tc.alone {
						holderAtWrite = leaseHolder(t, c)
					}
					cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "cm"}, Data: map[string]string{"done": "yes"}}
					_, reconcileErr = client.For[*corev1.ConfigMap](c).Update(ctx, cm, client.UpdateOptions{})
					m.Events().Eventf(cm, nil, "Normal", "Done", "Reconcile", "finished after the stop")
					return controller.Result{}, reconcileErr
				}), controller.Options{}))

				ctx, cancel := context.WithCancel(t.Context())
				done := make(chan error, 1)
				go func() { done <- m.Run(ctx) }()
				<-started
				stopped = time.Now()
				cancel()
				err = <-done
				if err != nil {
					t.Errorf("Run = %v", err)
				}
				if took := time.Since(stopped); took > manager.DefaultGracefulShutdownTimeout {
					t.Errorf("Run returned %v after its ctx ended, want within %v", took, manager.DefaultGracefulShutdownTimeout)
				}
				if tc.wantErr {
					if after := ctxEndedAt.Sub(stopped); !errors.Is(reconcileErr, context.Canceled) || after != manager.DefaultGracefulShutdownTimeout {
						t.Errorf("the Reconcile running past the bound: its ctx ended %v after the stop with %v, want %v later, canceled", after, reconcileErr, manager.DefaultGracefulShutdownTimeout)
					}
				} else {
					if reconcileErr != nil {
						t.Errorf("the Reconcile in flight at the stop could not write: %v", reconcileErr)
					}
					if !tc.alone && holderAtWrite != "a" {
						t.Errorf("when the Reconcile wrote, %ds after the stop, the Lease named %q, want %q (still renewed)", int(tc.finishAt/time.Second), holderAtWrite, "a")
					}
				}
				if tc.alone {
					if !tc.wantErr && index(log.writes(), "POST events") < 0 {
						t.Errorf("writes %q: no event", log.writes())
					}
					return
				}
				if h := leaseHolder(t, c); h != "" {
					t.Errorf("after Run, the Lease names %q, want it released", h)
				}
				// The order of the writes: the Reconcile's and its event's
				// before the Lease's release, the last write.
				w := log.writes()
				release := len(w) - 1
				if release < 0 || w[release] != "PUT leases" {
					t.Fatalf("the last write is not the Lease's release: %q", w)
				}
				if !tc.wantErr {
					cmAt, eventAt := index(w, "PUT configmaps"), index(w, "POST events")
					if cmAt < 0 || eventAt < 0 || cmAt > release || eventAt > release {
						t.Errorf("writes %q: want the ConfigMap's update and the event before the Lease's release", w)
					}
				}
			})
		})
	}
}

func index(s []string, v string) int {
	for i, x := range s {
		if x == v {
			return i
		}
	}
	return -1
}

// A lost leadership is no graceful stop: the Reconcile in flight has its
// ctx canceled at the renew deadline, before another replica may lead,
// not GracefulShutdownTimeout later.
func TestLeadershipLostCancelsAtOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv, cfg := newServer(t)
		if err := srv.Add(&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "cm"}}); err != nil {
			t.Fatal(err)
		}
		cfg.Retry.MaxAttempts = 1
		m, err := manager.New(newClient(t, cfg), manager.Options{Name: "shutdown-operator", Logger: slog.New(slog.DiscardHandler),
			LeaderElection: &leaderelection.Config{Namespace: "default", Identity: "a",
				LeaseDuration: 4 * time.Second, RenewDeadline: 3 * time.Second, RetryPeriod: time.Second}})
		if err != nil {
			t.Fatal(err)
		}
		cms := informer.Shared[*corev1.ConfigMap](m.Factory(), informer.Scope{Namespace: "default"})
		started, ended := make(chan time.Time, 1), make(chan time.Time, 1)
		m.Add(newController(t, "slow", cms, controller.ReconcilerFunc(func(ctx context.Context, req controller.Request) (controller.Result, error) {
			select {
			case started <- time.Now():
				<-ctx.Done()
				ended <- time.Now()
			default: // reconciled again by the next term
			}
			return controller.Result{}, nil
		}), controller.Options{}))
		ctx, cancel := context.WithCancel(t.Context())
		done := make(chan error, 1)
		go func() { done <- m.Run(ctx) }()
		at := <-started
		srv.Faults().FailNext(1_000_000, http.StatusServiceUnavailable, 0)
		if took := (<-ended).Sub(at); took > 3*time.Second {
			t.Errorf("the Reconcile's ctx ended %v after renewals began failing, want within the renew deadline (3s)", took)
		}
		srv.Faults().Clear()
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run = %v", err)
		}
	})
}

// A Runnable of the program's own finishes its work under
// controller.ShutdownGrace(ctx) after its ctx ended, within the bound.
func TestRunnableShutdownGrace(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		_, cfg := newServer(t)
		c := newClient(t, cfg)
		m, err := manager.New(c, manager.Options{Name: "shutdown-operator", Logger: slog.New(slog.DiscardHandler), GracefulShutdownTimeout: time.Minute})
		if err != nil {
			t.Fatal(err)
		}
		running := make(chan struct{})
		var writeErr error
		m.Add(runnableFunc(func(ctx context.Context) error {
			close(running)
			<-ctx.Done()
			grace := controller.ShutdownGrace(ctx)
			time.Sleep(50 * time.Second) // the work still to do
			cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "last-words"}}
			_, writeErr = client.For[*corev1.ConfigMap](c).Create(grace, cm, client.CreateOptions{})
			return nil
		}))
		ctx, cancel := context.WithCancel(t.Context())
		done := make(chan error, 1)
		go func() { done <- m.Run(ctx) }()
		<-running
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run = %v", err)
		}
		if writeErr != nil {
			t.Errorf("the Runnable's write 50s into a 1m grace: %v", writeErr)
		}
	})
}
