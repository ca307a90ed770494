// Package kinds finds the API kinds of a Go package from its markers:
// the group and version (package markers), and for each type marked
// +kubebuilder:object:root=true its kind, list kind, resource names,
// scope, subresources, printer columns and version flags. Both the Go
// code (KindInfo) and the CustomResourceDefinition are written from
// what it finds, so they cannot disagree.
package kinds
