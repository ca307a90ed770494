package manager_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/controller"
	"github.com/kubewire/kubewire/events"
	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/fake/fakeclient"
	"github.com/kubewire/kubewire/informer"
	"github.com/kubewire/kubewire/leaderelection"
	"github.com/kubewire/kubewire/manager"
	"github.com/kubewire/kubewire/reflector"
	"github.com/kubewire/kubewire/sharding"
)

// newServer is a fake server in memory and a client.Config reaching it,
// for tests in testing/synctest bubbles (virtual time).
func newServer(t *testing.T) (*fake.Server, client.Config) {
	t.Helper()
	srv := fake.New(fake.Options{})
	t.Cleanup(srv.Close)
	cfg := fakeclient.Config(srv)
	cfg.Host, cfg.TLS, cfg.Transport = "http://fake", client.TLSConfig{}, srv.RoundTripper()
	return srv, cfg
}

// newNetServer is a fake server over loopback, for the tests of the
// manager's own listeners, which run on real time.
func newNetServer(t *testing.T) (*fake.Server, client.Config) {
	t.Helper()
	srv, cfg := fakeclient.Start(fake.Options{})
	t.Cleanup(srv.Close)
	return srv, cfg
}

// newController is controller.New for arguments the test knows are
// valid.
func newController[T client.Object](t testing.TB, name string, inf *informer.Informer[T], r controller.Reconciler, opts controller.Options) *controller.Controller[T] {
	t.Helper()
	ctl, err := controller.New(name, inf, r, opts)
	if err != nil {
		t.Fatal(err)
	}
	return ctl
}

func newClient(t *testing.T, cfg client.Config) *client.Client {
	t.Helper()
	c, err := client.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// replica is one manager with a controller counting its reconciles.
type replica struct {
	id      string
	m       *manager.Manager
	counted atomic.Int64
	cancel  context.CancelFunc
	done    chan error
}

func startReplica(t *testing.T, cfg client.Config, id string) *replica {
	t.Helper()
	r := &replica{id: id, done: make(chan error, 1)}
	m, err := manager.New(newClient(t, cfg), manager.Options{
		Name: "test-operator",
		LeaderElection: &leaderelection.Config{Namespace: "default", Identity: id,
			LeaseDuration: 2 * time.Second, RenewDeadline: 1500 * time.Millisecond, RetryPeriod: 200 * time.Millisecond},
	})
	if err != nil {
		t.Fatal(err)
	}
	r.m = m
	cms := informer.Shared[*corev1.ConfigMap](m.Factory(), informer.Scope{Namespace: "default"})
	m.Add(newController(t, "count", cms, controller.ReconcilerFunc(func(ctx context.Context, req controller.Request) (controller.Result, error) {
		r.counted.Add(1)
		return controller.Result{}, nil
	}), controller.Options{}))
	ctx, cancel := context.WithCancel(context.Background())
	r.cancel = cancel
	go func() { r.done <- m.Run(ctx) }()
	t.Cleanup(func() { _ = r.stop() })
	return r
}

func (r *replica) stop() error {
	r.cancel()
	select {
	case err, ok := <-r.done:
		if ok {
			close(r.done)
		}
		return err
	case <-time.After(30 * time.Second):
		return errors.New("Run did not return")
	}
}

func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting until %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// Two replicas: one leads and reconciles, the other stands by with warm
// caches and is ready; when the leader stops, the standby leads and
// reconciles everything once, then follows changes.
func TestTwoReplicas(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv, cfg := newServer(t)
		for i := range 10 {
			if err := srv.Add(&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: fmt.Sprintf("cm-%d", i)}}); err != nil {
				t.Fatal(err)
			}
		}
		a := startReplica(t, cfg, "a")
		eventually(t, "a leads", a.m.IsLeader)
		b := startReplica(t, cfg, "b")
		eventually(t, "a reconciled everything", func() bool { return a.counted.Load() >= 10 })
		eventually(t, "b is ready", func() bool { return b.m.Ready() == nil })
		time.Sleep(500 * time.Millisecond)
		if b.m.IsLeader() || b.counted.Load() != 0 {
			t.Fatalf("standby b: leader %v, %d reconciles", b.m.IsLeader(), b.counted.Load())
		}

		if err := a.stop(); err != nil {
			t.Fatalf("a: Run = %v", err)
		}
		eventually(t, "b leads", b.m.IsLeader)
		eventually(t, "b reconciled everything", func() bool { return b.counted.Load() >= 10 })
		before := b.counted.Load()
		if _, err := client.For[*corev1.ConfigMap](newClient(t, cfg)).Create(t.Context(), &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "late"}}, client.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		eventually(t, "b reconciled the new object", func() bool { return b.counted.Load() > before })
		if err := b.stop(); err != nil {
			t.Errorf("b: Run = %v", err)
		}
	})
}

