// Package v1 is the API of examples/operator: the Widget kind of the
// group operator.kubewire.dev. kubewire-gen wrote zz_generated.kubewire.go
// and ../../config/crd from these types.
//
// +groupName=operator.kubewire.dev
package v1

//go:generate go run github.com/kubewire/kubewire/cmd/kubewire-gen -crd-dir ../../config/crd .
