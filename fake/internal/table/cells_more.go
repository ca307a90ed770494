package table

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	admissionregistrationv1 "github.com/kubewire/kubewire/api/admissionregistration/v1"
	appsv1 "github.com/kubewire/kubewire/api/apps/v1"
	autoscalingv2 "github.com/kubewire/kubewire/api/autoscaling/v2"
	discoveryv1 "github.com/kubewire/kubewire/api/discovery/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	networkingv1 "github.com/kubewire/kubewire/api/networking/v1"
	nodev1 "github.com/kubewire/kubewire/api/node/v1"
	policyv1 "github.com/kubewire/kubewire/api/policy/v1"
	"github.com/kubewire/kubewire/api/quantity"
	schedulingv1 "github.com/kubewire/kubewire/api/scheduling/v1"
	storagev1 "github.com/kubewire/kubewire/api/storage/v1"
	"github.com/kubewire/kubewire/fake/internal/object"
)

// moreCells are the printers of the kinds builtinCells does not name.
func moreCells(t object.Typed, now time.Time) ([]any, bool) {
	age := func(m *metav1.ObjectMeta) string { return sinceTime(m.CreationTimestamp.Time, now) }
	switch o := t.(type) {
	case *discoveryv1.EndpointSlice:
		var ports, addrs []string
		nports, naddrs := 0, 0
		for _, p := range o.Ports {
			n := "*"
			switch {
			case p.Port != nil:
				n = strconv.Itoa(int(*p.Port))
			case p.Name != nil:
				n = *p.Name
			}
			if len(ports) < 3 {
				ports = append(ports, n)
			}
			nports++
		}
		for _, e := range o.Endpoints {
			for _, a := range e.Addresses {
				if len(addrs) < 3 {
					addrs = append(addrs, a)
				}
				naddrs++
			}
		}
		return []any{o.Name, string(o.AddressType), listWithMore(ports, nports), listWithMore(addrs, naddrs), age(&o.ObjectMeta)}, true
	case *networkingv1.NetworkPolicy:
		return []any{o.Name, formatSelector(&o.Spec.PodSelector), age(&o.ObjectMeta)}, true
	case *networkingv1.IngressClass:
		name := o.Name
		if o.Annotations["ingressclass.kubernetes.io/is-default-class"] == "true" {
			name += " (default)"
		}
		params := "<none>"
		if p := o.Spec.Parameters; p != nil {
			params = p.Kind
			if p.APIGroup != nil {
				params += "." + *p.APIGroup
			}
			params += "/" + p.Name
		}
		return []any{name, o.Spec.Controller, params, age(&o.ObjectMeta)}, true
	case *autoscalingv2.HorizontalPodAutoscaler:
		min := "<unset>"
		if o.Spec.MinReplicas != nil {
			min = strconv.Itoa(int(*o.Spec.MinReplicas))
		}
		return []any{o.Name, o.Spec.ScaleTargetRef.Kind + "/" + o.Spec.ScaleTargetRef.Name, hpaMetrics(o.Spec.Metrics, o.Status.CurrentMetrics), min,
			int64(o.Spec.MaxReplicas), int64(o.Status.CurrentReplicas), age(&o.ObjectMeta)}, true
	case *policyv1.PodDisruptionBudget:
		minA, maxU := "N/A", "N/A"
		if o.Spec.MinAvailable != nil {
			minA = intOrString(o.Spec.MinAvailable.StrVal, o.Spec.MinAvailable.IntVal, o.Spec.MinAvailable.Type == 1)
		}
		if o.Spec.MaxUnavailable != nil {
			maxU = intOrString(o.Spec.MaxUnavailable.StrVal, o.Spec.MaxUnavailable.IntVal, o.Spec.MaxUnavailable.Type == 1)
		}
		return []any{o.Name, minA, maxU, int64(o.Status.DisruptionsAllowed), age(&o.ObjectMeta)}, true
	case *storagev1.StorageClass:
		name := o.Name
		if o.Annotations["storageclass.kubernetes.io/is-default-class"] == "true" || o.Annotations["storageclass.beta.kubernetes.io/is-default-class"] == "true" {
			name += " (default)"
		}
		reclaim, binding := "Delete", "Immediate"
		if o.ReclaimPolicy != nil {
			reclaim = string(*o.ReclaimPolicy)
		}
		if o.VolumeBindingMode != nil {
			binding = string(*o.VolumeBindingMode)
		}
		expand := o.AllowVolumeExpansion != nil && *o.AllowVolumeExpansion
		return []any{name, o.Provisioner, reclaim, binding, expand, age(&o.ObjectMeta)}, true
	case *storagev1.CSIDriver:
		s := o.Spec
		b := func(p *bool, dflt bool) bool {
			if p == nil {
				return dflt
			}
			return *p
		}
		modes := make([]string, len(s.VolumeLifecycleModes))
		for i, m := range s.VolumeLifecycleModes {
			modes[i] = string(m)
		}
		modeCell := strings.Join(modes, ",")
		if modeCell == "" {
			modeCell = "<none>"
		}
		tokens := "<unset>"
		if s.TokenRequests != nil {
			aud := make([]string, len(s.TokenRequests))
			for i, t := range s.TokenRequests {
				aud[i] = t.Audience
			}
			tokens = strings.Join(aud, ",")
		}
		return []any{o.Name, b(s.AttachRequired, true), b(s.PodInfoOnMount, false), b(s.StorageCapacity, false), tokens, b(s.RequiresRepublish, false), modeCell, age(&o.ObjectMeta)}, true
	case *storagev1.CSINode:
		return []any{o.Name, int64(len(o.Spec.Drivers)), age(&o.ObjectMeta)}, true
	case *storagev1.VolumeAttachment:
		pv := ""
		if o.Spec.Source.PersistentVolumeName != nil {
			pv = *o.Spec.Source.PersistentVolumeName
		}
		return []any{o.Name, o.Spec.Attacher, pv, o.Spec.NodeName, o.Status.Attached, age(&o.ObjectMeta)}, true
	case *schedulingv1.PriorityClass:
		policy := ""
		if o.PreemptionPolicy != nil {
			policy = string(*o.PreemptionPolicy)
		}
		return []any{o.Name, int64(o.Value), o.GlobalDefault, age(&o.ObjectMeta), policy}, true
	case *nodev1.RuntimeClass:
		return []any{o.Name, o.Handler, age(&o.ObjectMeta)}, true
	case *appsv1.ControllerRevision:
		controller := "<none>"
		for _, ref := range o.OwnerReferences {
			if ref.Controller != nil && *ref.Controller {
				group, _ := object.SplitAPIVersion(ref.APIVersion)
				kind := strings.ToLower(ref.Kind)
				if group != "" {
					kind += "." + group
				}
				controller = kind + "/" + ref.Name
				break
			}
		}
		return []any{o.Name, controller, o.Revision, age(&o.ObjectMeta)}, true
	case *admissionregistrationv1.ValidatingWebhookConfiguration:
		return []any{o.Name, int64(len(o.Webhooks)), age(&o.ObjectMeta)}, true
	case *admissionregistrationv1.MutatingWebhookConfiguration:
		return []any{o.Name, int64(len(o.Webhooks)), age(&o.ObjectMeta)}, true
	}
	return nil, false
}

