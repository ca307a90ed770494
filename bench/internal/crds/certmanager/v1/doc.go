// Package v1 is a Certificate modelled on cert-manager.io/v1's (held
// out: see package crds). certificate.go is the source; the upstream
// subpackage is its copy over apimachinery's types.
//
// +groupName=cert-manager.io
package v1

//go:generate go run github.com/kubewire/kubewire/cmd/kubewire-gen -crd-dir crd .
//go:generate go run ../../cmd/mirror -src certificate.go -dst upstream
//go:generate go run sigs.k8s.io/controller-tools/cmd/controller-gen@v0.21.0 object paths=./upstream
