package convert

import (
	autoscalingv1 "github.com/kubewire/kubewire/api/autoscaling/v1"
	autoscalingv2 "github.com/kubewire/kubewire/api/autoscaling/v2"
	"github.com/kubewire/kubewire/api/quantity"
)

// Metric sources and statuses between autoscaling/v2's target structs
// and autoscaling/v1's flat fields (as kept in its annotations).

func refToV1(r autoscalingv2.CrossVersionObjectReference) autoscalingv1.CrossVersionObjectReference {
	return autoscalingv1.CrossVersionObjectReference{Kind: r.Kind, Name: r.Name, APIVersion: r.APIVersion}
}

func refToV2(r autoscalingv1.CrossVersionObjectReference) autoscalingv2.CrossVersionObjectReference {
	return autoscalingv2.CrossVersionObjectReference{Kind: r.Kind, Name: r.Name, APIVersion: r.APIVersion}
}

func valueOf(q *quantity.Quantity) quantity.Quantity {
	if q == nil {
		return quantity.Quantity{}
	}
	return *q
}

// utilizationOrAverage is the target type of a resource metric of v1.
func utilizationOrAverage(utilization *int32) autoscalingv2.MetricTargetType {
	if utilization == nil {
		return "AverageValue"
	}
	return "Utilization"
}

func metricToV1(m autoscalingv2.MetricSpec) autoscalingv1.MetricSpec {
	out := autoscalingv1.MetricSpec{Type: autoscalingv1.MetricSourceType(m.Type)}
	if o := m.Object; o != nil {
		out.Object = &autoscalingv1.ObjectMetricSource{Target: refToV1(o.DescribedObject), MetricName: o.Metric.Name,
			TargetValue: valueOf(o.Target.Value), Selector: o.Metric.Selector, AverageValue: o.Target.AverageValue}
	}
	if p := m.Pods; p != nil {
		out.Pods = &autoscalingv1.PodsMetricSource{MetricName: p.Metric.Name, TargetAverageValue: valueOf(p.Target.AverageValue), Selector: p.Metric.Selector}
	}
	if r := m.Resource; r != nil {
		out.Resource = &autoscalingv1.ResourceMetricSource{Name: r.Name, TargetAverageUtilization: r.Target.AverageUtilization, TargetAverageValue: r.Target.AverageValue}
	}
	if c := m.ContainerResource; c != nil {
		out.ContainerResource = &autoscalingv1.ContainerResourceMetricSource{Name: c.Name, Container: c.Container,
			TargetAverageUtilization: c.Target.AverageUtilization, TargetAverageValue: c.Target.AverageValue}
	}
	if e := m.External; e != nil {
		out.External = &autoscalingv1.ExternalMetricSource{MetricName: e.Metric.Name, MetricSelector: e.Metric.Selector,
			TargetValue: e.Target.Value, TargetAverageValue: e.Target.AverageValue}
	}
	return out
}

func metricToV2(m autoscalingv1.MetricSpec) autoscalingv2.MetricSpec {
	out := autoscalingv2.MetricSpec{Type: autoscalingv2.MetricSourceType(m.Type)}
	if o := m.Object; o != nil {
		t := autoscalingv2.MetricTarget{Type: "Value", AverageValue: o.AverageValue}
		value := o.TargetValue
		if o.AverageValue == nil {
			t.Value = &value
		} else if t.Type = "AverageValue"; !value.IsZero() {
			t.Value = &value
		}
		out.Object = &autoscalingv2.ObjectMetricSource{DescribedObject: refToV2(o.Target), Target: t,
			Metric: autoscalingv2.MetricIdentifier{Name: o.MetricName, Selector: o.Selector}}
	}
	if p := m.Pods; p != nil {
		avg := p.TargetAverageValue
		out.Pods = &autoscalingv2.PodsMetricSource{Target: autoscalingv2.MetricTarget{Type: "AverageValue", AverageValue: &avg},
			Metric: autoscalingv2.MetricIdentifier{Name: p.MetricName, Selector: p.Selector}}
	}
	if r := m.Resource; r != nil {
		out.Resource = &autoscalingv2.ResourceMetricSource{Name: r.Name, Target: autoscalingv2.MetricTarget{
			Type: utilizationOrAverage(r.TargetAverageUtilization), AverageValue: r.TargetAverageValue, AverageUtilization: r.TargetAverageUtilization}}
	}
	if c := m.ContainerResource; c != nil {
		out.ContainerResource = &autoscalingv2.ContainerResourceMetricSource{Name: c.Name, Container: c.Container, Target: autoscalingv2.MetricTarget{
			Type: utilizationOrAverage(c.TargetAverageUtilization), AverageValue: c.TargetAverageValue, AverageUtilization: c.TargetAverageUtilization}}
	}
	if e := m.External; e != nil {
		t := autoscalingv2.MetricTarget{Type: "Value", Value: e.TargetValue, AverageValue: e.TargetAverageValue}
		if e.TargetValue == nil {
			t.Type = "AverageValue"
		}
		out.External = &autoscalingv2.ExternalMetricSource{Target: t, Metric: autoscalingv2.MetricIdentifier{Name: e.MetricName, Selector: e.MetricSelector}}
	}
	return out
}

