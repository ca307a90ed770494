// Package upstream is package v1's VirtualService over
// k8s.io/apimachinery's types, for controller-runtime: virtualservice.go is
// copied from v1 by cmd/mirror, the deep copies are controller-gen's.
//
// +kubebuilder:object:generate=true
// +groupName=networking.istio.io
package upstream

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// GroupVersion is the VirtualService's group and version.
var GroupVersion = schema.GroupVersion{Group: "networking.istio.io", Version: "v1"}

// VirtualServiceList is a list of VirtualServices.
//
// +kubebuilder:object:root=true
type VirtualServiceList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []VirtualService `json:"items"`
}

// AddToScheme registers VirtualService and VirtualServiceList.
func AddToScheme(s *runtime.Scheme) error {
	s.AddKnownTypes(GroupVersion, &VirtualService{}, &VirtualServiceList{})
	metav1.AddToGroupVersion(s, GroupVersion)
	return nil
}
