package controller_test

import (
	"context"
	"fmt"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/controller"
	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/fake/fakeclient"
	"github.com/kubewire/kubewire/informer"
)

// A source of a kind known only at run time (a GitOps engine watching
// the kinds it applied): Watches must be called before Run, so a running
// controller gets a dynamic informer of its own, run with a ctx of its
// own, whose handler calls Enqueue; when the kind is gone (its CRD
// deleted), the engine removes the handler and ends that ctx. A
// Factory's informers cannot be stopped one by one, hence informer.New.
func ExampleController_Enqueue() {
	srv, cfg := fakeclient.Start(fake.Options{})
	defer srv.Close()
	c, err := client.New(cfg)
	if err != nil {
		panic(err)
	}
	if err := srv.Add(&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "app"}}); err != nil {
		panic(err)
	}
	factory, err := informer.NewFactory(c, informer.FactoryOptions{})
	if err != nil {
		panic(err)
	}
	apps := informer.Shared[*corev1.ConfigMap](factory, informer.Scope{Namespace: "default"})
	reconciled := make(chan controller.Request, 16)
	ctl, err := controller.New("apps", apps, controller.ReconcilerFunc(func(ctx context.Context, req controller.Request) (controller.Result, error) {
		reconciled <- req
		return controller.Result{}, nil
	}), controller.Options{})
	if err != nil {
		panic(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { _ = factory.Run(ctx) }()
	stopped := make(chan error, 1)
	go func() { stopped <- ctl.Run(ctx) }()
	fmt.Println("reconciled", <-reconciled)

	// The app now applies a kind found by discovery at run time.
	m, err := c.Mapping(ctx, "", "v1", "Secret")
	if err != nil {
		panic(err)
	}
	applied, err := informer.New(client.Dynamic(c, m.GroupVersionResource).Namespace("default"), informer.Options[*unstructured.Unstructured]{})
	if err != nil {
		panic(err)
	}
	owner := func(obj *unstructured.Unstructured) {
		if app := obj.GetLabels()["app"]; app != "" {
			ctl.Enqueue(controller.Request{Namespace: obj.GetNamespace(), Name: app})
		}
	}
	reg := applied.AddHandler(informer.HandlerFuncs[*unstructured.Unstructured]{
		Add:    func(obj *unstructured.Unstructured, _ bool) { owner(obj) },
		Update: func(_, obj *unstructured.Unstructured) { owner(obj) },
		Delete: func(obj *unstructured.Unstructured, _ bool) { owner(obj) },
	}, informer.HandlerOptions{})
	kindCtx, stopKind := context.WithCancel(ctx)
	kindDone := make(chan error, 1)
	go func() { kindDone <- applied.Run(kindCtx) }()
	if err := applied.WaitForSync(ctx); err != nil {
		panic(err)
	}
	secret := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "token", Labels: map[string]string{"app": "app"}}}
	if _, err := client.For[*corev1.Secret](c).Create(ctx, secret, client.CreateOptions{}); err != nil {
		panic(err)
	}
	fmt.Println("reconciled", <-reconciled, "for its", m.Resource)

	// The kind is gone: stop watching it.
	reg.Remove()
	stopKind()
	fmt.Println("stopped watching", m.Resource, <-kindDone)
	cancel()
	fmt.Println("controller stopped", <-stopped)
	// Output:
	// reconciled default/app
	// reconciled default/app for its secrets
	// stopped watching secrets context canceled
	// controller stopped <nil>
}
