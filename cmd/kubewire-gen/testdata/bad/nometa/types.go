// +groupName=bad.kubewire.dev
package v1

// +kubebuilder:object:root=true
type Thing struct {
	Name string `json:"name"`
}
