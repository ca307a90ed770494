package controller_test

import (
	"context"
	"log/slog"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/controller"
	"github.com/kubewire/kubewire/informer"
)

// A Reconcile that changes the cache's object in place (as a
// controller-runtime user does with the copy its Get returns) fails with
// ErrCacheMutated, naming the fields, when DetectCacheMutations is on;
// one that copies first does not.
func TestCacheMutationDetected(t *testing.T) {
	for _, tc := range []struct {
		name    string
		detect  bool
		copy    bool
		wantErr bool
	}{
		{"detected", true, false, true},
		{"off", false, false, false},
		{"copied", true, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				e := newEnv(t)
				create(t, e.direct, configMap("default", "a", ""))
				f := newFactory(t, e.ctl, informer.FactoryOptions{})
				cms := informer.Shared[*corev1.ConfigMap](f, informer.Scope{Namespace: "default"})
				reconcile := func(ctx context.Context, cm *corev1.ConfigMap) (controller.Result, error) {
					if tc.copy {
						cm = cm.DeepCopy()
					}
					cm.Data = map[string]string{"seen": "yes"}
					cm.Labels = map[string]string{"touched": "true"}
					return controller.Result{}, nil
				}
				var logs syncBuffer
				ctl, err := controller.NewFor("mutates", cms, reconcile, controller.Options{
					DetectCacheMutations: tc.detect, Queue: fastQueue,
					Logger: slog.New(slog.NewTextHandler(&logs, nil)),
				})
				if err != nil {
					t.Fatal(err)
				}
				stopF := running(t, f.Run)
				stop := running(t, ctl.Run)
				time.Sleep(time.Second)
				_ = stop()
				_ = stopF()
				out := logs.String()
				got := strings.Contains(out, "changed the cache's object")
				if got != tc.wantErr {
					t.Fatalf("mutation reported: %v, want %v; logs:\n%s", got, tc.wantErr, out)
				}
				if tc.wantErr && (!strings.Contains(out, "data") || !strings.Contains(out, "metadata.labels") || !strings.Contains(out, "default/a")) {
					t.Errorf("the error does not name the object and the fields changed:\n%s", out)
				}
			})
		})
	}
}
