// Command operator is the widget operator, written on kubewire's
// controller toolkit: for every Widget (operator.kubewire.dev/v1) it
// keeps a ConfigMap that describes the Widget and is owned by it, writes
// the Widget's status through the status subresource, records events,
// deletes the ConfigMap behind a finalizer when the Widget goes, and
// runs as replicas of which one leads, the others standing by with warm
// caches.
//
// With KUBECONFIG set, or -kubeconfig given, it is one replica on that
// cluster, whose Widget definition is installed beforehand (kubectl
// apply -f config/crd). Without, it runs a demonstration on an embedded
// fake API server (demo.go): two replicas in this process, Widgets
// created, changed and deleted, and the leader stopped midway.
//
//	go run ./examples/operator
//	go run ./examples/operator -kubeconfig ~/.kube/config -id replica-1 -health-addr :8081
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"os/signal"
	"syscall"
	"time"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/controller"
	"github.com/kubewire/kubewire/ctrlutil"
	"github.com/kubewire/kubewire/events"
	"github.com/kubewire/kubewire/examples/internal/exampleenv"
	v1 "github.com/kubewire/kubewire/examples/operator/api/v1"
	"github.com/kubewire/kubewire/informer"
	"github.com/kubewire/kubewire/leaderelection"
	"github.com/kubewire/kubewire/manager"
)

const (
	operatorName = "widget-operator"
	managedBy    = "app.kubernetes.io/managed-by" // labels the ConfigMaps the operator caches
	finalizer    = "operator.kubewire.dev/cleanup"
)

func main() {
	kubeconfig := exampleenv.KubeconfigFlag(flag.CommandLine)
	id := flag.String("id", "", "identity of this replica (default: host name and a random suffix)")
	healthAddr := flag.String("health-addr", ":8081", "address of /healthz and /readyz (empty: none)")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	env, err := exampleenv.Connect(exampleenv.Options{Kubeconfig: *kubeconfig})
	if err == nil && env.Real() {
		err = run(ctx, env.Config, *id, *healthAddr)
	} else if err == nil {
		err = demo(ctx, env, os.Stdout)
	}
	if err != nil {
		log.Fatalf("operator: %v", err)
	}
}

// run runs one replica of the operator until ctx ends.
func run(ctx context.Context, cfg client.Config, id, healthAddr string) error {
	c, err := client.New(cfg)
	if err != nil {
		return err
	}
	m, err := manager.New(c, manager.Options{Name: operatorName, HealthAddr: healthAddr, CheckPeriod: time.Minute,
		LeaderElection: &leaderelection.Config{Identity: id}})
	if err != nil {
		return err
	}
	widgets := informer.Shared[*v1.Widget](m.Factory(), informer.Scope{})
	configMaps := informer.Shared[*corev1.ConfigMap](m.Factory(), informer.Scope{LabelSelector: client.MatchLabels(map[string]string{managedBy: operatorName})})
	r := &reconciler{configMaps: configMaps.Lister(), events: m.Events(),
		widgetAPI: client.For[*v1.Widget](c), configMapAPI: client.For[*corev1.ConfigMap](c)}
	ctl, err := controller.NewFor("widgets", widgets, r.reconcile, controller.Options{Workers: 4, ReadYourWrites: true})
	if err != nil {
		return err
	}
	controller.Owns(ctl, configMaps)
	m.Add(ctl)
	return m.Run(ctx)
}

// reconciler makes each Widget's ConfigMap and status match its spec.
type reconciler struct {
	configMaps   informer.Lister[*corev1.ConfigMap]
	widgetAPI    *client.Resource[*v1.Widget]
	configMapAPI *client.Resource[*corev1.ConfigMap]
	events       *events.Recorder
}

// reconcile is given each Widget the cache holds (a deleted one is
// cleaned up by the finalizer while it still exists).
func (r *reconciler) reconcile(ctx context.Context, w *v1.Widget) (controller.Result, error) {
	w, deleting, err := ctrlutil.Finalize(ctx, r.widgetAPI, w, finalizer, r.cleanUp)
	if deleting || err != nil {
		return controller.Result{}, err
	}
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: w.Namespace, Name: w.Name + "-widget"}}
	cm, op, err := ctrlutil.CreateOrUpdate(ctx, r.configMapAPI, r.configMaps, cm, func(cm *corev1.ConfigMap) error {
		cm.Labels = map[string]string{managedBy: operatorName}
		cm.Data = map[string]string{"color": w.Spec.Color, "size": fmt.Sprint(w.Spec.Size)}
		return ctrlutil.SetControllerReference(w, cm)
	})
	if err != nil {
		return controller.Result{}, err
	}
	if op != ctrlutil.Unchanged {
		r.events.Eventf(w, cm, events.Normal, "ConfigMapWritten", "Reconcile", "ConfigMap %s %s", cm.Name, op)
	}
	_, _, err = ctrlutil.Patch(ctx, r.widgetAPI, w, func(w *v1.Widget) error {
		w.Status = v1.WidgetStatus{ConfigMap: cm.Name, ObservedGeneration: w.Generation}
		return nil
	})
	return controller.Result{}, err
}

// cleanUp deletes the ConfigMap of a Widget being deleted.
func (r *reconciler) cleanUp(ctx context.Context, w *v1.Widget) error {
	err := r.configMapAPI.Namespace(w.Namespace).Delete(ctx, w.Name+"-widget", client.DeleteOptions{})
	if err = ctrlutil.IgnoreNotFound(err); err == nil {
		r.events.Eventf(w, nil, events.Normal, "CleanedUp", "Delete", "deleted ConfigMap %s-widget", w.Name)
	}
	return err
}