func get(t *testing.T, h http.Handler, path string) (int, string) {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
	b, _ := io.ReadAll(rec.Result().Body)
	return rec.Code, string(b)
}

// /readyz follows the informers' sync, the controllers' sources and the
// consistency checks: one given by CheckConsistency, and those of every
// informer of the Factory (Options.CheckPeriod).
func TestReadyz(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv, cfg := newServer(t)
		if err := srv.Add(&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "a"}}); err != nil {
			t.Fatal(err)
		}
		c := newClient(t, cfg)
		var checked atomic.Int64
		m, err := manager.New(c, manager.Options{Name: "readyz-test", CheckPeriod: time.Minute, Metrics: metricsFunc(func() { checked.Add(1) })})
		if err != nil {
			t.Fatal(err)
		}
		cms := informer.Shared[*corev1.ConfigMap](m.Factory(), informer.Scope{Namespace: "default"})
		m.Add(newController(t, "noop", cms, controller.ReconcilerFunc(func(context.Context, controller.Request) (controller.Result, error) {
			return controller.Result{}, nil
		}), controller.Options{}))
		var lie atomic.Bool
		err = m.CheckConsistency("configmaps", 10*time.Second, func(ctx context.Context) (informer.Report, error) {
			r, err := cms.Check(ctx)
			if err == nil && lie.Load() { // as if the cache held an object the server does not
				r.Extra, r.Diff = []string{"default/ghost"}, "+default/ghost: 1\n"
			}
			return r, err
		})
		if err != nil {
			t.Fatal(err)
		}

		h := m.Handler()
		if code, body := get(t, h, "/readyz"); code != 503 || !strings.Contains(body, "[-]informers: not synced yet") {
			t.Errorf("before Run: %d\n%s", code, body)
		}
		ctx, cancel := context.WithCancel(t.Context())
		done := make(chan error, 1)
		go func() { done <- m.Run(ctx) }()
		eventually(t, "ready", func() bool { code, _ := get(t, h, "/readyz"); return code == 200 })
		time.Sleep(time.Minute) // the Factory's checks ran once
		_, body := get(t, h, "/readyz")
		for _, want := range []string{"[+]informers ok", "[+]controller noop ok", "[+]consistency configmaps ok",
			"[+]consistency configmaps (v1) in namespace default ok", "[+]leader: no election", "readyz check passed"} {
			if !strings.Contains(body, want) {
				t.Errorf("/readyz lacks %q:\n%s", want, body)
			}
		}

		lie.Store(true)
		eventually(t, "an inconsistency fails readiness", func() bool { code, _ := get(t, h, "/readyz"); return code == 503 })
		_, body = get(t, h, "/readyz")
		if !strings.Contains(body, "[-]consistency configmaps: inconsistent at resourceVersion") || !strings.Contains(body, "1 extra") {
			t.Errorf("/readyz with an inconsistent cache:\n%s", body)
		}
		lie.Store(false)
		eventually(t, "ready again", func() bool { code, _ := get(t, h, "/readyz"); return code == 200 })
		if checked.Load() == 0 {
			t.Error("Metrics.Checked never called")
		}
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run = %v", err)
		}
	})
}

