package manager_test

import (
	"errors"
	"strings"
	"sync/atomic"
	"testing"

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
