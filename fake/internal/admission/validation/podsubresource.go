package validation

import (
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/fake/internal/apierr"
	"github.com/kubewire/kubewire/fake/internal/object"
)

// ValidatePodSubresourceUpdate is the first part of kube-apiserver's
// ValidatePodEphemeralContainersUpdate and ValidatePodResize: the Pod's
// metadata update and its spec as a whole, but not the Pod update's
// rule that the spec may change only its images, since these
// subresources exist to change other parts (the caller checks which).
func (v *Validator) ValidatePodSubresourceUpdate(d, old *object.Draft) *apierr.Error {
	p, ok := d.Typed.(*corev1.Pod)
	if !ok {
		return apierr.InternalMessage("pods are not stored as Pods")
	}
	e := v.objectMetaUpdate(d.Meta, old.Meta, true)
	e.addAll(v.podMetadataAndSpec(p))
	if len(e) > 0 {
		return apierr.Invalid("", "Pod", d.Meta.Name, e...)
	}
	return nil
}
