package manager_test

import (
	"context"
	"log/slog"
	"testing"
	"testing/synctest"
	"time"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/controller"
	"github.com/kubewire/kubewire/informer"
	"github.com/kubewire/kubewire/leaderelection"
	"github.com/kubewire/kubewire/manager"
)

// A ctx that ends by its deadline ends Run as cleanly as one canceled:
// Run returns nil, as its documentation says, so that a program run
// for a time limit (or a test's) does not report its normal end as a
// failure.
func TestRunEndsCleanlyAtDeadline(t *testing.T) {
	for _, tc := range []struct {
		name   string
		leader bool
	}{{"alone", false}, {"leader election", true}} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				_, cfg := newServer(t)
				opts := manager.Options{Name: "deadline-operator", Logger: slog.New(slog.DiscardHandler)}
				if tc.leader {
					opts.LeaderElection = &leaderelection.Config{Namespace: "default", Identity: "only"}
				}
				m, err := manager.New(newClient(t, cfg), opts)
				if err != nil {
					t.Fatal(err)
				}
				cms := informer.Shared[*corev1.ConfigMap](m.Factory(), informer.Scope{Namespace: "default"})
				m.Add(newController(t, "noop", cms, controller.ReconcilerFunc(func(ctx context.Context, req controller.Request) (controller.Result, error) {
					return controller.Result{}, nil
				}), controller.Options{}))
				ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
				defer cancel()
				if err := m.Run(ctx); err != nil {
					t.Errorf("Run after its ctx's deadline: %v, want nil", err)
				}
				if m.IsLeader() {
					t.Error("still leading after Run returned")
				}
			})
		})
	}
}
