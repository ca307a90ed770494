// Command ctrlruntime is a Reconcile written the way a controller-runtime
// user writes one, on kubewire: a reconciler struct with
// Reconcile(ctx, Request), a read of the object from the cache, an owned
// ConfigMap through CreateOrUpdate and SetControllerReference, a status
// condition, an event, a terminal error for a spec retrying cannot fix
// and a RequeueAfter. Each step is commented with the controller-runtime
// call it replaces; docs/CONTROLLER-RUNTIME.md has the whole table.
//
// It runs on kubewire's embedded fake API server: it installs the Widget
// definition of examples/crd, runs the controller under a manager,
// creates a Widget and a Widget whose spec is refused, fixes the second
// and deletes the first, printing what the controller wrote.
//
//	go run ./examples/ctrlruntime
//
// reconciler_test.go tests the Reconcile as a controller-runtime user
// would with envtest and the fake client's interceptors, with kubewire's
// tools: the fake server in memory inside a testing/synctest bubble, a
// 409 injected on the status write, dropped watches, Events read from the
// server, and the requests sent, as client-go's Actions() lists them.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"time"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/client/crd"
	"github.com/kubewire/kubewire/controller"
	"github.com/kubewire/kubewire/ctrlutil"
	"github.com/kubewire/kubewire/events"
	v1 "github.com/kubewire/kubewire/examples/crd/api/v1"
	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/fake/fakeclient"
	"github.com/kubewire/kubewire/informer"
	"github.com/kubewire/kubewire/manager"
)

// WidgetReconciler keeps a ConfigMap per Widget and the Widget's Ready
// condition. controller-runtime's has a client.Client and a Scheme;
// here the cache's listers are the reads, the typed Resources the
// writes, and kinds need no scheme.
type WidgetReconciler struct {
	widgets      informer.Lister[*v1.Widget]
	configMaps   informer.Lister[*corev1.ConfigMap]
	widgetAPI    *client.Resource[*v1.Widget]
	configMapAPI *client.Resource[*corev1.ConfigMap]
	recorder     *events.Recorder // mgr.GetEventRecorderFor(name)
}

// Reconcile is reconcile.Reconciler's method, with controller.Request
// for reconcile.Request (Namespace and Name, no NamespacedName).
func (r *WidgetReconciler) Reconcile(ctx context.Context, req controller.Request) (controller.Result, error) {
	log := controller.Logger(ctx) // log.FromContext(ctx), a *slog.Logger

	// r.Get(ctx, req.NamespacedName, &w) reads the manager's cache; so
	// does a Lister. (client.For(...).Get asks the server.) Gone:
	// client.IgnoreNotFound(err); its ConfigMap goes with it, through
	// the owner reference.
	w, ok := r.widgets.Namespace(req.Namespace).Get(req.Name)
	if !ok {
		return controller.Result{}, nil
	}

	// A spec no retry can fix: reconcile.TerminalError. Logged and
	// counted, not retried until the Widget changes.
	if w.Spec.Size == "large" && w.Spec.Replicas != nil && *w.Spec.Replicas > 10 {
		err := fmt.Errorf("%d large replicas: at most 10", *w.Spec.Replicas)
		if _, _, perr := r.setReady(ctx, w, metav1.ConditionFalse, "InvalidSpec", err.Error()); perr != nil {
			return controller.Result{}, perr
		}
		return controller.Result{}, controller.TerminalError(err)
	}

	// controllerutil.CreateOrUpdate(ctx, r.Client, cm, func() error {...}):
	// here the mutate function is given the object, and the cache is
	// read first (nothing is sent when nothing changes).
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: w.Namespace, Name: w.Name + "-config"}}
	cm, op, err := ctrlutil.CreateOrUpdate(ctx, r.configMapAPI, r.configMaps, cm, func(cm *corev1.ConfigMap) error {
		cm.Data = map[string]string{"image": w.Spec.Image, "size": w.Spec.Size}
		return ctrlutil.SetControllerReference(w, cm) // controllerutil.SetControllerReference(w, cm, r.Scheme)
	})
	if err != nil {
		return controller.Result{}, err // retried with a growing delay, as in controller-runtime
	}
	if op != ctrlutil.Unchanged {
		log.Info("ConfigMap written", "configMap", cm.Name, "operation", op)
		// r.Recorder.Eventf(w, corev1.EventTypeNormal, reason, fmt, ...): here
		// events.k8s.io/v1 events, with a related object and an action.
		r.recorder.Eventf(w, cm, events.Normal, "ConfigMapWritten", "Reconcile", "ConfigMap %s %s", cm.Name, op)
	}
	if _, _, err := r.setReady(ctx, w, metav1.ConditionTrue, "ConfigMapWritten", "ConfigMap "+cm.Name+" is up to date"); err != nil {
		return controller.Result{}, err
	}
	// ctrl.Result{RequeueAfter: ...}; there is no Requeue: true (return an error).
	return controller.Result{RequeueAfter: time.Hour}, nil
}

