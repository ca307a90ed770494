package v1

import metav1 "github.com/kubewire/kubewire/api/meta/v1"

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
	// +kubebuilder:validation:MinLength=1
	Color string `json:"color"`
	// +optional
	Size int32 `json:"size,omitempty"`
}

// WidgetStatus is what the operator did.
type WidgetStatus struct {
	// +optional
	ConfigMap string `json:"configMap,omitempty"`
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
}
