// Package alpha holds the first version of the Widget kind, no longer
// served: its version comes from +versionName, as the package name is
// not one.
//
// +groupName=shapes.kubewire.dev
// +versionName=v1alpha1
package alpha