// setReady sets the Ready condition and the observed generation:
// patch := client.MergeFrom(w.DeepCopy()); meta.SetStatusCondition(...);
// r.Status().Patch(ctx, w, patch). ctrlutil.Patch copies the cached
// object, sends only what the function changed (to the status
// subresource), and nothing when it changed nothing.
func (r *WidgetReconciler) setReady(ctx context.Context, w *v1.Widget, status metav1.ConditionStatus, reason, message string) (*v1.Widget, ctrlutil.Operation, error) {
	return ctrlutil.Patch(ctx, r.widgetAPI, w, func(w *v1.Widget) error {
		ctrlutil.SetStatusCondition(&w.Status.Conditions, metav1.Condition{Type: "Ready", Status: status,
			Reason: reason, Message: message, ObservedGeneration: w.Generation})
		w.Status.ObservedGeneration = w.Generation
		return nil
	})
}

// setup is main's SetupWithManager: ctrl.NewControllerManagedBy(mgr).
// For(&v1.Widget{}).WithEventFilter(...).Owns(&corev1.ConfigMap{}).Complete(r).
func setup(m *manager.Manager) error {
	c := m.Client() // mgr.GetClient()
	widgets := informer.Shared[*v1.Widget](m.Factory(), informer.Scope{})
	configMaps := informer.Shared[*corev1.ConfigMap](m.Factory(), informer.Scope{})
	r := &WidgetReconciler{widgets: widgets.Lister(), configMaps: configMaps.Lister(),
		widgetAPI: client.For[*v1.Widget](c), configMapAPI: client.For[*corev1.ConfigMap](c), recorder: m.Events()}
	ctl, err := controller.New("widget", widgets, r, controller.Options{})
	if err != nil {
		return err
	}
	ctl.Filter(controller.GenerationChanged) // WithEventFilter(predicate.GenerationChangedPredicate{}): its own status writes do not requeue a Widget
	controller.Owns(ctl, configMaps)
	m.Add(ctl)
	return nil
}

func main() {
	// ctrl.SetupSignalHandler(): SIGTERM is what the kubelet sends.
	ctx, stop := manager.NotifyContext(context.Background()) // SIGINT or SIGTERM: a graceful stop; a second: exit
	defer stop()
	if err := run(ctx, os.Stdout, slog.Default()); err != nil {
		slog.Error("ctrlruntime stopped", "error", err)
		os.Exit(1)
	}
}

