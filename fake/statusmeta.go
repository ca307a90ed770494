package fake

import (
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/fake/internal/object"
)

// statusMetaKept says which of the metadata a client sets a write to
// the status subresource keeps from the stored object, by resource
// (group/resource), as kube-apiserver v1.36's status strategies do: most
// reset only the spec and take labels, annotations, finalizers and
// owner references from the request.
type statusMetaKept int

const (
	keptNone statusMetaKept = iota
	keptLabels
	keptOwners
	keptAll
)

var statusMetaKeptBy = map[string]statusMetaKept{
	"apps/deployments": keptLabels,
	"/pods":            keptOwners,
	// strategies that reset the whole metadata
	"certificates.k8s.io/podcertificaterequests":               keptAll,
	"scheduling.k8s.io/podgroups":                              keptAll,
	"networking.k8s.io/servicecidrs":                           keptAll,
	"storagemigration.k8s.io/storageversionmigrations":         keptAll,
	"resource.k8s.io/resourceclaims":                           keptAll,
	"resource.k8s.io/devicetaintrules":                         keptAll,
	"resource.k8s.io/resourcepoolstatusrequests":               keptAll,
	"internal.apiserver.k8s.io/storageversions":                keptAll,
	"storage.k8s.io/volumeattachments":                         keptAll,
	"flowcontrol.apiserver.k8s.io/flowschemas":                 keptAll,
	"flowcontrol.apiserver.k8s.io/prioritylevelconfigurations": keptAll,
	"admissionregistration.k8s.io/validatingadmissionpolicies": keptAll,
	"apiregistration.k8s.io/apiservices":                       keptAll,
}

// takeStatusWriteMeta sets on next, the stored object with the status
// written, the metadata of sent (the request's object) that the
// resource's status strategy takes. Custom resources keep all.
func takeStatusWriteMeta(r *object.Resource, next, sent *metav1.ObjectMeta) {
	kept := statusMetaKeptBy[r.Key()]
	if r.Custom || kept == keptAll {
		return
	}
	// (generateName is no strategy's business: an update sets it)
	next.GenerateName = sent.GenerateName
	if kept != keptLabels {
		next.Labels = sent.Labels
	}
	if kept != keptOwners {
		next.OwnerReferences = sent.OwnerReferences
	}
	next.Annotations = sent.Annotations
	next.Finalizers = sent.Finalizers
}

// keepPodQOSClass keeps a Pod's status.qosClass through a status write
// that leaves it out, as kube-apiserver's Pod status strategy does.
func keepPodQOSClass(old, next *object.Draft) {
	prev, ok := old.Typed.(*corev1.Pod)
	cur, ok2 := next.Typed.(*corev1.Pod)
	if ok && ok2 && cur.Status.QOSClass == "" {
		cur.Status.QOSClass = prev.Status.QOSClass
	}
}
