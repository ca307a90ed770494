package defaults

import (
	autoscalingv1 "github.com/kubewire/kubewire/api/autoscaling/v1"
	autoscalingv2 "github.com/kubewire/kubewire/api/autoscaling/v2"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	discoveryv1 "github.com/kubewire/kubewire/api/discovery/v1"
	networkingv1 "github.com/kubewire/kubewire/api/networking/v1"
	rbacv1 "github.com/kubewire/kubewire/api/rbac/v1"
	schedulingv1 "github.com/kubewire/kubewire/api/scheduling/v1"
	storagev1 "github.com/kubewire/kubewire/api/storage/v1"
)

// otherDefaults applies the defaults of the types of the other groups.
func otherDefaults(p any) {
	switch o := p.(type) {
	case *rbacv1.RoleBinding:
		setIfEmpty(&o.RoleRef.APIGroup, "rbac.authorization.k8s.io")
	case *rbacv1.ClusterRoleBinding:
		setIfEmpty(&o.RoleRef.APIGroup, "rbac.authorization.k8s.io")
	case *rbacv1.Subject:
		if o.APIGroup == "" && (o.Kind == "User" || o.Kind == "Group") {
			o.APIGroup = "rbac.authorization.k8s.io"
		}
	case *networkingv1.NetworkPolicyPort:
		if o.Protocol == nil {
			o.Protocol = ptr(corev1.Protocol("TCP"))
		}
	case *networkingv1.NetworkPolicy:
		if len(o.Spec.PolicyTypes) == 0 {
			o.Spec.PolicyTypes = []networkingv1.PolicyType{"Ingress"}
			if len(o.Spec.Egress) != 0 {
				o.Spec.PolicyTypes = append(o.Spec.PolicyTypes, "Egress")
			}
		}
	case *networkingv1.IngressClass:
		if o.Spec.Parameters != nil && o.Spec.Parameters.Scope == nil {
			o.Spec.Parameters.Scope = ptr("Cluster")
		}
	case *storagev1.StorageClass:
		if o.ReclaimPolicy == nil {
			o.ReclaimPolicy = ptr(corev1.PersistentVolumeReclaimPolicy("Delete"))
		}
		if o.VolumeBindingMode == nil {
			o.VolumeBindingMode = ptr(storagev1.VolumeBindingMode("Immediate"))
		}
	case *storagev1.CSIDriver:
		s := &o.Spec
		for _, b := range []**bool{&s.PodInfoOnMount, &s.StorageCapacity, &s.RequiresRepublish, &s.SELinuxMount, &s.PreventPodSchedulingIfMissing} {
			if *b == nil {
				*b = ptr(false)
			}
		}
		if s.AttachRequired == nil {
			s.AttachRequired = ptr(true)
		}
		if s.FSGroupPolicy == nil {
			s.FSGroupPolicy = ptr(storagev1.FSGroupPolicy("ReadWriteOnceWithFSType"))
		}
		if len(s.VolumeLifecycleModes) == 0 {
			s.VolumeLifecycleModes = []storagev1.VolumeLifecycleMode{"Persistent"}
		}
	case *schedulingv1.PriorityClass:
		if o.PreemptionPolicy == nil {
			o.PreemptionPolicy = ptr(corev1.PreemptionPolicy("PreemptLowerPriority"))
		}
	case *discoveryv1.EndpointPort:
		if o.Name == nil {
			o.Name = ptr("")
		}
		if o.Protocol == nil {
			o.Protocol = ptr(corev1.Protocol("TCP"))
		}
	case *autoscalingv1.HorizontalPodAutoscaler:
		if o.Spec.MinReplicas == nil {
			o.Spec.MinReplicas = ptr(int32(1))
		}
	case *autoscalingv2.HorizontalPodAutoscaler:
		if o.Spec.MinReplicas == nil {
			o.Spec.MinReplicas = ptr(int32(1))
		}
		if len(o.Spec.Metrics) == 0 {
			o.Spec.Metrics = []autoscalingv2.MetricSpec{{
				Type: "Resource",
				Resource: &autoscalingv2.ResourceMetricSource{
					Name:   "cpu",
					Target: autoscalingv2.MetricTarget{Type: "Utilization", AverageUtilization: ptr(int32(80))},
				},
			}}
		}
		defaultHPABehavior(o.Spec.Behavior)
	}
}
