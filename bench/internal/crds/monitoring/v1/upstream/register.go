// Package upstream is package v1's PrometheusRule over
// k8s.io/apimachinery's types, for controller-runtime: prometheusrule.go is
// copied from v1 by cmd/mirror, the deep copies are controller-gen's.
//
// +kubebuilder:object:generate=true
// +groupName=monitoring.coreos.com
package upstream

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// GroupVersion is the PrometheusRule's group and version.
var GroupVersion = schema.GroupVersion{Group: "monitoring.coreos.com", Version: "v1"}

// PrometheusRuleList is a list of PrometheusRules.
//
// +kubebuilder:object:root=true
type PrometheusRuleList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []PrometheusRule `json:"items"`
}

// AddToScheme registers PrometheusRule and PrometheusRuleList.
func AddToScheme(s *runtime.Scheme) error {
	s.AddKnownTypes(GroupVersion, &PrometheusRule{}, &PrometheusRuleList{})
	metav1.AddToGroupVersion(s, GroupVersion)
	return nil
}
