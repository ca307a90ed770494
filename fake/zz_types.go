// Code generated from the kubewire/api kinds by a one-off script; the table is checked against api/registry by TestBuiltinTypesCoverRegistry.

package fake

import (
	admissionregistrationv1 "github.com/kubewire/kubewire/api/admissionregistration/v1"
	apiextensionsv1 "github.com/kubewire/kubewire/api/apiextensions/v1"
	apiregistrationv1 "github.com/kubewire/kubewire/api/apiregistration/v1"
	appsv1 "github.com/kubewire/kubewire/api/apps/v1"
	autoscalingv1 "github.com/kubewire/kubewire/api/autoscaling/v1"
	autoscalingv2 "github.com/kubewire/kubewire/api/autoscaling/v2"
	batchv1 "github.com/kubewire/kubewire/api/batch/v1"
	certificatesv1 "github.com/kubewire/kubewire/api/certificates/v1"
	coordinationv1 "github.com/kubewire/kubewire/api/coordination/v1"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	discoveryv1 "github.com/kubewire/kubewire/api/discovery/v1"
	eventsv1 "github.com/kubewire/kubewire/api/events/v1"
	flowcontrolv1 "github.com/kubewire/kubewire/api/flowcontrol/v1"
	networkingv1 "github.com/kubewire/kubewire/api/networking/v1"
	nodev1 "github.com/kubewire/kubewire/api/node/v1"
	policyv1 "github.com/kubewire/kubewire/api/policy/v1"
	rbacv1 "github.com/kubewire/kubewire/api/rbac/v1"
	resourcev1 "github.com/kubewire/kubewire/api/resource/v1"
	schedulingv1 "github.com/kubewire/kubewire/api/scheduling/v1"
	storagev1 "github.com/kubewire/kubewire/api/storage/v1"
)

