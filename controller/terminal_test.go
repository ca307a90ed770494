package controller_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/controller"
	"github.com/kubewire/kubewire/informer"
)

// A TerminalError is logged and counted as an error but not retried:
// the Request waits for a change. An error returned with a RequeueAfter
// is retried after its backoff, and the line says the RequeueAfter was
// ignored (controller-runtime's rule, which its users expect).
func TestTerminalError(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t)
		create(t, e.direct, configMap("default", "invalid", ""), configMap("default", "both", ""))
		f := newFactory(t, e.ctl, informer.FactoryOptions{})
		cms := informer.Shared[*corev1.ConfigMap](f, informer.Scope{Namespace: "default"})

		var mu sync.Mutex
		calls := map[string]int{}
		r := controller.ReconcilerFunc(func(ctx context.Context, req controller.Request) (controller.Result, error) {
			mu.Lock()
			calls[req.Name]++
			n := calls[req.Name]
			mu.Unlock()
			switch {
			case req.Name == "invalid":
				return controller.Result{}, controller.TerminalError(fmt.Errorf("spec.color %q is not a color", "plaid"))
			case req.Name == "both" && n == 1:
				return controller.Result{RequeueAfter: time.Hour}, errors.New("not yet")
			}
			return controller.Result{}, nil
		})
		var logs syncBuffer
		m := &countingMetrics{}
		ctl := newController(t, "terminal", cms, r, controller.Options{
			Queue: fastQueue, Metrics: m, Logger: slog.New(slog.NewTextHandler(&logs, nil)),
		})
		stopF := running(t, f.Run)
		stop := running(t, ctl.Run)
		time.Sleep(10 * time.Minute) // far beyond any backoff of fastQueue, short of the hour
		if err := stop(); err != nil {
			t.Errorf("Run: %v", err)
		}
		_ = stopF()

		mu.Lock()
		defer mu.Unlock()
		if calls["invalid"] != 1 || calls["both"] != 2 {
			t.Errorf("calls = %v, want invalid 1 (terminal: not retried), both 2 (retried after its backoff, not the hour)", calls)
		}
		if got, want := m.snapshot(), map[controller.Outcome]int{controller.Terminal: 1, controller.Error: 1, controller.Success: 1}; !equalCounts(got, want) {
			t.Errorf("metrics = %v, want %v", got, want)
		}
		out := logs.String()
		for _, want := range []string{`not a color`, "not retried", "ignoredRequeueAfter=1h0m0s"} {
			if !strings.Contains(out, want) {
				t.Errorf("logs lack %q:\n%s", want, out)
			}
		}
		err := controller.TerminalError(errors.New("x"))
		if !errors.Is(err, controller.ErrTerminal) || controller.TerminalError(nil) != nil {
			t.Errorf("TerminalError(x) = %v, does not match ErrTerminal, or TerminalError(nil) is not nil", err)
		}
	})
}
