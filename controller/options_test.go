package controller_test

import (
	"context"
	"errors"
	"testing"
	"time"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/controller"
	"github.com/kubewire/kubewire/informer"
	"github.com/kubewire/kubewire/workqueue"
)

// New and NewFor refuse every argument and option a Controller could
// not run with, so that Run (under a manager: at the first leadership)
// never fails or panics for them.
func TestNewInvalid(t *testing.T) {
	c, err := client.New(client.Config{Host: "http://127.0.0.1:1"})
	if err != nil {
		t.Fatal(err)
	}
	inf, err := informer.New(client.For[*corev1.ConfigMap](c), informer.Options[*corev1.ConfigMap]{})
	if err != nil {
		t.Fatal(err)
	}
	noop := controller.ReconcilerFunc(func(context.Context, controller.Request) (controller.Result, error) { return controller.Result{}, nil })
	tests := []struct {
		name    string
		ctlName string
		inf     *informer.Informer[*corev1.ConfigMap]
		r       controller.Reconciler
		opts    controller.Options
		queue   bool // the error is the work queue's too
	}{
		{"empty name", "", inf, noop, controller.Options{}, false},
		{"nil informer", "x", nil, noop, controller.Options{}, false},
		{"nil Reconciler", "x", inf, nil, controller.Options{}, false},
		{"nil ReconcilerFunc", "x", inf, controller.ReconcilerFunc(nil), controller.Options{}, false},
		{"negative Workers", "x", inf, noop, controller.Options{Workers: -1}, false},
		{"negative SyncTimeout", "x", inf, noop, controller.Options{SyncTimeout: -time.Second}, false},
		{"negative ReadYourWritesTimeout", "x", inf, noop, controller.Options{ReadYourWritesTimeout: -time.Second}, false},
		{"negative ResyncPeriod", "x", inf, noop, controller.Options{ResyncPeriod: -time.Second}, false},
		{"unknown Shard key", "x", inf, noop, controller.Options{Shard: "object.metadata.name"}, false},
		{"Queue Jitter 2", "x", inf, noop, controller.Options{Queue: workqueue.Options{Jitter: 2}}, true},
		{"Queue negative BaseDelay", "x", inf, noop, controller.Options{Queue: workqueue.Options{BaseDelay: -1}}, true},
		{"Queue Multiplier 0.5", "x", inf, noop, controller.Options{Queue: workqueue.Options{Multiplier: 0.5}}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctl, err := controller.New(tt.ctlName, tt.inf, tt.r, tt.opts)
			if ctl != nil || !errors.Is(err, client.ErrInvalidOptions) {
				t.Errorf("New = %v, %v; want nil and an error matching client.ErrInvalidOptions", ctl, err)
			}
			if tt.queue && !errors.Is(err, workqueue.ErrInvalidOptions) {
				t.Errorf("New = %v; want it to match workqueue.ErrInvalidOptions", err)
			}
		})
	}
	if ctl, err := controller.NewFor[*corev1.ConfigMap]("x", inf, nil, controller.Options{}); ctl != nil || !errors.Is(err, client.ErrInvalidOptions) {
		t.Errorf("NewFor with a nil function = %v, %v", ctl, err)
	}
	if ctl, err := controller.NewFor("x", inf, func(context.Context, *corev1.ConfigMap) (controller.Result, error) {
		return controller.Result{}, nil
	}, controller.Options{Queue: workqueue.Options{Jitter: 2}}); ctl != nil || !errors.Is(err, workqueue.ErrInvalidOptions) {
		t.Errorf("NewFor with Jitter 2 = %v, %v", ctl, err)
	}
}
