package manager_test

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync/atomic"
	"testing"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/controller"
	"github.com/kubewire/kubewire/informer"
	"github.com/kubewire/kubewire/manager"
)

// The program's own checks join /healthz and /readyz, as
// controller-runtime's AddHealthzCheck and AddReadyzCheck do: a failing
// liveness check answers 500, a failing readiness check 503, each with
// its name and reason; without checks /healthz answers "ok" as before.
func TestProgramChecks(t *testing.T) {
	_, cfg := newNetServer(t)
	m, err := manager.New(newClient(t, cfg), manager.Options{Name: "probes"})
	if err != nil {
		t.Fatal(err)
	}
	h := m.Handler()
	if code, body := get(t, h, "/healthz"); code != 200 || body != "ok\n" {
		t.Errorf("/healthz without checks: %d %q, want 200 \"ok\\n\"", code, body)
	}

	var stuck, dbDown atomic.Bool
	m.AddHealthzCheck("work-loop", func() error {
		if stuck.Load() {
			return errors.New("no progress for 5m")
		}
		return nil
	})
	m.AddReadyzCheck("database", func() error {
		if dbDown.Load() {
			return errors.New("dial tcp 10.0.0.7:5432: connection refused")
		}
		return nil
	})
	if code, body := get(t, h, "/healthz"); code != 200 || !strings.Contains(body, "[+]work-loop ok") {
		t.Errorf("/healthz with a passing check: %d %q", code, body)
	}
	stuck.Store(true)
	if code, body := get(t, h, "/healthz"); code != 500 || !strings.Contains(body, "[-]work-loop: no progress for 5m") {
		t.Errorf("/healthz with a failing check: %d %q, want 500 naming work-loop", code, body)
	}
	if code, body := get(t, h, "/readyz"); !strings.Contains(body, "[+]database ok") {
		t.Errorf("/readyz: %d %q, want the database check's line", code, body)
	}
	dbDown.Store(true)
	if code, body := get(t, h, "/readyz"); code != 503 || !strings.Contains(body, "[-]database: dial tcp 10.0.0.7:5432: connection refused") {
		t.Errorf("/readyz with a failing check: %d %q, want 503 naming database", code, body)
	}
	if err := m.Ready(); err == nil || !strings.Contains(err.Error(), "database") {
		t.Errorf("Ready = %v, want the database check's failure", err)
	}
}

// Options.DetectCacheMutations reaches the controllers added: a test
// giving it to the program's run function finds a Reconcile that
// changes the cache's object.
func TestDetectCacheMutationsReachesControllers(t *testing.T) {
	srv, cfg := newNetServer(t)
	if err := srv.Add(&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "a"}}); err != nil {
		t.Fatal(err)
	}
	m, err := manager.New(newClient(t, cfg), manager.Options{Name: "mutations", DetectCacheMutations: true,
		Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	errs := make(chan error, 100)
	cms := informer.Shared[*corev1.ConfigMap](m.Factory(), informer.Scope{Namespace: "default"})
	reconcile := controller.ForObject(cms, func(ctx context.Context, cm *corev1.ConfigMap) (controller.Result, error) {
		cm.Data = map[string]string{"seen": "yes"} // the cache's object
		return controller.Result{}, nil
	})
	ctl, err := controller.New("mutates", cms, controller.ReconcilerFunc(func(ctx context.Context, req controller.Request) (controller.Result, error) {
		res, err := reconcile.Reconcile(ctx, req)
		errs <- err
		return res, err
	}), controller.Options{})
	if err != nil {
		t.Fatal(err)
	}
	m.Add(ctl)
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- m.Run(ctx) }()
	err = <-errs
	cancel()
	if runErr := <-done; runErr != nil {
		t.Errorf("Run = %v", runErr)
	}
	if !errors.Is(err, controller.ErrCacheMutated) {
		t.Errorf("Reconcile = %v, want ErrCacheMutated", err)
	}
}
