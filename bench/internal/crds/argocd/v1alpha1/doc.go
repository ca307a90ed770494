// Package v1alpha1 is an Argo CD Application modelled on
// argoproj.io/v1alpha1's (held out: see package crds): a Helm source with
// parameters and a long multi-line values string, and a status that lists
// every resource the application deploys (50-200 small entries), its sync
// history and the last operation's results. application.go is the
// source; the upstream subpackage is its copy over apimachinery's types.
//
// +groupName=argoproj.io
package v1alpha1

//go:generate go run github.com/kubewire/kubewire/cmd/kubewire-gen -crd-dir crd .
//go:generate go run ../../cmd/mirror -src application.go -dst upstream
//go:generate go run sigs.k8s.io/controller-tools/cmd/controller-gen@v0.21.0 object paths=./upstream
