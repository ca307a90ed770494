// Package upstream is package v1alpha1's Application over
// k8s.io/apimachinery's types, for controller-runtime: application.go is
// copied from v1alpha1 by cmd/mirror, the deep copies are controller-gen's.
//
// +kubebuilder:object:generate=true
// +groupName=argoproj.io
package upstream

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// GroupVersion is the Application's group and version.
var GroupVersion = schema.GroupVersion{Group: "argoproj.io", Version: "v1alpha1"}

// ApplicationList is a list of Applications.
//
// +kubebuilder:object:root=true
type ApplicationList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Application `json:"items"`
}

// AddToScheme registers Application and ApplicationList.
func AddToScheme(s *runtime.Scheme) error {
	s.AddKnownTypes(GroupVersion, &Application{}, &ApplicationList{})
	metav1.AddToGroupVersion(s, GroupVersion)
	return nil
}
