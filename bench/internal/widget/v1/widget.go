package v1

import (
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
)

// Widget is the custom resource over kubewire's types, as a kubewire user
// writes it; kubewire-gen writes the rest (zz_generated.kubewire.go).
//
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
type Widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec WidgetSpec `json:"spec,omitempty"`
	// +optional
	Status WidgetStatus `json:"status,omitempty"`
}

// WidgetStatus is the observed state.
type WidgetStatus struct {
	Phase              string                `json:"phase,omitempty"`
	ObservedGeneration int64                 `json:"observedGeneration,omitempty"`
	Message            string                `json:"message,omitempty"`
	Conditions         []metav1.Condition    `json:"conditions,omitempty"`
	Nodes              map[string]NodeStatus `json:"nodes,omitempty"`
}
