package defaults

import (
	"reflect"

	admregv1 "github.com/kubewire/kubewire/api/admissionregistration/v1"
	appsv1 "github.com/kubewire/kubewire/api/apps/v1"
	autoscalingv1 "github.com/kubewire/kubewire/api/autoscaling/v1"
	autoscalingv2 "github.com/kubewire/kubewire/api/autoscaling/v2"
	batchv1 "github.com/kubewire/kubewire/api/batch/v1"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	discoveryv1 "github.com/kubewire/kubewire/api/discovery/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	networkingv1 "github.com/kubewire/kubewire/api/networking/v1"
	rbacv1 "github.com/kubewire/kubewire/api/rbac/v1"
	schedulingv1 "github.com/kubewire/kubewire/api/scheduling/v1"
	storagev1 "github.com/kubewire/kubewire/api/storage/v1"
)

// Apply sets kube-apiserver's defaults on obj, a pointer to a built-in
// object of package api (such as *appsv1.Deployment). Kinds without
// defaults are left alone. Defaults of a type apply wherever it occurs in
// the object (a Container's in a Pod, in a Deployment's template, in a
// CronJob's job template), outer types before the types they hold, as
// kube-apiserver's generated defaulters apply them.
func Apply(obj any) {
	if !hasDefaults(obj) {
		return
	}
	walk(reflect.ValueOf(obj))
}

// hasDefaults reports whether obj's kind has defaults anywhere in it.
func hasDefaults(obj any) bool {
	switch obj.(type) {
	case *corev1.Pod, *corev1.PodTemplate, *corev1.ReplicationController, *corev1.Service, *corev1.Secret,
		*corev1.PersistentVolumeClaim, *corev1.PersistentVolume, *corev1.Namespace, *corev1.Node,
		*corev1.Endpoints, *corev1.LimitRange,
		*appsv1.Deployment, *appsv1.DaemonSet, *appsv1.StatefulSet, *appsv1.ReplicaSet,
		*batchv1.Job, *batchv1.CronJob,
		*rbacv1.RoleBinding, *rbacv1.ClusterRoleBinding,
		*networkingv1.NetworkPolicy, *networkingv1.IngressClass,
		*storagev1.StorageClass, *storagev1.CSIDriver,
		*schedulingv1.PriorityClass, *discoveryv1.EndpointSlice,
		*autoscalingv1.HorizontalPodAutoscaler, *autoscalingv2.HorizontalPodAutoscaler,
		*admregv1.MutatingWebhookConfiguration, *admregv1.ValidatingWebhookConfiguration:
		return true
	}
	return false
}

// skipped are types no default reaches into.
func skipped(t reflect.Type) bool {
	switch t {
	case reflect.TypeFor[metav1.ObjectMeta](), reflect.TypeFor[metav1.TypeMeta](), reflect.TypeFor[metav1.Time](),
		reflect.TypeFor[metav1.LabelSelector](), reflect.TypeFor[corev1.ResourceList]():
		return true
	}
	return false
}

// walk applies the defaults of v's type, then of every value it holds.
// v is a pointer to a struct, a struct, or a slice of either.
func walk(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return
		}
		e := v.Elem()
		if e.Kind() != reflect.Struct || skipped(e.Type()) {
			return
		}
		setDefaults(v.Interface())
		for i := range e.NumField() {
			if e.Type().Field(i).IsExported() {
				walk(e.Field(i))
			}
		}
	case reflect.Struct:
		if v.CanAddr() {
			walk(v.Addr())
		}
	case reflect.Slice:
		t := v.Type().Elem()
		if t.Kind() != reflect.Struct && !(t.Kind() == reflect.Pointer && t.Elem().Kind() == reflect.Struct) {
			return
		}
		for i := range v.Len() {
			walk(v.Index(i))
		}
	}
}

// setDefaults applies the defaults of one value's own type.
func setDefaults(p any) {
	if coreDefaults(p) || workloadDefaults(p) || webhookDefaults(p) {
		return
	}
	otherDefaults(p)
}

func ptr[T any](v T) *T { return &v }