func metricStatusToV1(m autoscalingv2.MetricStatus) autoscalingv1.MetricStatus {
	out := autoscalingv1.MetricStatus{Type: autoscalingv1.MetricSourceType(m.Type)}
	if o := m.Object; o != nil {
		out.Object = &autoscalingv1.ObjectMetricStatus{Target: refToV1(o.DescribedObject), MetricName: o.Metric.Name, Selector: o.Metric.Selector,
			CurrentValue: valueOf(o.Current.Value), AverageValue: o.Current.AverageValue}
	}
	if p := m.Pods; p != nil {
		out.Pods = &autoscalingv1.PodsMetricStatus{MetricName: p.Metric.Name, Selector: p.Metric.Selector, CurrentAverageValue: valueOf(p.Current.AverageValue)}
	}
	if r := m.Resource; r != nil {
		out.Resource = &autoscalingv1.ResourceMetricStatus{Name: r.Name, CurrentAverageUtilization: r.Current.AverageUtilization, CurrentAverageValue: valueOf(r.Current.AverageValue)}
	}
	if c := m.ContainerResource; c != nil {
		out.ContainerResource = &autoscalingv1.ContainerResourceMetricStatus{Name: c.Name, Container: c.Container,
			CurrentAverageUtilization: c.Current.AverageUtilization, CurrentAverageValue: valueOf(c.Current.AverageValue)}
	}
	if e := m.External; e != nil {
		out.External = &autoscalingv1.ExternalMetricStatus{MetricName: e.Metric.Name, MetricSelector: e.Metric.Selector,
			CurrentValue: valueOf(e.Current.Value), CurrentAverageValue: e.Current.AverageValue}
	}
	return out
}

func metricStatusToV2(m autoscalingv1.MetricStatus) autoscalingv2.MetricStatus {
	out := autoscalingv2.MetricStatus{Type: autoscalingv2.MetricSourceType(m.Type)}
	if o := m.Object; o != nil {
		v := o.CurrentValue
		out.Object = &autoscalingv2.ObjectMetricStatus{DescribedObject: refToV2(o.Target), Current: autoscalingv2.MetricValueStatus{Value: &v, AverageValue: o.AverageValue},
			Metric: autoscalingv2.MetricIdentifier{Name: o.MetricName, Selector: o.Selector}}
	}
	if p := m.Pods; p != nil {
		avg := p.CurrentAverageValue
		out.Pods = &autoscalingv2.PodsMetricStatus{Current: autoscalingv2.MetricValueStatus{AverageValue: &avg},
			Metric: autoscalingv2.MetricIdentifier{Name: p.MetricName, Selector: p.Selector}}
	}
	if r := m.Resource; r != nil {
		avg := r.CurrentAverageValue
		out.Resource = &autoscalingv2.ResourceMetricStatus{Name: r.Name, Current: autoscalingv2.MetricValueStatus{AverageValue: &avg, AverageUtilization: r.CurrentAverageUtilization}}
	}
	if c := m.ContainerResource; c != nil {
		avg := c.CurrentAverageValue
		out.ContainerResource = &autoscalingv2.ContainerResourceMetricStatus{Name: c.Name, Container: c.Container,
			Current: autoscalingv2.MetricValueStatus{AverageValue: &avg, AverageUtilization: c.CurrentAverageUtilization}}
	}
	if e := m.External; e != nil {
		v := e.CurrentValue
		out.External = &autoscalingv2.ExternalMetricStatus{Current: autoscalingv2.MetricValueStatus{Value: &v, AverageValue: e.CurrentAverageValue},
			Metric: autoscalingv2.MetricIdentifier{Name: e.MetricName, Selector: e.MetricSelector}}
	}
	return out
}
