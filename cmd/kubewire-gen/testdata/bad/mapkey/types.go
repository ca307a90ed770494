// +groupName=bad.kubewire.dev
package v1

import metav1 "github.com/kubewire/kubewire/api/meta/v1"

type Key struct{ A, B string }

// +kubebuilder:object:root=true
type Thing struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Index             map[Key]string `json:"index"`
}