func intOrString(s string, i int32, isString bool) string {
	if isString {
		return s
	}
	return strconv.Itoa(int(i))
}

// listWithMore writes up to three items and how many more there are,
// "<unset>" for none.
func listWithMore(list []string, count int) string {
	out := strings.Join(list, ",")
	if count > len(list) {
		return fmt.Sprintf("%s + %d more...", out, count-len(list))
	}
	if out == "" {
		return "<unset>"
	}
	return out
}

// hpaMetrics is an autoscaler's Targets column: each metric's current
// and target values, two at most.
func hpaMetrics(specs []autoscalingv2.MetricSpec, statuses []autoscalingv2.MetricStatus) string {
	if len(specs) == 0 {
		return "<none>"
	}
	var list []string
	for i, s := range specs {
		var st *autoscalingv2.MetricStatus
		if i < len(statuses) {
			st = &statuses[i]
		}
		current := "<unknown>"
		switch s.Type {
		case "Resource", "ContainerResource":
			name, target := "", autoscalingv2.MetricTarget{}
			var cur *autoscalingv2.MetricValueStatus
			if s.Resource != nil {
				name, target = string(s.Resource.Name), s.Resource.Target
				if st != nil && st.Resource != nil {
					cur = &st.Resource.Current
				}
			} else if s.ContainerResource != nil {
				name, target = string(s.ContainerResource.Name), s.ContainerResource.Target
				if st != nil && st.ContainerResource != nil {
					cur = &st.ContainerResource.Current
				}
			}
			if target.AverageValue != nil {
				if cur != nil && cur.AverageValue != nil {
					current = cur.AverageValue.String()
				}
				list = append(list, fmt.Sprintf("%s: %s/%s", name, current, target.AverageValue.String()))
				continue
			}
			if cur != nil && cur.AverageUtilization != nil {
				current = fmt.Sprintf("%d%%", *cur.AverageUtilization)
			}
			t := "<auto>"
			if target.AverageUtilization != nil {
				t = fmt.Sprintf("%d%%", *target.AverageUtilization)
			}
			list = append(list, fmt.Sprintf("%s: %s/%s", name, current, t))
		case "Pods":
			if st != nil && st.Pods != nil && st.Pods.Current.AverageValue != nil {
				current = st.Pods.Current.AverageValue.String()
			}
			list = append(list, fmt.Sprintf("%s/%s", current, quantityString(s.Pods.Target.AverageValue)))
		case "Object", "External":
			target := autoscalingv2.MetricTarget{}
			var cur *autoscalingv2.MetricValueStatus
			if s.Object != nil {
				target = s.Object.Target
				if st != nil && st.Object != nil {
					cur = &st.Object.Current
				}
			} else if s.External != nil {
				target = s.External.Target
				if st != nil && st.External != nil {
					cur = &st.External.Current
				}
			}
			if target.AverageValue != nil {
				if cur != nil && cur.AverageValue != nil {
					current = cur.AverageValue.String()
				}
				list = append(list, fmt.Sprintf("%s/%s (avg)", current, target.AverageValue.String()))
			} else {
				if cur != nil {
					current = quantityString(cur.Value)
				}
				list = append(list, fmt.Sprintf("%s/%s", current, quantityString(target.Value)))
			}
		default:
			list = append(list, "<unknown type>")
		}
	}
	if len(list) > 2 {
		return fmt.Sprintf("%s + %d more...", strings.Join(list[:2], ", "), len(list)-2)
	}
	return strings.Join(list, ", ")
}

func quantityString(q *quantity.Quantity) string {
	if q == nil {
		return "0"
	}
	return q.String()
}
