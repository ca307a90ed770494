package object

import (
	"strconv"

	batchv1 "github.com/kubewire/kubewire/api/batch/v1"
	certificatesv1 "github.com/kubewire/kubewire/api/certificates/v1"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	eventsv1 "github.com/kubewire/kubewire/api/events/v1"
	resourcev1 "github.com/kubewire/kubewire/api/resource/v1"
)

// typedFields returns the values of a built-in object's selectable fields
// beyond metadata.name and metadata.namespace, as kube-apiserver's
// registry strategies compute them, or nil. A label the kind's
// conversion takes and no strategy sets (a Pod's status.podIPs) reads
// as "".
func typedFields(t Typed) map[string]string {
	switch o := t.(type) {
	case *corev1.Pod:
		podIP := o.Status.PodIP
		if len(o.Status.PodIPs) > 0 {
			podIP = o.Status.PodIPs[0].IP
		}
		return map[string]string{
			"spec.nodeName":            o.Spec.NodeName,
			"spec.restartPolicy":       string(o.Spec.RestartPolicy),
			"spec.schedulerName":       o.Spec.SchedulerName,
			"spec.serviceAccountName":  o.Spec.ServiceAccountName,
			"spec.hostNetwork":         strconv.FormatBool(o.Spec.HostNetwork),
			"status.phase":             string(o.Status.Phase),
			"status.podIP":             podIP,
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
	case *batchv1.Job:
		return map[string]string{"status.successful": strconv.Itoa(int(o.Status.Succeeded))}
	case *certificatesv1.CertificateSigningRequest:
		return map[string]string{"spec.signerName": o.Spec.SignerName}
	case *corev1.Service:
		return map[string]string{"spec.clusterIP": o.Spec.ClusterIP, "spec.type": string(o.Spec.Type)}
	case *resourcev1.ResourceSlice:
		node := ""
		if o.Spec.NodeName != nil {
			node = *o.Spec.NodeName
		}
		return map[string]string{"spec.nodeName": node, "spec.driver": o.Spec.Driver}
	}
	return nil
}
