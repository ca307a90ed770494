package defaults

import autoscalingv2 "github.com/kubewire/kubewire/api/autoscaling/v2"

// defaultHPABehavior fills an autoscaler's scaling rules, when it has a
// behavior, as autoscaling/v2's defaults do: scaling up by at most 4
// Pods or 100% every 15 s with no stabilization window, down by at most
// 100% every 15 s, choosing the policy that changes most. A rule's
// fields that are set stay as they are.
func defaultHPABehavior(b *autoscalingv2.HorizontalPodAutoscalerBehavior) {
	if b == nil {
		return
	}
	up := &autoscalingv2.HPAScalingRules{
		StabilizationWindowSeconds: ptr(int32(0)),
		SelectPolicy:               ptr(autoscalingv2.ScalingPolicySelect("Max")),
		Policies: []autoscalingv2.HPAScalingPolicy{
			{Type: "Pods", Value: 4, PeriodSeconds: 15},
			{Type: "Percent", Value: 100, PeriodSeconds: 15},
		},
	}
	down := &autoscalingv2.HPAScalingRules{
		SelectPolicy: ptr(autoscalingv2.ScalingPolicySelect("Max")),
		Policies:     []autoscalingv2.HPAScalingPolicy{{Type: "Percent", Value: 100, PeriodSeconds: 15}},
	}
	b.ScaleUp = mergeScalingRules(b.ScaleUp, up)
	b.ScaleDown = mergeScalingRules(b.ScaleDown, down)
}

// mergeScalingRules sets the fields of set on defaults.
func mergeScalingRules(set, defaults *autoscalingv2.HPAScalingRules) *autoscalingv2.HPAScalingRules {
	if set == nil {
		return defaults
	}
	if set.SelectPolicy != nil {
		defaults.SelectPolicy = set.SelectPolicy
	}
	if set.StabilizationWindowSeconds != nil {
		defaults.StabilizationWindowSeconds = set.StabilizationWindowSeconds
	}
	if set.Policies != nil {
		defaults.Policies = set.Policies
	}
	if set.Tolerance != nil {
		defaults.Tolerance = set.Tolerance
	}
	defaults.UnknownFields = set.UnknownFields
	return defaults
}
