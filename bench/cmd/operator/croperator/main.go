// Command croperator is examples/operator written on controller-runtime
// v0.24, as a kubebuilder user writes it: the same Widget, the same
// owned ConfigMap, finalizer, status, events, leader election, health
// probes, metrics and logs. bench/cmd/operator measures it beside
// kubewire's. controller-gen wrote zz_generated.deepcopy.go.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/tools/record"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/healthz"
	"sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
)

const (
	operatorName = "widget-operator"
	managedBy    = "app.kubernetes.io/managed-by"
	finalizer    = "operator.kubewire.dev/cleanup"
)

// +kubebuilder:rbac:groups=operator.kubewire.dev,resources=widgets,verbs=get;list;watch;update;patch
// +kubebuilder:rbac:groups=operator.kubewire.dev,resources=widgets/status,verbs=get;update;patch
// +kubebuilder:rbac:groups="",resources=configmaps,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups="",resources=events,verbs=create;patch
// +kubebuilder:rbac:groups=coordination.k8s.io,resources=leases,verbs=get;list;watch;create;update;patch;delete

func main() {
	var metricsAddr, probeAddr, leaseNamespace string
	flag.StringVar(&metricsAddr, "metrics-bind-address", ":8080", "address of /metrics")
	flag.StringVar(&probeAddr, "health-probe-bind-address", ":8081", "address of /healthz and /readyz")
	flag.StringVar(&leaseNamespace, "leader-election-namespace", "", "namespace of the Lease (default: the pod's)")
	zapOpts := zap.Options{}
	zapOpts.BindFlags(flag.CommandLine)
	flag.Parse()
	ctrl.SetLogger(zap.New(zap.UseFlagOptions(&zapOpts)))
	if err := run(ctrl.SetupSignalHandler(), metricsAddr, probeAddr, leaseNamespace); err != nil {
		ctrl.Log.Error(err, "operator stopped")
		os.Exit(1)
	}
}

func run(ctx context.Context, metricsAddr, probeAddr, leaseNamespace string) error {
	scheme := runtime.NewScheme()
	if err := clientgoscheme.AddToScheme(scheme); err != nil {
		return err
	}
	if err := addToScheme(scheme); err != nil {
		return err
	}
	mgr, err := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{
		Scheme:                  scheme,
		Metrics:                 metricsserver.Options{BindAddress: metricsAddr},
		HealthProbeBindAddress:  probeAddr,
		LeaderElection:          true,
		LeaderElectionID:        operatorName,
		LeaderElectionNamespace: leaseNamespace,
		Cache: cache.Options{ByObject: map[client.Object]cache.ByObject{
			&corev1.ConfigMap{}: {Label: labels.SelectorFromSet(labels.Set{managedBy: operatorName})},
		}},
	})
	if err != nil {
		return err
	}
	if err := mgr.AddHealthzCheck("healthz", healthz.Ping); err != nil {
		return err
	}
	if err := mgr.AddReadyzCheck("readyz", healthz.Ping); err != nil {
		return err
	}
	r := &reconciler{Client: mgr.GetClient(), recorder: mgr.GetEventRecorderFor(operatorName)}
	err = ctrl.NewControllerManagedBy(mgr).For(&Widget{}).Owns(&corev1.ConfigMap{}).
		WithOptions(controller.Options{MaxConcurrentReconciles: 4}).Complete(r)
	if err != nil {
		return err
	}
	return mgr.Start(ctx)
}

// reconciler makes each Widget's ConfigMap and status match its spec.
type reconciler struct {
	client.Client
	recorder record.EventRecorder
}

func (r *reconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var w Widget
	if err := r.Get(ctx, req.NamespacedName, &w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !w.DeletionTimestamp.IsZero() {
		if !controllerutil.ContainsFinalizer(&w, finalizer) {
			return ctrl.Result{}, nil
		}
		cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: w.Namespace, Name: w.Name + "-widget"}}
		if err := client.IgnoreNotFound(r.Delete(ctx, cm)); err != nil {
			return ctrl.Result{}, err
		}
		r.recorder.Eventf(&w, corev1.EventTypeNormal, "CleanedUp", "deleted ConfigMap %s", cm.Name)
		controllerutil.RemoveFinalizer(&w, finalizer)
		return ctrl.Result{}, r.Update(ctx, &w)
	}
	if controllerutil.AddFinalizer(&w, finalizer) {
		if err := r.Update(ctx, &w); err != nil {
			return ctrl.Result{}, err
		}
	}
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: w.Namespace, Name: w.Name + "-widget"}}
	op, err := controllerutil.CreateOrUpdate(ctx, r.Client, cm, func() error {
		cm.Labels = map[string]string{managedBy: operatorName}
		cm.Data = map[string]string{"color": w.Spec.Color, "size": fmt.Sprint(w.Spec.Size)}
		return controllerutil.SetControllerReference(&w, cm, r.Scheme())
	})
	if err != nil {
		return ctrl.Result{}, err
	}
	if op != controllerutil.OperationResultNone {
		log.FromContext(ctx).Info("ConfigMap written", "configMap", cm.Name, "operation", op)
		r.recorder.Eventf(&w, corev1.EventTypeNormal, "ConfigMapWritten", "ConfigMap %s %s", cm.Name, op)
	}
	patch := client.MergeFrom(w.DeepCopy())
	w.Status = WidgetStatus{ConfigMap: cm.Name, ObservedGeneration: w.Generation}
	return ctrl.Result{}, r.Status().Patch(ctx, &w, patch)
}
