package validation

import (
	appsv1 "github.com/kubewire/kubewire/api/apps/v1"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/fake/internal/apierr"
	"github.com/kubewire/kubewire/fake/internal/object"
)

// kindCauses are the rules of built-in kinds the fake checks beyond
// metadata, with kube-apiserver's messages. kube-apiserver checks far
// more; these are the ones tests most often run into.
func kindCauses(d, old *object.Draft) []apierr.Cause {
	var causes []apierr.Cause
	nonNegative := func(field string, v *int32) {
		if v != nil && *v < 0 {
			causes = append(causes, InvalidCause(field, int64(*v), "must be greater than or equal to 0"))
		}
	}
	switch o := d.Typed.(type) {
	case *appsv1.Deployment:
		nonNegative("spec.replicas", o.Spec.Replicas)
	case *appsv1.ReplicaSet:
		nonNegative("spec.replicas", o.Spec.Replicas)
	case *appsv1.StatefulSet:
		nonNegative("spec.replicas", o.Spec.Replicas)
	case *corev1.ReplicationController:
		nonNegative("spec.replicas", o.Spec.Replicas)
	}
	return causes
}
