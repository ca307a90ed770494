// Package upstream is package v1beta1's Instance over
// k8s.io/apimachinery's types, for controller-runtime: instance.go is
// copied from v1beta1 by cmd/mirror, the deep copies are controller-gen's.
//
// +kubebuilder:object:generate=true
// +groupName=rds.aws.upbound.io
package upstream

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// GroupVersion is the Instance's group and version.
var GroupVersion = schema.GroupVersion{Group: "rds.aws.upbound.io", Version: "v1beta1"}

// InstanceList is a list of Instances.
//
// +kubebuilder:object:root=true
type InstanceList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Instance `json:"items"`
}

// AddToScheme registers Instance and InstanceList.
func AddToScheme(s *runtime.Scheme) error {
	s.AddKnownTypes(GroupVersion, &Instance{}, &InstanceList{})
	metav1.AddToGroupVersion(s, GroupVersion)
	return nil
}
