// Package v1alpha1 is a Workflow modelled on argoproj.io/v1alpha1's
// (held out: see package crds). workflow.go is the source; the upstream
// subpackage is its copy over apimachinery's types.
//
// +groupName=argoproj.io
package v1alpha1

//go:generate go run github.com/kubewire/kubewire/cmd/kubewire-gen -crd-dir crd .
//go:generate go run ../../cmd/mirror -src workflow.go -dst upstream
//go:generate go run sigs.k8s.io/controller-tools/cmd/controller-gen@v0.21.0 object paths=./upstream