// Between an informer's list and its watch the Runnables have not
// started yet: /readyz says the informers are not synced and no Runnable
// line says "ok" beside it.
func TestReadyzBeforeTheWatchStarts(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv, cfg := newServer(t)
		srv.Faults().Add(fake.Fault{Match: fake.Match{Verbs: []string{"watch"}}, Times: 1, Latency: 30 * time.Second})
		m, err := manager.New(newClient(t, cfg), manager.Options{Name: "gap"})
		if err != nil {
			t.Fatal(err)
		}
		cms := informer.Shared[*corev1.ConfigMap](m.Factory(), informer.Scope{Namespace: "default"})
		m.Add(newController(t, "noop", cms, controller.ReconcilerFunc(func(context.Context, controller.Request) (controller.Result, error) {
			return controller.Result{}, nil
		}), controller.Options{}))
		ctx, cancel := context.WithCancel(t.Context())
		done := make(chan error, 1)
		go func() { done <- m.Run(ctx) }()
		eventually(t, "listed", cms.HasSynced)
		h := m.Handler()
		code, body := get(t, h, "/readyz")
		if code != 503 || !strings.Contains(body, "[-]informers: not synced yet") || strings.Contains(body, "[+]controller") {
			t.Errorf("listed, watch not started: %d\n%s", code, body)
		}
		time.Sleep(time.Minute) // the delayed watch started
		eventually(t, "ready", func() bool { code, _ := get(t, h, "/readyz"); return code == 200 })
		if _, body := get(t, h, "/readyz"); !strings.Contains(body, "[+]controller noop ok") {
			t.Errorf("once synced:\n%s", body)
		}
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run = %v", err)
		}
	})
}

