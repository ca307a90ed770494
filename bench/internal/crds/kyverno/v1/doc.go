// Package v1 is a Kyverno ClusterPolicy modelled on kyverno.io/v1's
// (held out: see package crds): rules whose patterns, patches, deny
// conditions and preconditions are free-form JSON (apiextensions/v1.JSON,
// as Kyverno types them), match blocks, and a status whose autogen
// section repeats the Pod rules rewritten for Pod controllers.
// clusterpolicy.go is the source; the upstream subpackage is its copy
// over apimachinery's types.
//
// +groupName=kyverno.io
package v1

//go:generate go run github.com/kubewire/kubewire/cmd/kubewire-gen -crd-dir crd .
//go:generate go run ../../cmd/mirror -src clusterpolicy.go -dst upstream
//go:generate go run sigs.k8s.io/controller-tools/cmd/controller-gen@v0.21.0 object paths=./upstream
