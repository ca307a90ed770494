package fake

import (
	"encoding/json"
	"fmt"
	"reflect"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/fake/internal/apierr"
	"github.com/kubewire/kubewire/fake/internal/object"
)

// pods/ephemeralcontainers and pods/resize are read as the Pod and
// written with PUT or PATCH of a whole Pod, of which kube-apiserver keeps
// only one part of the spec (its strategies' PrepareForUpdate): the
// ephemeral containers, or the containers' resources and resize
// policies. What else the body changes is dropped, not refused.

// mirrorPodAnnotation marks a static Pod, which neither subresource
// changes.
const mirrorPodAnnotation = "kubernetes.io/config.mirror"

// prepareSubresourceUpdate narrows d, the Pod a write of sub sent, to
// what sub may change of old, and checks the change as that
// subresource's validation does before the Pod's own validation runs.
// Other subresources pass through.
func prepareSubresourceUpdate(sub string, old, d *object.Draft) (*object.Draft, error) {
	if sub != "ephemeralcontainers" && sub != "resize" {
		return d, nil
	}
	next, ok := d.Typed.(*corev1.Pod)
	prev, okOld := old.Typed.(*corev1.Pod)
	if !ok || !okOld {
		return nil, apierr.InternalMessage("pods are not stored as Pods")
	}
	kept, err := copyPod(prev)
	if err != nil {
		return nil, apierr.Internal(err)
	}
	var causes []apierr.Cause
	if sub == "ephemeralcontainers" {
		kept.Spec.EphemeralContainers = next.Spec.EphemeralContainers
		causes = ephemeralContainersUpdate(kept, prev)
	} else {
		causes = resizeUpdate(kept, next, prev)
	}
	keepSentMeta(kept, d.Meta)
	if len(causes) > 0 {
		return nil, apierr.Invalid("", "Pod", prev.Name, causes...)
	}
	return &object.Draft{Res: d.Res, Typed: kept, Meta: kept.GetObjectMeta()}, nil
}

// keepSentMeta makes kept's metadata the sent one, less what
// metav1.ResetObjectMetaForStatus takes back from the stored Pod:
// labels, annotations, finalizers, owners, generation and deletion
// timestamp. Validation then refuses what else may not change.
func keepSentMeta(kept *corev1.Pod, sent *metav1.ObjectMeta) {
	stored := kept.ObjectMeta
	kept.ObjectMeta = *sent
	m := &kept.ObjectMeta
	m.Labels, m.Annotations, m.Finalizers, m.OwnerReferences = stored.Labels, stored.Annotations, stored.Finalizers, stored.OwnerReferences
	m.Generation, m.DeletionTimestamp, m.SelfLink = stored.Generation, stored.DeletionTimestamp, stored.SelfLink
}

// copyPod is a deep copy of p.
func copyPod(p *corev1.Pod) (*corev1.Pod, error) {
	b, err := json.Marshal(p)
	if err != nil {
		return nil, err
	}
	var c corev1.Pod
	if err := json.Unmarshal(b, &c); err != nil {
		return nil, err
	}
	return &c, nil
}

// ephemeralContainersUpdate is the part of
// ValidatePodEphemeralContainersUpdate that compares with the stored
// Pod: static Pods take none, and existing ephemeral containers may be
// neither removed nor changed (matched by name: a patch need not keep
// their order).
func ephemeralContainersUpdate(next, prev *corev1.Pod) []apierr.Cause {
	if _, ok := prev.Annotations[mirrorPodAnnotation]; ok {
		return []apierr.Cause{{Type: "FieldValueForbidden", Field: "", Message: "Forbidden: static pods do not support ephemeral containers"}}
	}
	sent := make(map[string]*corev1.EphemeralContainer, len(next.Spec.EphemeralContainers))
	for i := range next.Spec.EphemeralContainers {
		sent[next.Spec.EphemeralContainers[i].Name] = &next.Spec.EphemeralContainers[i]
	}
	var causes []apierr.Cause
	for _, was := range prev.Spec.EphemeralContainers {
		now, ok := sent[was.Name]
		switch {
		case !ok:
			causes = append(causes, apierr.Cause{Type: "FieldValueForbidden", Field: "spec.ephemeralContainers",
				Message: fmt.Sprintf("Forbidden: existing ephemeral containers %q may not be removed\n", was.Name)})
		case !sameJSON(was, *now):
			causes = append(causes, apierr.Cause{Type: "FieldValueForbidden", Field: "spec.ephemeralContainers",
				Message: fmt.Sprintf("Forbidden: existing ephemeral containers %q may not be changed\n", was.Name)})
		}
	}
	return causes
}

// sameJSON compares two values as their JSON encodings, so an empty
// list and a missing one are equal as apiequality.Semantic has them.
func sameJSON(a, b any) bool {
	ja, errA := json.Marshal(a)
	jb, errB := json.Marshal(b)
	if errA != nil || errB != nil {
		return reflect.DeepEqual(a, b)
	}
	return string(ja) == string(jb)
}
