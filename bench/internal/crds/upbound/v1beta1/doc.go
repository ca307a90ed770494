// Package v1beta1 is a Crossplane managed resource as upjet generates
// them, modelled on rds.aws.upbound.io/v1beta1's Instance (held out: see
// package crds): every parameter is a pointer, and the status mirrors the
// parameters with what the cloud reports. instance.go is the source; the
// upstream subpackage is its copy over apimachinery's types.
//
// +groupName=rds.aws.upbound.io
package v1beta1

//go:generate go run github.com/kubewire/kubewire/cmd/kubewire-gen -crd-dir crd .
//go:generate go run ../../cmd/mirror -src instance.go -dst upstream
//go:generate go run sigs.k8s.io/controller-tools/cmd/controller-gen@v0.21.0 object paths=./upstream
