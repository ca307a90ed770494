package v1

import (
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/api/quantity"
)

// Widget is a set of identical workers that the widget controller keeps
// running.
//
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:subresource:scale:specpath=.spec.replicas,statuspath=.status.replicas,selectorpath=.status.selector
// +kubebuilder:resource:shortName=wd,categories=all
// +kubebuilder:printcolumn:name=Replicas,type=integer,JSONPath=.spec.replicas
// +kubebuilder:printcolumn:name=Ready,type=integer,JSONPath=.status.readyReplicas
// +kubebuilder:printcolumn:name=Age,type=date,JSONPath=.metadata.creationTimestamp
type Widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec WidgetSpec `json:"spec"`
	// +optional
	Status WidgetStatus `json:"status,omitempty"`
}

// WidgetSpec is what the owner of a Widget wants.
type WidgetSpec struct {
	// Image is the container image of the workers.
	// +kubebuilder:validation:MinLength=1
	Image string `json:"image"`
	// Replicas is how many workers run.
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=100
	// +kubebuilder:default=1
	// +optional
	Replicas *int32 `json:"replicas,omitempty"`
	// Size is the size of each worker.
	// +kubebuilder:validation:Enum=small;medium;large
	// +kubebuilder:default=medium
	// +optional
	Size string `json:"size,omitempty"`
	// Memory is what each worker may use.
	// +optional
	Memory *quantity.Quantity `json:"memory,omitempty"`
}

// WidgetStatus is what the widget controller saw last.
type WidgetStatus struct {
	// Replicas is how many workers exist.
	// +optional
	Replicas int32 `json:"replicas,omitempty"`
	// ReadyReplicas is how many of them are ready.
	// +optional
	ReadyReplicas int32 `json:"readyReplicas,omitempty"`
	// Selector selects the workers' Pods (for the scale subresource).
	// +optional
	Selector string `json:"selector,omitempty"`
	// ObservedGeneration is the generation the status is about.
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
	// Conditions say how the Widget is doing.
	// +listType=map
	// +listMapKey=type
	// +optional
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}
