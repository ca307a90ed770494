package alpha

import (
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
)

// Widget of v1alpha1.
//
// +kubebuilder:object:root=true
// +kubebuilder:resource:shortName=wd;wds,categories={all,shapes},singular=widget
// +kubebuilder:unservedversion
type Widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// +optional
	Spec WidgetSpec `json:"spec,omitempty"`
}

// WidgetSpec is what a Widget should be.
type WidgetSpec struct {
	// +optional
	Name string `json:"name,omitempty"`
}
