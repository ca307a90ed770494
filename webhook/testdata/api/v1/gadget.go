package v1

import metav1 "github.com/kubewire/kubewire/api/meta/v1"

// Gadget is the hub: every field of every version.
//
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:storageversion
type Gadget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   GadgetSpec   `json:"spec"`
	Status GadgetStatus `json:"status,omitempty"`
}

// GadgetSpec is what the owner asks for.
type GadgetSpec struct {
	// Schedule is a cron schedule of five fields.
	Schedule string `json:"schedule"`
	// +optional
	Replicas *int32 `json:"replicas,omitempty"`
	// +optional
	Color string `json:"color,omitempty"`
	// Tags exist in v1 only.
	// +optional
	Tags []string `json:"tags,omitempty"`
}

// GadgetStatus is what was observed.
type GadgetStatus struct {
	// +optional
	Ready bool `json:"ready,omitempty"`
	// +optional
	// +listType=map
	// +listMapKey=type
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// Hub marks v1 as the conversion hub.
func (*Gadget) Hub() {}
