// Package upstream is package v1alpha1's Workflow over
// k8s.io/apimachinery's types, for controller-runtime: workflow.go is
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

// GroupVersion is the Workflow's group and version.
var GroupVersion = schema.GroupVersion{Group: "argoproj.io", Version: "v1alpha1"}

// WorkflowList is a list of Workflows.
//
// +kubebuilder:object:root=true
type WorkflowList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Workflow `json:"items"`
}

// AddToScheme registers Workflow and WorkflowList.
func AddToScheme(s *runtime.Scheme) error {
	s.AddKnownTypes(GroupVersion, &Workflow{}, &WorkflowList{})
	metav1.AddToGroupVersion(s, GroupVersion)
	return nil
}
