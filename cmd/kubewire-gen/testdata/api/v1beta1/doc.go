// Package v1beta1 is an older version of the Widget kind: served and
// deprecated, not stored. Its fields are optional unless marked
// required (the package marker +kubebuilder:validation:Optional).
//
// +groupName=shapes.kubewire.dev
// +kubebuilder:validation:Optional
package v1beta1
