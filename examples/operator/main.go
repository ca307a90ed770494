// Command operator is the widget operator, written on kubewire's
// controller toolkit: for every Widget (operator.kubewire.dev/v1) it
// keeps a ConfigMap that describes the Widget and is owned by it, writes
// the Widget's status through the status subresource, records events,
// deletes the ConfigMap behind a finalizer when the Widget goes, and
// runs as replicas of which one leads, the others standing by with warm
// caches.
//
// It finds its cluster as operators do (kubeconfig.BindFlags):
// -kubeconfig, else $KUBECONFIG, else ~/.kube/config, else, in a pod,
// its ServiceAccount; config/ deploys it so (kubectl apply -k
// examples/operator/config/default). It serves /metrics on
// -metrics-addr (:8080) and /healthz and /readyz on -health-addr
// (:8081), and logs to stderr. With -demo it runs a demonstration on an
// embedded fake API server instead (demo.go): two replicas in this
// process, Widgets created, changed and deleted, the leader stopped
// midway.
//
//	go run ./examples/operator -demo
//	go run ./examples/operator -kubeconfig ~/.kube/config -id replica-1
package main

//go:generate go run github.com/kubewire/kubewire/cmd/kubewire-gen rbac -dir config/rbac -role-name widget-operator .

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"time"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/client/kubeconfig"
	"github.com/kubewire/kubewire/controller"
	"github.com/kubewire/kubewire/ctrlutil"
	"github.com/kubewire/kubewire/events"
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

// What the operator may do; kubewire-gen rbac writes config/rbac/role.yaml from these.
// +kubebuilder:rbac:groups=operator.kubewire.dev,resources=widgets,verbs=list;watch;patch
// +kubebuilder:rbac:groups=operator.kubewire.dev,resources=widgets/status,verbs=patch
// +kubebuilder:rbac:groups="",resources=configmaps,verbs=get;list;watch;create;update;delete
// +kubebuilder:rbac:groups=events.k8s.io,resources=events,verbs=create;patch
// +kubebuilder:rbac:groups=coordination.k8s.io,namespace=widget-operator-system,resources=leases,verbs=get;create;update;watch

func main() {
	cluster := kubeconfig.BindFlags(flag.CommandLine)
	opts := manager.Options{Name: operatorName, LeaderElection: &leaderelection.Config{}, CheckPeriod: time.Minute}
	opts.BindFlags(flag.CommandLine)
	flag.StringVar(&opts.LeaderElection.Identity, "id", "", "identity of this replica (default: host name and a random suffix)")
	demoMode := flag.Bool("demo", false, "run the demonstration on an embedded fake API server, not on a cluster")
	flag.Parse()
	ctx, stop := manager.NotifyContext(context.Background()) // SIGINT or SIGTERM: a graceful stop; a second: exit
	defer stop()
	c, err := cluster.NewClient()
	if *demoMode {
		err = demo(ctx, os.Stdout)
	} else if err == nil {
		err = run(ctx, c, opts)
	}
	if err != nil {
		slog.Error("operator stopped", "error", err)
		os.Exit(1)
	}
}

// run runs one replica of the operator until ctx ends.
func run(ctx context.Context, c *client.Client, opts manager.Options) error {
	m, err := manager.New(c, opts)
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
		controller.Logger(ctx).Info("ConfigMap written", "configMap", cm.Name, "operation", op)
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
