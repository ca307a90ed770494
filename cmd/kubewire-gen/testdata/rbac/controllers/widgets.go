package controllers

import "context"

// +kubebuilder:rbac:groups=operator.kubewire.dev,resources=widgets,verbs=get;list;watch;update;patch
// +kubebuilder:rbac:groups=operator.kubewire.dev,resources=widgets/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=operator.kubewire.dev,resources=widgets/finalizers,verbs=update
// +kubebuilder:rbac:groups="",resources=configmaps,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups=core,resources=configmaps,verbs=deletecollection
// +kubebuilder:rbac:groups=core,resources=secrets;services,verbs=get;list
// +kubebuilder:rbac:groups=coordination.k8s.io,resources=leases,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups=events.k8s.io,resources=events,verbs=create;patch
// +kubebuilder:rbac:groups=apps;batch,resources=deployments;jobs,verbs=list;get
// +kubebuilder:rbac:groups=apps,resources=deployments,verbs=watch
// +kubebuilder:rbac:groups=apps,resources=deployments,resourceNames=special;other,verbs=delete
// +kubebuilder:rbac:groups=apps,resources=replicasets,verbs=get;list;watch
// +kubebuilder:rbac:groups=apps,resources=statefulsets,verbs=get;list;watch
// +kubebuilder:rbac:groups=extensions,resources=replicasets,verbs=get;list;watch
// +kubebuilder:rbac:groups=policy,resources=poddisruptionbudgets,verbs=get;*
// +kubebuilder:rbac:urls=/metrics;/healthz,verbs=get
// +kubebuilder:rbac:urls=/readyz,verbs=get
// +kubebuilder:rbac:urls=/debug/*,verbs=get;post
// +kubebuilder:rbac:groups=coordination.k8s.io,namespace=kube-system,resources=leases,verbs=get;update
// +kubebuilder:rbac:groups=coordination.k8s.io,namespace=kube-system,resources=leases,verbs=create;get
// +kubebuilder:rbac:groups="",namespace=shop,resources=pods;pods/log,verbs=get;list
// +kubebuilder:rbac:groups=*,resources=*,verbs=*,namespace=all-ns

// WidgetReconciler has markers where they are not rules: in its doc
// comment and in a field's.
// +kubebuilder:rbac:groups=ignored.example.com,resources=typedoc,verbs=get
type WidgetReconciler struct {
	// +kubebuilder:rbac:groups=ignored.example.com,resources=fielddoc,verbs=get
	Field int
}

// Reconcile is a function whose doc comment holds a marker, which is
// not a rule, nor is one in its body.
// +kubebuilder:rbac:groups=ignored.example.com,resources=funcdoc,verbs=get
func (r *WidgetReconciler) Reconcile(ctx context.Context) error {
	// +kubebuilder:rbac:groups=ignored.example.com,resources=body,verbs=get
	return nil
}

// Names are constants whose block holds a marker, which is not a rule.
const (
	// +kubebuilder:rbac:groups=ignored.example.com,resources=constblock,verbs=get
	Name = "widgets"
)

// +kubebuilder:rbac:groups=storage.k8s.io,resources=storageclasses,verbs=list;watch
