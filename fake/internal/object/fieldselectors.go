package object

import (
	"strconv"

	appsv1 "github.com/kubewire/kubewire/api/apps/v1"
	batchv1 "github.com/kubewire/kubewire/api/batch/v1"
	certificatesv1 "github.com/kubewire/kubewire/api/certificates/v1"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	eventsv1 "github.com/kubewire/kubewire/api/events/v1"
)

// builtinFields lists the field selectors kube-apiserver supports per
// kind beyond metadata.name and metadata.namespace.
func builtinFields() map[string][]string {
	return map[string][]string{
		"v1/Pod":                   {"spec.nodeName", "spec.restartPolicy", "spec.schedulerName", "spec.serviceAccountName", "spec.hostNetwork", "status.phase", "status.podIP", "status.nominatedNodeName"},
		"v1/Event":                 {"involvedObject.kind", "involvedObject.namespace", "involvedObject.name", "involvedObject.uid", "involvedObject.apiVersion", "involvedObject.resourceVersion", "involvedObject.fieldPath", "reason", "reportingComponent", "source", "type"},
		"events.k8s.io/v1/Event":   {"regarding.kind", "regarding.namespace", "regarding.name", "regarding.uid", "regarding.apiVersion", "regarding.resourceVersion", "regarding.fieldPath", "reason", "reportingController", "type"},
		"v1/Secret":                {"type"},
		"v1/Namespace":             {"status.phase"},
		"v1/Node":                  {"spec.unschedulable"},
		"v1/ReplicationController": {"status.replicas"},
		"apps/v1/ReplicaSet":       {"status.replicas"},
		"batch/v1/Job":             {"status.successful"},
		"certificates.k8s.io/v1/CertificateSigningRequest": {"spec.signerName"},
	}
}

// typedFields returns the values of a built-in object's selectable fields
// beyond metadata.name and metadata.namespace, or nil.
func typedFields(t Typed) map[string]string {
	switch o := t.(type) {
	case *corev1.Pod:
		return map[string]string{
			"spec.nodeName":            o.Spec.NodeName,
			"spec.restartPolicy":       string(o.Spec.RestartPolicy),
			"spec.schedulerName":       o.Spec.SchedulerName,
			"spec.serviceAccountName":  o.Spec.ServiceAccountName,
			"spec.hostNetwork":         strconv.FormatBool(o.Spec.HostNetwork),
			"status.phase":             string(o.Status.Phase),
			"status.podIP":             o.Status.PodIP,
			"status.nominatedNodeName": o.Status.NominatedNodeName,
		}
	case *corev1.Event:
		return eventFields(o)
	case *eventsv1.Event:
		ref := o.Regarding
		return map[string]string{
			"regarding.kind": ref.Kind, "regarding.namespace": ref.Namespace, "regarding.name": ref.Name,
			"regarding.uid": string(ref.UID), "regarding.apiVersion": ref.APIVersion,
			"regarding.resourceVersion": ref.ResourceVersion, "regarding.fieldPath": ref.FieldPath,
			"reason": o.Reason, "reportingController": o.ReportingController, "type": o.Type,
		}
	case *corev1.Secret:
		return map[string]string{"type": string(o.Type)}
	case *corev1.Namespace:
		return map[string]string{"status.phase": string(o.Status.Phase)}
	case *corev1.Node:
		return map[string]string{"spec.unschedulable": strconv.FormatBool(o.Spec.Unschedulable)}
	case *corev1.ReplicationController:
		return map[string]string{"status.replicas": strconv.Itoa(int(o.Status.Replicas))}
	case *appsv1.ReplicaSet:
		return map[string]string{"status.replicas": strconv.Itoa(int(o.Status.Replicas))}
	case *batchv1.Job:
		return map[string]string{"status.successful": strconv.Itoa(int(o.Status.Succeeded))}
	case *certificatesv1.CertificateSigningRequest:
		return map[string]string{"spec.signerName": o.Spec.SignerName}
	}
	return nil
}
