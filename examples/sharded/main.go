// Command sharded is the widget operator of examples/operator run as
// replicas that split the Widgets between them instead of electing a
// leader: each replica joins a ring of Leases (package sharding), caches
// and reconciles only the Widgets whose uid hashes into its part of the
// hash space, and hands a part over when a replica joins or leaves.
// kube-apiserver v1.36 with the ShardedListAndWatch feature gate sends
// each replica only its part (KEP-5866); without it, each replica
// receives everything and keeps its part.
//
// With KUBECONFIG set, or -kubeconfig given, it is one replica on that
// cluster, whose Widget definition is installed beforehand (kubectl
// apply -f ../operator/config/crd). Without, it runs a demonstration on
// an embedded fake server (demo.go): three replicas in this process, one
// stopped and another started while Widgets change.
//
//	go run ./examples/sharded
//	go run ./examples/sharded -kubeconfig ~/.kube/config -id replica-1 -health-addr :8081
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/controller"
	"github.com/kubewire/kubewire/ctrlutil"
	"github.com/kubewire/kubewire/examples/internal/exampleenv"
	v1 "github.com/kubewire/kubewire/examples/operator/api/v1"
	"github.com/kubewire/kubewire/informer"
	"github.com/kubewire/kubewire/manager"
	"github.com/kubewire/kubewire/sharding"
)

const (
	operatorName = "widget-operator"
	managedBy    = "app.kubernetes.io/managed-by"
	finalizer    = "operator.kubewire.dev/cleanup"
)

// options are one replica's settings.
type options struct {
	id, healthAddr string
	// byNamespace splits by namespace rather than uid: a namespace's
	// Widgets and ConfigMaps then live on one replica, whose ConfigMap
	// cache holds only its part too.
	byNamespace bool
}

func main() {
	kubeconfig := exampleenv.KubeconfigFlag(flag.CommandLine)
	var o options
	flag.StringVar(&o.id, "id", "", "identity of this replica (default: host name and a random suffix)")
	flag.StringVar(&o.healthAddr, "health-addr", ":8081", "address of /healthz and /readyz (empty: none)")
	flag.BoolVar(&o.byNamespace, "by-namespace", false, "split by namespace instead of uid")
	flag.Parse()
	ctx, stop := manager.NotifyContext(context.Background()) // SIGINT or SIGTERM: a graceful stop; a second: exit
	defer stop()
	env, err := exampleenv.Connect(exampleenv.Options{Kubeconfig: *kubeconfig})
	if err == nil && env.Real() {
		err = run(ctx, env.Config, o)
	} else if err == nil {
		err = demo(ctx, env, os.Stdout)
	}
	if err != nil {
		log.Fatalf("sharded: %v", err)
	}
}

// run runs one replica until ctx ends.
func run(ctx context.Context, cfg client.Config, o options) error {
	r, err := newReplica(cfg, o)
	if err != nil {
		return err
	}
	return r.m.Run(ctx)
}

// replica is one replica: its manager and its Widget cache.
type replica struct {
	m       *manager.Manager
	widgets *informer.Informer[*v1.Widget]
}

func newReplica(cfg client.Config, o options) (*replica, error) {
	c, err := client.New(cfg)
	if err != nil {
		return nil, err
	}
	key := client.ShardByUID
	if o.byNamespace {
		key = client.ShardByNamespace
	}
	m, err := manager.New(c, manager.Options{Name: operatorName, HealthAddr: o.healthAddr,
		Sharding: &sharding.Config{Identity: o.id, Key: key}})
	if err != nil {
		return nil, err
	}
	// The key is said once, above: the controller's informer holds this
	// replica's part of it, and the controller reconciles that part. By
	// namespace, the ConfigMaps it owns (in their Widget's namespace)
	// are split the same way; by uid, each replica caches all of them.
	widgets := informer.Shared[*v1.Widget](m.Factory(), informer.Scope{})
	configMaps := informer.Shared[*corev1.ConfigMap](m.Factory(), informer.Scope{LabelSelector: client.MatchLabels(map[string]string{managedBy: operatorName})})
	r := &reconciler{configMaps: configMaps.Lister(), widgetAPI: client.For[*v1.Widget](c), configMapAPI: client.For[*corev1.ConfigMap](c)}
	ctl, err := controller.NewFor("widgets", widgets, r.reconcile,
		controller.Options{Workers: 4, ReadYourWrites: true})
	if err != nil {
		return nil, err
	}
	controller.Owns(ctl, configMaps)
	m.Add(ctl)
	return &replica{m: m, widgets: widgets}, nil
}

// reconciler makes each Widget's ConfigMap and status match its spec.
type reconciler struct {
	configMaps   informer.Lister[*corev1.ConfigMap]
	widgetAPI    *client.Resource[*v1.Widget]
	configMapAPI *client.Resource[*corev1.ConfigMap]
}

func (r *reconciler) reconcile(ctx context.Context, w *v1.Widget) (controller.Result, error) {
	w, deleting, err := ctrlutil.Finalize(ctx, r.widgetAPI, w, finalizer, r.cleanUp)
	if deleting || err != nil {
		return controller.Result{}, err
	}
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: w.Namespace, Name: w.Name + "-widget"}}
	cm, _, err = ctrlutil.CreateOrUpdate(ctx, r.configMapAPI, r.configMaps, cm, func(cm *corev1.ConfigMap) error {
		cm.Labels = map[string]string{managedBy: operatorName}
		cm.Data = map[string]string{"color": w.Spec.Color, "size": fmt.Sprint(w.Spec.Size)}
		return ctrlutil.SetControllerReference(w, cm)
	})
	if err != nil {
		return controller.Result{}, err
	}
	_, _, err = ctrlutil.Patch(ctx, r.widgetAPI, w, func(w *v1.Widget) error {
		w.Status = v1.WidgetStatus{ConfigMap: cm.Name, ObservedGeneration: w.Generation}
		return nil
	})
	return controller.Result{}, err
}

func (r *reconciler) cleanUp(ctx context.Context, w *v1.Widget) error {
	err := r.configMapAPI.Namespace(w.Namespace).Delete(ctx, w.Name+"-widget", client.DeleteOptions{})
	return ctrlutil.IgnoreNotFound(err)
}
