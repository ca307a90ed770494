package validation

import (
	appsv1 "github.com/kubewire/kubewire/api/apps/v1"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/fake/internal/apierr"
	"github.com/kubewire/kubewire/fake/internal/object"
)

// ValidateStatusUpdate checks a write to the status subresource: what
// Validate checks, then the status rules kube-apiserver's status
// strategy adds for the kind (ValidateDeploymentStatusUpdate,
// ValidateNamespaceStatusUpdate); kinds without such rules here are
// checked as Validate checks them.
func (v *Validator) ValidateStatusUpdate(d, old *object.Draft) *apierr.Error {
	causes := v.causesOf(d, old, true)
	switch t := d.Typed.(type) {
	case *appsv1.Deployment:
		causes = append(causes, deploymentStatus(&t.Status)...)
	case *corev1.Namespace:
		causes = append(causes, namespaceStatus(t)...)
	}
	return v.invalid(d, causes)
}

// deploymentStatus is pkg/apis/apps/validation's ValidateDeploymentStatus:
// counts not negative and not above the replicas they are part of.
func deploymentStatus(s *appsv1.DeploymentStatus) errs {
	var e errs
	nonNegative(&e, "status.observedGeneration", s.ObservedGeneration)
	nonNegative(&e, "status.replicas", int64(s.Replicas))
	nonNegative(&e, "status.updatedReplicas", int64(s.UpdatedReplicas))
	nonNegative(&e, "status.readyReplicas", int64(s.ReadyReplicas))
	nonNegative(&e, "status.availableReplicas", int64(s.AvailableReplicas))
	nonNegative(&e, "status.unavailableReplicas", int64(s.UnavailableReplicas))
	if s.TerminatingReplicas != nil {
		nonNegative(&e, "status.terminatingReplicas", int64(*s.TerminatingReplicas))
	}
	if s.CollisionCount != nil {
		nonNegative(&e, "status.collisionCount", int64(*s.CollisionCount))
	}
	const aboveReplicas = "cannot be greater than status.replicas"
	if s.UpdatedReplicas > s.Replicas {
		e.invalid("status.updatedReplicas", s.UpdatedReplicas, aboveReplicas)
	}
	if s.ReadyReplicas > s.Replicas {
		e.invalid("status.readyReplicas", s.ReadyReplicas, aboveReplicas)
	}
	if s.AvailableReplicas > s.Replicas {
		e.invalid("status.availableReplicas", s.AvailableReplicas, aboveReplicas)
	}
	if s.AvailableReplicas > s.ReadyReplicas {
		e.invalid("status.availableReplicas", s.AvailableReplicas, "cannot be greater than readyReplicas")
	}
	return e
}

// namespaceStatus is the phase rule of ValidateNamespaceStatusUpdate: a
// namespace is Active until it has a deletionTimestamp, then
// Terminating.
func namespaceStatus(ns *corev1.Namespace) errs {
	var e errs
	phase := ns.Status.Phase
	switch {
	case ns.DeletionTimestamp == nil && phase != "Active":
		e.invalid("status.Phase", string(phase), "may only be 'Active' if `deletionTimestamp` is empty")
	case ns.DeletionTimestamp != nil && phase != "Terminating":
		e.invalid("status.Phase", string(phase), "may only be 'Terminating' if `deletionTimestamp` is not empty")
	}
	return e
}
