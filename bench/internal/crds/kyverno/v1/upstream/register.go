// Package upstream is package v1's ClusterPolicy over
// k8s.io/apimachinery's types, for controller-runtime: clusterpolicy.go is
// copied from v1 by cmd/mirror, the deep copies are controller-gen's.
//
// +kubebuilder:object:generate=true
// +groupName=kyverno.io
package upstream

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// GroupVersion is the ClusterPolicy's group and version.
var GroupVersion = schema.GroupVersion{Group: "kyverno.io", Version: "v1"}

// ClusterPolicyList is a list of ClusterPolicies.
//
// +kubebuilder:object:root=true
type ClusterPolicyList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []ClusterPolicy `json:"items"`
}

// AddToScheme registers ClusterPolicy and ClusterPolicyList.
func AddToScheme(s *runtime.Scheme) error {
	s.AddKnownTypes(GroupVersion, &ClusterPolicy{}, &ClusterPolicyList{})
	metav1.AddToGroupVersion(s, GroupVersion)
	return nil
}
