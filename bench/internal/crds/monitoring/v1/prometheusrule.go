package v1

import (
	"github.com/kubewire/kubewire/api/intstr"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
)

// PrometheusRule is a set of alerting and recording rules that the
// operator loads into Prometheus instances whose selectors match it.
//
// +kubebuilder:object:root=true
type PrometheusRule struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec PrometheusRuleSpec `json:"spec"`
}

// PrometheusRuleSpec holds the rule groups.
type PrometheusRuleSpec struct {
	// +optional
	Groups []RuleGroup `json:"groups,omitempty"`
}

// Duration is a Prometheus duration ("30s", "1h5m").
type Duration string

// RuleGroup is rules evaluated together, in order, at one interval.
type RuleGroup struct {
	Name string `json:"name"`
	// +optional
	Labels map[string]string `json:"labels,omitempty"`
	// +optional
	Interval *Duration `json:"interval,omitempty"`
	// +optional
	QueryOffset *Duration `json:"query_offset,omitempty"`
	// +optional
	Rules []Rule `json:"rules,omitempty"`
	// +optional
	PartialResponseStrategy string `json:"partial_response_strategy,omitempty"`
	// +optional
	Limit *int `json:"limit,omitempty"`
}

// Rule is an alerting rule (Alert set) or a recording rule (Record set).
type Rule struct {
	// +optional
	Record string `json:"record,omitempty"`
	// +optional
	Alert string             `json:"alert,omitempty"`
	Expr  intstr.IntOrString `json:"expr"`
	// +optional
	For *Duration `json:"for,omitempty"`
	// +optional
	KeepFiringFor *Duration `json:"keep_firing_for,omitempty"`
	// +optional
	Labels map[string]string `json:"labels,omitempty"`
	// +optional
	Annotations map[string]string `json:"annotations,omitempty"`
}