// With HealthAddr, Run serves /healthz and /readyz on a listener of its
// own, from before the Runnables start until it returns.
func TestHealthServed(t *testing.T) {
	_, cfg := newNetServer(t)
	m, err := manager.New(newClient(t, cfg), manager.Options{Name: "health-test", HealthAddr: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	running := make(chan struct{})
	m.Add(runnableFunc(func(ctx context.Context) error {
		close(running)
		<-ctx.Done()
		return nil
	}))
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- m.Run(ctx) }()
	<-running
	resp, err := http.Get("http://" + m.HealthAddr() + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || string(b) != "ok\n" {
		t.Errorf("/healthz on %s: %d %q", m.HealthAddr(), resp.StatusCode, b)
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("Run = %v", err)
	}
	if _, err := http.Get("http://" + m.HealthAddr() + "/healthz"); err == nil {
		t.Error("the health server still serves after Run returned")
	}
}

// The first log lines at Info say where the endpoints listen (the bound
// addresses) and how the replica runs, then that the informers synced and
// the runnables started: a deployed operator is never silent at start.
func TestStartupLogged(t *testing.T) {
	_, cfg := newNetServer(t)
	var logs lockedBuffer
	m, err := manager.New(newClient(t, cfg), manager.Options{Name: "startup-test", HealthAddr: "127.0.0.1:0", MetricsAddr: "127.0.0.1:0",
		Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	running := make(chan struct{})
	m.Add(runnableFunc(func(ctx context.Context) error {
		close(running)
		<-ctx.Done()
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
	out := logs.String()
	for _, want := range []string{
		"level=INFO msg=\"manager: starting\" manager=startup-test metrics=" + m.MetricsAddr() + " health=" + m.HealthAddr() + " mode=\"no election",
		"level=INFO msg=\"manager: informers synced\"",
		"level=INFO msg=\"manager: starting the runnables\" manager=startup-test runnables=1",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the log lacks %q:\n%s", want, out)
		}
	}
}

type metricsFunc func()

func (f metricsFunc) Checked(string, informer.Report, error) { f() }

// A Runnable that fails ends Run with its error; so do informers that
// cannot sync.
func TestRunFails(t *testing.T) {
	tests := []struct {
		name  string
		setup func(m *manager.Manager)
		want  string
	}{
		{"RunnableFails", func(m *manager.Manager) {
			m.Add(runnableFunc(func(ctx context.Context) error { return errors.New("cannot start") }))
		}, "cannot start"},
		{"InformersDoNotSync", func(m *manager.Manager) {
			informer.SharedDynamic(m.Factory(), client.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "missing"}, informer.Scope{})
		}, "informers not synced"},
		// A custom resource whose definition is not installed is the
		// usual cause of a 404 list: the error says what to do.
		{"ResourceNotServed", func(m *manager.Manager) {
			informer.SharedDynamic(m.Factory(), client.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "missing"}, informer.Scope{})
		}, "not served: a custom resource's CustomResourceDefinition must be installed first"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				_, cfg := newServer(t)
				m, err := manager.New(newClient(t, cfg), manager.Options{Name: "fails", SyncTimeout: 300 * time.Millisecond,
					LeaderElection: &leaderelection.Config{Namespace: "default", Name: "fails-" + strings.ToLower(tt.name)}})
				if err != nil {
					t.Fatal(err)
				}
				tt.setup(m)
				ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
				defer cancel()
				if err := m.Run(ctx); err == nil || !strings.Contains(err.Error(), tt.want) {
					t.Errorf("Run = %v, want an error saying %q", err, tt.want)
				}
			})
		})
	}
}

type runnableFunc func(ctx context.Context) error

func (f runnableFunc) Run(ctx context.Context) error { return f(ctx) }

func TestInvalidOptions(t *testing.T) {
	_, cfg := newServer(t)
	c := newClient(t, cfg)
	tests := []struct {
		name string
		opts manager.Options
		want error
	}{
		{"NoName", manager.Options{}, manager.ErrInvalidOptions},
		{"OwnCallback", manager.Options{Name: "x", LeaderElection: &leaderelection.Config{Namespace: "n", Callbacks: leaderelection.Callbacks{OnStartedLeading: func(context.Context) {}}}}, manager.ErrInvalidOptions},
		{"BadLeaseTimings", manager.Options{Name: "x", LeaderElection: &leaderelection.Config{LeaseDuration: time.Second, RenewDeadline: 2 * time.Second}}, leaderelection.ErrInvalidConfig},
		{"BadComponent", manager.Options{Name: "x", Events: events.Options{Component: "not a name!"}}, events.ErrInvalidOptions},
		{"BadLeaseName", manager.Options{Name: "My_Operator", LeaderElection: &leaderelection.Config{}}, leaderelection.ErrInvalidConfig},
		{"BadRingName", manager.Options{Name: "x", Sharding: &sharding.Config{Name: "Ring"}}, sharding.ErrInvalidConfig},
		{"NegativeSyncTimeout", manager.Options{Name: "x", SyncTimeout: -time.Second}, manager.ErrInvalidOptions},
		{"NegativeCheckPeriod", manager.Options{Name: "x", CheckPeriod: -time.Second}, manager.ErrInvalidOptions},
		{"BadInformerOptions", manager.Options{Name: "x", Informers: informer.FactoryOptions{Reflector: reflector.Options{PageSize: -1}}}, client.ErrInvalidOptions},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := manager.New(c, tt.opts)
			if m != nil || !errors.Is(err, tt.want) || !errors.Is(err, client.ErrInvalidOptions) {
				t.Errorf("New = %v, %v; want nil and %v", m, err, tt.want)
			}
		})
	}
	if _, err := manager.New(nil, manager.Options{Name: "x"}); !errors.Is(err, manager.ErrInvalidOptions) {
		t.Errorf("New(nil, ...) = %v", err)
	}
	m, err := manager.New(c, manager.Options{Name: "x"})
	if err != nil {
		t.Fatal(err)
	}
	if err := m.CheckConsistency("zero", 0, nil); !errors.Is(err, manager.ErrInvalidOptions) {
		t.Errorf("CheckConsistency with period 0 = %v", err)
	}
}

