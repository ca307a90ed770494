package v1beta1

import (
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
)

// Widget of v1beta1 has fewer fields than v1's.
//
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:shortName=wd;wds,categories={all,shapes},singular=widget
// +kubebuilder:deprecatedversion:warning="shapes.kubewire.dev/v1beta1 Widget is deprecated; use v1"
type Widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   WidgetSpec   `json:"spec"`
	Status WidgetStatus `json:"status"`
}

// WidgetSpec is what a Widget should be.
type WidgetSpec struct {
	// Name is required here only because it says so.
	// +required
	Name string `json:"name"`
	Size string `json:"size"`
}

// WidgetStatus is what a Widget is.
type WidgetStatus struct {
	Replicas int32 `json:"replicas"`
}
