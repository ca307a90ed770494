// +groupName=bad.kubewire.dev
package v2

import metav1 "github.com/kubewire/kubewire/api/meta/v1"

// +kubebuilder:object:root=true

type Thing struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
}

func (*Thing) ConvertTo(any) error { return nil }
