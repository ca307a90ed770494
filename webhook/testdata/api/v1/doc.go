// Package v1 is the hub version of the test kind Gadget
// (test.kubewire.dev), whose v2 spoke cannot hold all of it.
//
// +groupName=test.kubewire.dev
package v1

//go:generate go run github.com/kubewire/kubewire/cmd/kubewire-gen -applyconfig=false -crd-dir ../crd . ../v2
