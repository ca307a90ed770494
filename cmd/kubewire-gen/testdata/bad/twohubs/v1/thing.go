// +groupName=bad.kubewire.dev
package v1

import metav1 "github.com/kubewire/kubewire/api/meta/v1"

// +kubebuilder:object:root=true
// +kubebuilder:storageversion
type Thing struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
}

func (*Thing) Hub() {}
