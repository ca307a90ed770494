package object

import (
	appsv1 "github.com/kubewire/kubewire/api/apps/v1"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
)

// encodedFields sets on an object decoded from its protobuf what
// kube-apiserver's encoding writes that protobuf does not keep: the
// kind and apiVersion of a StatefulSet's volume claim templates.
func encodedFields(t Typed) {
	if ss, ok := t.(*appsv1.StatefulSet); ok {
		for i := range ss.Spec.VolumeClaimTemplates {
			ss.Spec.VolumeClaimTemplates[i].APIVersion = "v1"
			ss.Spec.VolumeClaimTemplates[i].Kind = "PersistentVolumeClaim"
		}
	}
}

// DaemonSetGenerationAnnotation is where apps/v1 DaemonSets show their
// template generation.
const DaemonSetGenerationAnnotation = "deprecated.daemonset.template.generation"

// scalable reports whether a kind has a scale subresource the fake
// serves.
func scalable(t Typed) bool {
	switch t.(type) {
	case *appsv1.Deployment, *appsv1.ReplicaSet, *appsv1.StatefulSet, *corev1.ReplicationController:
		return true
	}
	return false
}

// generationKinds are the built-in resources ("group/resource") whose
// objects carry metadata.generation (their registry strategy sets it).
var generationKinds = map[string]bool{
	"admissionregistration.k8s.io/mutatingadmissionpolicies":         true,
	"admissionregistration.k8s.io/mutatingadmissionpolicybindings":   true,
	"admissionregistration.k8s.io/mutatingwebhookconfigurations":     true,
	"admissionregistration.k8s.io/validatingadmissionpolicies":       true,
	"admissionregistration.k8s.io/validatingadmissionpolicybindings": true,
	"admissionregistration.k8s.io/validatingwebhookconfigurations":   true,
	"apiextensions.k8s.io/customresourcedefinitions":                 true,
	"apps/daemonsets":                 true,
	"apps/deployments":                true,
	"apps/replicasets":                true,
	"apps/statefulsets":               true,
	"batch/cronjobs":                  true,
	"batch/jobs":                      true,
	"/pods":                           true,
	"/podtemplates":                   true,
	"/replicationcontrollers":         true,
	"discovery.k8s.io/endpointslices": true,
	"flowcontrol.apiserver.k8s.io/flowschemas":                 true,
	"flowcontrol.apiserver.k8s.io/prioritylevelconfigurations": true,
	"networking.k8s.io/ingresses":                              true,
	"networking.k8s.io/ingressclasses":                         true,
	"networking.k8s.io/networkpolicies":                        true,
	"policy/poddisruptionbudgets":                              true,
	"resource.k8s.io/deviceclasses":                            true,
	"resource.k8s.io/devicetaintrules":                         true,
	"resource.k8s.io/resourceslices":                           true,
	"scheduling.k8s.io/priorityclasses":                        true,
}

// returnDeletedObject lists, as "group/resource", the built-in resources
// whose kube-apiserver registry (pkg/registry/.../storage) sets
// ReturnDeletedObject, so that an immediate DELETE answers with the
// deleted object; every other resource, custom resources included,
// answers with a Success Status.
var returnDeletedObject = map[string]bool{
	"/namespaces":                            true,
	"/persistentvolumeclaims":                true,
	"/persistentvolumes":                     true,
	"/pods":                                  true,
	"/podtemplates":                          true,
	"/serviceaccounts":                       true,
	"/services":                              true,
	"storage.k8s.io/csidrivers":              true,
	"storage.k8s.io/csinodes":                true,
	"storage.k8s.io/storageclasses":          true,
	"storage.k8s.io/volumeattachments":       true,
	"storage.k8s.io/volumeattributesclasses": true,
}
