package controller_test

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/controller"
	"github.com/kubewire/kubewire/informer"
)

// With WithShutdownGrace, the end of Run's ctx stops new work only: the
// Reconcile in flight keeps a live ctx (its write succeeds) until the
// grace ends, and no Request queued after the stop is reconciled.
// Without it, the Reconcile's ctx ends with Run's.
func TestShutdownGrace(t *testing.T) {
	for _, tc := range []struct {
		name      string
		grace     bool
		wantWrite bool
	}{{"graceful", true, true}, {"no grace", false, false}} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				e := newEnv(t)
				create(t, e.direct, configMap("default", "a", ""))
				f := newFactory(t, e.ctl, informer.FactoryOptions{})
				cms := informer.Shared[*corev1.ConfigMap](f, informer.Scope{Namespace: "default"})
				started, finish := make(chan struct{}), make(chan struct{})
				calls := 0
				var writeErr error
				ctl := newController(t, "graceful", cms, controller.ReconcilerFunc(func(ctx context.Context, req controller.Request) (controller.Result, error) {
					calls++
					if calls > 1 {
						return controller.Result{}, nil
					}
					close(started)
					<-finish
					cm := configMap("default", "a", "done")
					_, writeErr = client.For[*corev1.ConfigMap](e.ctl).Update(ctx, cm, client.UpdateOptions{})
					return controller.Result{}, writeErr
				}), controller.Options{})
				stopF := running(t, f.Run)
				defer func() { _ = stopF() }()

				ctx, stop := context.WithCancel(t.Context())
				grace, endGrace := context.WithCancel(t.Context())
				defer endGrace()
				runCtx := ctx
				if tc.grace {
					runCtx = controller.WithShutdownGrace(ctx, grace)
				}
				done := make(chan error, 1)
				go func() { done <- ctl.Run(runCtx) }()
				<-started
				stop()
				synctest.Wait()
				ctl.Enqueue(controller.Request{Namespace: "default", Name: "b"}) // after the stop: never handed out
				close(finish)
				if err := <-done; err != nil {
					t.Errorf("Run = %v", err)
				}
				if got := writeErr == nil; got != tc.wantWrite {
					t.Errorf("the write of the Reconcile in flight at the stop: err %v, want success %v", writeErr, tc.wantWrite)
				}
				if calls != 1 {
					t.Errorf("%d Reconcile calls, want 1: none after the stop", calls)
				}
			})
		})
	}
}

// A grace that ends cancels the Reconcile calls still in flight.
func TestShutdownGraceEnds(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t)
		create(t, e.direct, configMap("default", "a", ""))
		f := newFactory(t, e.ctl, informer.FactoryOptions{})
		cms := informer.Shared[*corev1.ConfigMap](f, informer.Scope{Namespace: "default"})
		started := make(chan struct{})
		var endedAt time.Time
		ctl := newController(t, "graceful", cms, controller.ReconcilerFunc(func(ctx context.Context, req controller.Request) (controller.Result, error) {
			close(started)
			<-ctx.Done()
			endedAt = time.Now()
			return controller.Result{}, ctx.Err()
		}), controller.Options{})
		stopF := running(t, f.Run)
		defer func() { _ = stopF() }()
		ctx, stop := context.WithCancel(t.Context())
		graceEnd := time.Now().Add(time.Hour)
		grace, endGrace := context.WithDeadline(t.Context(), graceEnd)
		defer endGrace()
		done := make(chan error, 1)
		go func() { done <- ctl.Run(controller.WithShutdownGrace(ctx, grace)) }()
		<-started
		time.Sleep(time.Minute)
		stop()
		if err := <-done; err != nil {
			t.Errorf("Run = %v", err)
		}
		if !endedAt.Equal(graceEnd) {
			t.Errorf("the Reconcile's ctx ended %v before the grace did, want with it (59m after Run's)", graceEnd.Sub(endedAt))
		}
	})
}
