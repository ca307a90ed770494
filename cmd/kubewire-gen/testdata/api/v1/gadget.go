package v1

import (
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
)

// Gadget is a cluster-scoped kind with an irregular plural and a list
// type written by hand.
//
// +kubewire:object:root=true
// +kubewire:resource:scope=Cluster,path=gadgetries,singular=gadget
type Gadget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// +optional
	Spec GadgetSpec `json:"spec,omitempty"`
}

// GadgetSpec is what a Gadget should be.
type GadgetSpec struct {
	// +optional
	Parts []string `json:"parts,omitempty"`
}

// GadgetList is a list of Gadgets, written by hand.
// +kubebuilder:object:root=true
type GadgetList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Gadget `json:"items"`
}