// run starts the fake server and the manager, and makes the changes
// the controller answers.
func run(ctx context.Context, out io.Writer, logger *slog.Logger) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	srv, cfg := fakeclient.Start(fake.Options{})
	defer srv.Close()
	c, err := client.New(cfg)
	if err != nil {
		return err
	}
	fmt.Fprintln(out, "ctrlruntime: a controller-runtime style Reconcile of Widgets (examples.kubewire.dev/v1) on an embedded fake server")
	if err := crd.Install(ctx, c, v1.CustomResourceDefinitions(), crd.Options{}); err != nil {
		return err
	}
	m, err := manager.New(c, manager.Options{Name: "widget-controller", Logger: logger}) // ctrl.NewManager(cfg, ctrl.Options{...})
	if err != nil {
		return err
	}
	if err := setup(m); err != nil {
		return err
	}
	done := make(chan error, 1)
	go func() { done <- m.Run(ctx) }() // mgr.Start(ctx)
	defer func() { cancel(); <-done }()

	widgets := client.For[*v1.Widget](c).Namespace("default")
	ready := func(w *v1.Widget) *metav1.Condition {
		return ctrlutil.FindStatusCondition(w.Status.Conditions, "Ready")
	}
	w, err := widgets.Create(ctx, &v1.Widget{ObjectMeta: metav1.ObjectMeta{Name: "shop"}, Spec: v1.WidgetSpec{Image: "shop:1.0", Size: "small"}}, client.CreateOptions{})
	if err != nil {
		return err
	}
	if w, err = waitFor(ctx, widgets, w, func(w *v1.Widget) bool { return ready(w) != nil }); err != nil {
		return err
	}
	cm, err := client.For[*corev1.ConfigMap](c).Namespace("default").Get(ctx, "shop-config", client.GetOptions{})
	if err != nil {
		return err
	}
	owner, _ := controller.ControllerOf(cm)
	fmt.Fprintf(out, "  shop: Ready=%s (%s); ConfigMap %s %v, controlled by %s %s\n", ready(w).Status, ready(w).Reason, cm.Name, cm.Data, owner.Kind, owner.Name)

	bad, err := widgets.Create(ctx, &v1.Widget{ObjectMeta: metav1.ObjectMeta{Name: "huge"},
		Spec: v1.WidgetSpec{Image: "huge:1.0", Size: "large", Replicas: new(int32(50))}}, client.CreateOptions{})
	if err != nil {
		return err
	}
	if bad, err = waitFor(ctx, widgets, bad, func(w *v1.Widget) bool { return ready(w) != nil }); err != nil {
		return err
	}
	fmt.Fprintf(out, "  huge: Ready=%s (%s): %s; not retried until it changes\n", ready(bad).Status, ready(bad).Reason, ready(bad).Message)
	bad.Spec.Replicas = new(int32(5))
	if bad, err = widgets.Update(ctx, bad, client.UpdateOptions{}); err != nil {
		return err
	}
	if bad, err = waitFor(ctx, widgets, bad, func(w *v1.Widget) bool { return ready(w).Status == metav1.ConditionTrue }); err != nil {
		return err
	}
	fmt.Fprintf(out, "  huge, 5 replicas: Ready=%s (%s)\n", ready(bad).Status, ready(bad).Reason)

	if err := widgets.Delete(ctx, "shop", client.DeleteOptions{}); err != nil {
		return err
	}
	// The fake runs the garbage collector before it answers the delete.
	_, err = client.For[*corev1.ConfigMap](c).Namespace("default").Get(ctx, "shop-config", client.GetOptions{})
	if !errors.Is(err, client.ErrNotFound) {
		return fmt.Errorf("shop's ConfigMap after shop was deleted: %v, want not found", err)
	}
	fmt.Fprintln(out, "  shop deleted: the garbage collector deleted its ConfigMap")
	return nil
}

// waitFor watches w until done says yes.
func waitFor(ctx context.Context, res *client.Resource[*v1.Widget], w *v1.Widget, done func(*v1.Widget) bool) (*v1.Widget, error) {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	watch, err := res.Watch(ctx, client.WatchOptions{ResourceVersion: w.ResourceVersion, FieldSelector: client.FieldSelector{}.Equals("metadata.name", w.Name)})
	if err != nil {
		return nil, err
	}
	defer watch.Close()
	for !done(w) {
		ev, err := watch.Next()
		if err != nil {
			return nil, err
		}
		w = ev.Object
	}
	return w, nil
}