// builtinTypes returns a constructor for every built-in kind that has a list
// kind, keyed by "apiVersion/Kind" (e.g. "apps/v1/Deployment", "v1/Pod").
func builtinTypes() map[string]func() typedObject {
	return map[string]func() typedObject{
		"admissionregistration.k8s.io/v1/MutatingAdmissionPolicy":          func() typedObject { return new(admissionregistrationv1.MutatingAdmissionPolicy) },
		"admissionregistration.k8s.io/v1/MutatingAdmissionPolicyBinding":   func() typedObject { return new(admissionregistrationv1.MutatingAdmissionPolicyBinding) },
		"admissionregistration.k8s.io/v1/MutatingWebhookConfiguration":     func() typedObject { return new(admissionregistrationv1.MutatingWebhookConfiguration) },
		"admissionregistration.k8s.io/v1/ValidatingAdmissionPolicy":        func() typedObject { return new(admissionregistrationv1.ValidatingAdmissionPolicy) },
		"admissionregistration.k8s.io/v1/ValidatingAdmissionPolicyBinding": func() typedObject { return new(admissionregistrationv1.ValidatingAdmissionPolicyBinding) },
		"admissionregistration.k8s.io/v1/ValidatingWebhookConfiguration":   func() typedObject { return new(admissionregistrationv1.ValidatingWebhookConfiguration) },
		"apiextensions.k8s.io/v1/CustomResourceDefinition":                 func() typedObject { return new(apiextensionsv1.CustomResourceDefinition) },
		"apiregistration.k8s.io/v1/APIService":                             func() typedObject { return new(apiregistrationv1.APIService) },
		"apps/v1/ControllerRevision":                                       func() typedObject { return new(appsv1.ControllerRevision) },
		"apps/v1/DaemonSet":                                                func() typedObject { return new(appsv1.DaemonSet) },
		"apps/v1/Deployment":                                               func() typedObject { return new(appsv1.Deployment) },
		"apps/v1/ReplicaSet":                                               func() typedObject { return new(appsv1.ReplicaSet) },
		"apps/v1/StatefulSet":                                              func() typedObject { return new(appsv1.StatefulSet) },
		"autoscaling/v1/HorizontalPodAutoscaler":                           func() typedObject { return new(autoscalingv1.HorizontalPodAutoscaler) },
		"autoscaling/v2/HorizontalPodAutoscaler":                           func() typedObject { return new(autoscalingv2.HorizontalPodAutoscaler) },
		"batch/v1/CronJob":                                                 func() typedObject { return new(batchv1.CronJob) },
		"batch/v1/Job":                                                     func() typedObject { return new(batchv1.Job) },
		"certificates.k8s.io/v1/CertificateSigningRequest":                 func() typedObject { return new(certificatesv1.CertificateSigningRequest) },
		"coordination.k8s.io/v1/Lease":                                     func() typedObject { return new(coordinationv1.Lease) },
		"v1/ComponentStatus":                                               func() typedObject { return new(corev1.ComponentStatus) },
		"v1/ConfigMap":                                                     func() typedObject { return new(corev1.ConfigMap) },
		"v1/Endpoints":                                                     func() typedObject { return new(corev1.Endpoints) },
		"v1/Event":                                                         func() typedObject { return new(corev1.Event) },
		"v1/LimitRange":                                                    func() typedObject { return new(corev1.LimitRange) },
		"v1/Namespace":                                                     func() typedObject { return new(corev1.Namespace) },
		"v1/Node":                                                          func() typedObject { return new(corev1.Node) },
		"v1/PersistentVolumeClaim":                                         func() typedObject { return new(corev1.PersistentVolumeClaim) },
		"v1/PersistentVolume":                                              func() typedObject { return new(corev1.PersistentVolume) },
		"v1/Pod":                                                           func() typedObject { return new(corev1.Pod) },
		"v1/PodTemplate":                                                   func() typedObject { return new(corev1.PodTemplate) },
		"v1/ReplicationController":                                         func() typedObject { return new(corev1.ReplicationController) },
		"v1/ResourceQuota":                                                 func() typedObject { return new(corev1.ResourceQuota) },
		"v1/Secret":                                                        func() typedObject { return new(corev1.Secret) },
		"v1/ServiceAccount":                                                func() typedObject { return new(corev1.ServiceAccount) },
		"v1/Service":                                                       func() typedObject { return new(corev1.Service) },
		"discovery.k8s.io/v1/EndpointSlice":                                func() typedObject { return new(discoveryv1.EndpointSlice) },
		"events.k8s.io/v1/Event":                                           func() typedObject { return new(eventsv1.Event) },
		"flowcontrol.apiserver.k8s.io/v1/FlowSchema":                       func() typedObject { return new(flowcontrolv1.FlowSchema) },
		"flowcontrol.apiserver.k8s.io/v1/PriorityLevelConfiguration":       func() typedObject { return new(flowcontrolv1.PriorityLevelConfiguration) },
		"networking.k8s.io/v1/IngressClass":                                func() typedObject { return new(networkingv1.IngressClass) },
		"networking.k8s.io/v1/Ingress":                                     func() typedObject { return new(networkingv1.Ingress) },
		"networking.k8s.io/v1/IPAddress":                                   func() typedObject { return new(networkingv1.IPAddress) },
		"networking.k8s.io/v1/NetworkPolicy":                               func() typedObject { return new(networkingv1.NetworkPolicy) },
		"networking.k8s.io/v1/ServiceCIDR":                                 func() typedObject { return new(networkingv1.ServiceCIDR) },
		"node.k8s.io/v1/RuntimeClass":                                      func() typedObject { return new(nodev1.RuntimeClass) },
		"policy/v1/PodDisruptionBudget":                                    func() typedObject { return new(policyv1.PodDisruptionBudget) },
		"rbac.authorization.k8s.io/v1/ClusterRoleBinding":                  func() typedObject { return new(rbacv1.ClusterRoleBinding) },
		"rbac.authorization.k8s.io/v1/ClusterRole":                         func() typedObject { return new(rbacv1.ClusterRole) },
		"rbac.authorization.k8s.io/v1/RoleBinding":                         func() typedObject { return new(rbacv1.RoleBinding) },
		"rbac.authorization.k8s.io/v1/Role":                                func() typedObject { return new(rbacv1.Role) },
		"resource.k8s.io/v1/DeviceClass":                                   func() typedObject { return new(resourcev1.DeviceClass) },
		"resource.k8s.io/v1/ResourceClaim":                                 func() typedObject { return new(resourcev1.ResourceClaim) },
		"resource.k8s.io/v1/ResourceClaimTemplate":                         func() typedObject { return new(resourcev1.ResourceClaimTemplate) },
		"resource.k8s.io/v1/ResourceSlice":                                 func() typedObject { return new(resourcev1.ResourceSlice) },
		"scheduling.k8s.io/v1/PriorityClass":                               func() typedObject { return new(schedulingv1.PriorityClass) },
		"storage.k8s.io/v1/CSIDriver":                                      func() typedObject { return new(storagev1.CSIDriver) },
		"storage.k8s.io/v1/CSINode":                                        func() typedObject { return new(storagev1.CSINode) },
		"storage.k8s.io/v1/CSIStorageCapacity":                             func() typedObject { return new(storagev1.CSIStorageCapacity) },
		"storage.k8s.io/v1/StorageClass":                                   func() typedObject { return new(storagev1.StorageClass) },
		"storage.k8s.io/v1/VolumeAttachment":                               func() typedObject { return new(storagev1.VolumeAttachment) },
		"storage.k8s.io/v1/VolumeAttributesClass":                          func() typedObject { return new(storagev1.VolumeAttributesClass) },
	}
}
