// Package v1 is an Istio VirtualService modelled on
// networking.istio.io/v1's (held out: see package crds): HTTP routes of
// small nested structs heavy in integers, booleans and floats (ports,
// weights, retry attempts, fault percentages), string matches written as
// one-of structs, and header maps. virtualservice.go is the source; the
// upstream subpackage is its copy over apimachinery's types.
//
// +groupName=networking.istio.io
package v1

//go:generate go run github.com/kubewire/kubewire/cmd/kubewire-gen -crd-dir crd .
//go:generate go run ../../cmd/mirror -src virtualservice.go -dst upstream
//go:generate go run sigs.k8s.io/controller-tools/cmd/controller-gen@v0.21.0 object paths=./upstream
