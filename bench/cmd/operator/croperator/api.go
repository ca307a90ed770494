package main

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// groupVersion is the Widgets' API group and version.
var groupVersion = schema.GroupVersion{Group: "operator.kubewire.dev", Version: "v1"}

// addToScheme registers the Widget kinds.
func addToScheme(s *runtime.Scheme) error {
	s.AddKnownTypes(groupVersion, &Widget{}, &WidgetList{})
	metav1.AddToGroupVersion(s, groupVersion)
	return nil
}

// Widget asks the widget operator for a ConfigMap describing it.
//
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
type Widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   WidgetSpec   `json:"spec"`
	Status WidgetStatus `json:"status,omitempty"`
}

// WidgetSpec is what the Widget's owner wants.
type WidgetSpec struct {
	Color string `json:"color"`
	Size  int32  `json:"size,omitempty"`
}

// WidgetStatus is what the operator did.
type WidgetStatus struct {
	ConfigMap          string `json:"configMap,omitempty"`
	ObservedGeneration int64  `json:"observedGeneration,omitempty"`
}

// WidgetList is a list of Widgets.
//
// +kubebuilder:object:root=true
type WidgetList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Widget `json:"items"`
}
