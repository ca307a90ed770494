package convert

import (
	"encoding/json"

	autoscalingv1 "github.com/kubewire/kubewire/api/autoscaling/v1"
	autoscalingv2 "github.com/kubewire/kubewire/api/autoscaling/v2"
	"github.com/kubewire/kubewire/api/quantity"
)

// HorizontalPodAutoscalers are stored at autoscaling/v2. autoscaling/v1
// has room for one CPU utilization target only; kube-apiserver keeps the
// rest of a v2 object in annotations of its v1 form (other metrics,
// current metrics, conditions, behavior) and reads them back when a v1
// object is written, so that v2 -> v1 -> v2 loses nothing.

// The annotations autoscaling/v1 carries what it has no field for in.
const (
	hpaMetricsAnnotation        = "autoscaling.alpha.kubernetes.io/metrics"
	hpaCurrentMetricsAnnotation = "autoscaling.alpha.kubernetes.io/current-metrics"
	hpaConditionsAnnotation     = "autoscaling.alpha.kubernetes.io/conditions"
	hpaBehaviorAnnotation       = "autoscaling.alpha.kubernetes.io/behavior"
)

// hpaDefaultCPUUtilization is the target of an autoscaler without
// metrics.
const hpaDefaultCPUUtilization = 80

// dropHPAAnnotations is annots without the round-trip annotations (a
// copy when any is there; nil stays nil).
func dropHPAAnnotations(annots map[string]string) map[string]string {
	out := map[string]string{}
	dropped := false
	for k, v := range annots {
		switch k {
		case hpaMetricsAnnotation, hpaCurrentMetricsAnnotation, hpaConditionsAnnotation, hpaBehaviorAnnotation,
			"autoscaling.alpha.kubernetes.io/scale-down-tolerance", "autoscaling.alpha.kubernetes.io/scale-up-tolerance":
			dropped = true
			continue
		}
		out[k] = v
	}
	if !dropped {
		return annots
	}
	return out
}

// isCPUUtilization reports whether m is the metric autoscaling/v1's
// targetCPUUtilizationPercentage holds.
func isCPUUtilization(m autoscalingv2.MetricSpec) bool {
	return m.Type == "Resource" && m.Resource != nil && m.Resource.Name == "cpu" && m.Resource.Target.AverageUtilization != nil
}

// HPAToV1 is an autoscaling/v2 HorizontalPodAutoscaler as
// autoscaling/v1 serves it.
func HPAToV1(in *autoscalingv2.HorizontalPodAutoscaler) *autoscalingv1.HorizontalPodAutoscaler {
	out := &autoscalingv1.HorizontalPodAutoscaler{ObjectMeta: *in.ObjectMeta.DeepCopy()}
	out.SetKind("HorizontalPodAutoscaler")
	out.SetAPIVersion("autoscaling/v1")
	out.Annotations = dropHPAAnnotations(out.Annotations)
	s := &in.Spec
	out.Spec = autoscalingv1.HorizontalPodAutoscalerSpec{
		ScaleTargetRef: autoscalingv1.CrossVersionObjectReference{Kind: s.ScaleTargetRef.Kind, Name: s.ScaleTargetRef.Name, APIVersion: s.ScaleTargetRef.APIVersion},
		MinReplicas:    s.MinReplicas,
		MaxReplicas:    s.MaxReplicas,
	}
	var other []autoscalingv1.MetricSpec
	for _, m := range s.Metrics {
		if isCPUUtilization(m) {
			if out.Spec.TargetCPUUtilizationPercentage == nil {
				out.Spec.TargetCPUUtilizationPercentage = ptrTo(*m.Resource.Target.AverageUtilization)
			}
			continue
		}
		other = append(other, metricToV1(m))
	}
	st := &in.Status
	out.Status = autoscalingv1.HorizontalPodAutoscalerStatus{
		ObservedGeneration: st.ObservedGeneration, LastScaleTime: st.LastScaleTime,
		CurrentReplicas: st.CurrentReplicas, DesiredReplicas: st.DesiredReplicas,
	}
	current := make([]autoscalingv1.MetricStatus, len(st.CurrentMetrics))
	for i, m := range st.CurrentMetrics {
		current[i] = metricStatusToV1(m)
		if m.Type == "Resource" && m.Resource != nil && m.Resource.Name == "cpu" && m.Resource.Current.AverageUtilization != nil {
			out.Status.CurrentCPUUtilizationPercentage = ptrTo(*m.Resource.Current.AverageUtilization)
		}
	}
	annotate := func(key string, v any) {
		b, err := json.Marshal(v)
		if err != nil {
			return
		}
		if out.Annotations == nil {
			out.Annotations = map[string]string{}
		}
		out.Annotations[key] = string(b)
	}
	if len(other) > 0 {
		annotate(hpaMetricsAnnotation, other)
	}
	if len(st.CurrentMetrics) > 0 {
		annotate(hpaCurrentMetricsAnnotation, current)
	}
	if s.Behavior != nil {
		annotate(hpaBehaviorAnnotation, internalBehavior(s.Behavior))
	}
	if len(st.Conditions) > 0 {
		conds := make([]autoscalingv1.HorizontalPodAutoscalerCondition, len(st.Conditions))
		for i, c := range st.Conditions {
			conds[i] = autoscalingv1.HorizontalPodAutoscalerCondition{Type: autoscalingv1.HorizontalPodAutoscalerConditionType(c.Type),
				Status: c.Status, LastTransitionTime: c.LastTransitionTime, Reason: c.Reason, Message: c.Message}
		}
		annotate(hpaConditionsAnnotation, conds)
	}
	return out
}