// A leader that cannot renew (the server fails every request) stops its
// controllers at the renew deadline, campaigns again, and once the
// server is back leads again and reconciles everything once more.
func TestLeadershipLostAndRegained(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv, cfg := newServer(t)
		for i := range 5 {
			if err := srv.Add(&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: fmt.Sprintf("cm-%d", i)}}); err != nil {
				t.Fatal(err)
			}
		}
		cfg.Retry.MaxAttempts = 1
		a := startReplica(t, cfg, "a")
		eventually(t, "a reconciled everything", func() bool { return a.counted.Load() >= 5 })
		srv.Faults().FailNext(1_000_000, http.StatusServiceUnavailable, 0)
		eventually(t, "a steps down", func() bool { return !a.m.IsLeader() })
		// The Lease still names a: /readyz must not say another replica leads.
		if _, body := get(t, a.m.Handler(), "/readyz?verbose"); !strings.Contains(body, "[+]leader: standing by; the Lease still names this replica (a), whose term lapsed") {
			t.Errorf("/readyz of a leader that could not renew:\n%s", body)
		}
		srv.Faults().Clear()
		eventually(t, "a leads again", a.m.IsLeader)
		eventually(t, "a reconciled everything again", func() bool { return a.counted.Load() >= 10 })
		if err := a.stop(); err != nil {
			t.Errorf("Run = %v", err)
		}
	})
}

// A replica whose identity may not touch the Lease (no RBAC rule for
// leases) can never lead: /readyz fails with the refusal instead of
// saying "standing by" for ever, and passes once the Lease may be used.
func TestLeaseRefusedIsNotReady(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv, cfg := newServer(t)
		remove := srv.Faults().Add(fake.Fault{Match: fake.Match{Resource: "leases"}, Code: http.StatusForbidden,
			Message: `leases.coordination.k8s.io "test-operator" is forbidden: User "a" cannot get resource "leases"`})
		a := startReplica(t, cfg, "a")
		eventually(t, "the refusal fails /readyz", func() bool {
			code, body := get(t, a.m.Handler(), "/readyz?verbose")
			return code == 503 && strings.Contains(body, "[-]leader: cannot campaign, the Lease is refused")
		})
		if _, body := get(t, a.m.Handler(), "/readyz?verbose"); !strings.Contains(body, "[+]informers ok") || !strings.Contains(body, "forbidden") {
			t.Errorf("/readyz of a replica refused the Lease:\n%s", body)
		}
		if err := a.m.Ready(); err == nil {
			t.Errorf("Ready() = nil for a replica refused the Lease")
		}
		remove()
		eventually(t, "a leads once the Lease may be used", a.m.IsLeader)
		if code, body := get(t, a.m.Handler(), "/readyz?verbose"); code != 200 {
			t.Errorf("/readyz of the leader = %d:\n%s", code, body)
		}
		if err := a.stop(); err != nil {
			t.Errorf("Run = %v", err)
		}
	})
}

// checkNoGoroutines fails if a goroutine runs code of the given packages
// (polling briefly: goroutines may still be winding down).
func checkNoGoroutines(t *testing.T, pkgs ...string) {
	t.Helper()
	var stacks string
	for range 100 {
		buf := make([]byte, 1<<20)
		stacks = string(buf[:runtime.Stack(buf, true)])
		found := false
		for _, g := range strings.Split(stacks, "\n\n")[1:] {
			for _, p := range pkgs {
				found = found || strings.Contains(g, p)
			}
		}
		if !found {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Errorf("goroutines left behind:\n%s", stacks)
}

// After Run returns, nothing the manager started runs on.
func TestNoGoroutineLeftBehind(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		_, cfg := newServer(t)
		r := startReplica(t, cfg, "only")
		eventually(t, "it leads", r.m.IsLeader)
		if err := r.stop(); err != nil {
			t.Fatal(err)
		}
		checkNoGoroutines(t, "kubewire/manager.(*", "kubewire/controller.(*", "kubewire/informer.(*", "kubewire/reflector.(*", "kubewire/events.(*", "kubewire/leaderelection.(*")
	})
}