// HPAToV2 is an autoscaling/v1 HorizontalPodAutoscaler in
// autoscaling/v2, its annotations read back; an autoscaler without
// metrics targets 80% CPU utilization.
func HPAToV2(in *autoscalingv1.HorizontalPodAutoscaler) *autoscalingv2.HorizontalPodAutoscaler {
	out := &autoscalingv2.HorizontalPodAutoscaler{ObjectMeta: *in.ObjectMeta.DeepCopy()}
	out.SetKind("HorizontalPodAutoscaler")
	out.SetAPIVersion("autoscaling/v2")
	s := &in.Spec
	out.Spec = autoscalingv2.HorizontalPodAutoscalerSpec{
		ScaleTargetRef: autoscalingv2.CrossVersionObjectReference{Kind: s.ScaleTargetRef.Kind, Name: s.ScaleTargetRef.Name, APIVersion: s.ScaleTargetRef.APIVersion},
		MinReplicas:    s.MinReplicas,
		MaxReplicas:    s.MaxReplicas,
	}
	if p := s.TargetCPUUtilizationPercentage; p != nil {
		out.Spec.Metrics = []autoscalingv2.MetricSpec{cpuUtilization(*p)}
	}
	st := &in.Status
	out.Status = autoscalingv2.HorizontalPodAutoscalerStatus{
		ObservedGeneration: st.ObservedGeneration, LastScaleTime: st.LastScaleTime,
		CurrentReplicas: st.CurrentReplicas, DesiredReplicas: st.DesiredReplicas,
	}
	if p := st.CurrentCPUUtilizationPercentage; p != nil {
		out.Status.CurrentMetrics = []autoscalingv2.MetricStatus{{Type: "Resource",
			Resource: &autoscalingv2.ResourceMetricStatus{Name: "cpu", Current: autoscalingv2.MetricValueStatus{AverageUtilization: ptrTo(*p)}}}}
	}
	annots := out.Annotations
	var other []autoscalingv1.MetricSpec
	if v, ok := annots[hpaMetricsAnnotation]; ok && json.Unmarshal([]byte(v), &other) == nil {
		metrics := make([]autoscalingv2.MetricSpec, 0, len(other)+len(out.Spec.Metrics))
		for _, m := range other {
			metrics = append(metrics, metricToV2(m))
		}
		out.Spec.Metrics = append(metrics, out.Spec.Metrics...)
	}
	var b internalHPABehavior
	if v, ok := annots[hpaBehaviorAnnotation]; ok && json.Unmarshal([]byte(v), &b) == nil && (b.ScaleUp != nil || b.ScaleDown != nil) {
		out.Spec.Behavior = &autoscalingv2.HorizontalPodAutoscalerBehavior{ScaleUp: b.ScaleUp.v2(), ScaleDown: b.ScaleDown.v2()}
	}
	var current []autoscalingv1.MetricStatus
	if v, ok := annots[hpaCurrentMetricsAnnotation]; ok && json.Unmarshal([]byte(v), &current) == nil {
		out.Status.CurrentMetrics = make([]autoscalingv2.MetricStatus, len(current))
		for i, m := range current {
			out.Status.CurrentMetrics[i] = metricStatusToV2(m)
		}
	}
	if len(out.Spec.Metrics) == 0 {
		out.Spec.Metrics = []autoscalingv2.MetricSpec{cpuUtilization(hpaDefaultCPUUtilization)}
	}
	var conds []autoscalingv1.HorizontalPodAutoscalerCondition
	if v, ok := annots[hpaConditionsAnnotation]; ok && json.Unmarshal([]byte(v), &conds) == nil {
		out.Status.Conditions = make([]autoscalingv2.HorizontalPodAutoscalerCondition, len(conds))
		for i, c := range conds {
			out.Status.Conditions[i] = autoscalingv2.HorizontalPodAutoscalerCondition{Type: autoscalingv2.HorizontalPodAutoscalerConditionType(c.Type),
				Status: c.Status, LastTransitionTime: c.LastTransitionTime, Reason: c.Reason, Message: c.Message}
		}
	}
	out.Annotations = dropHPAAnnotations(annots)
	return out
}

func cpuUtilization(p int32) autoscalingv2.MetricSpec {
	return autoscalingv2.MetricSpec{Type: "Resource", Resource: &autoscalingv2.ResourceMetricSource{Name: "cpu",
		Target: autoscalingv2.MetricTarget{Type: "Utilization", AverageUtilization: ptrTo(p)}}}
}

func ptrTo[T any](v T) *T { return &v }

// The behavior annotation is kube-apiserver's internal struct in JSON,
// with its Go field names.
type (
	internalHPABehavior struct {
		ScaleUp   *internalHPARules
		ScaleDown *internalHPARules
	}
	internalHPARules struct {
		StabilizationWindowSeconds *int32
		SelectPolicy               *string
		Policies                   []internalHPAPolicy
		Tolerance                  *quantity.Quantity
	}
	internalHPAPolicy struct {
		Type          string
		Value         int32
		PeriodSeconds int32
	}
)

func internalBehavior(b *autoscalingv2.HorizontalPodAutoscalerBehavior) internalHPABehavior {
	rules := func(r *autoscalingv2.HPAScalingRules) *internalHPARules {
		if r == nil {
			return nil
		}
		out := &internalHPARules{StabilizationWindowSeconds: r.StabilizationWindowSeconds, Tolerance: r.Tolerance}
		if r.SelectPolicy != nil {
			out.SelectPolicy = ptrTo(string(*r.SelectPolicy))
		}
		for _, p := range r.Policies {
			out.Policies = append(out.Policies, internalHPAPolicy{Type: string(p.Type), Value: p.Value, PeriodSeconds: p.PeriodSeconds})
		}
		return out
	}
	return internalHPABehavior{ScaleUp: rules(b.ScaleUp), ScaleDown: rules(b.ScaleDown)}
}

func (r *internalHPARules) v2() *autoscalingv2.HPAScalingRules {
	if r == nil {
		return nil
	}
	out := &autoscalingv2.HPAScalingRules{StabilizationWindowSeconds: r.StabilizationWindowSeconds, Tolerance: r.Tolerance}
	if r.SelectPolicy != nil {
		out.SelectPolicy = ptrTo(autoscalingv2.ScalingPolicySelect(*r.SelectPolicy))
	}
	for _, p := range r.Policies {
		out.Policies = append(out.Policies, autoscalingv2.HPAScalingPolicy{Type: autoscalingv2.HPAScalingPolicyType(p.Type), Value: p.Value, PeriodSeconds: p.PeriodSeconds})
	}
	return out
}
