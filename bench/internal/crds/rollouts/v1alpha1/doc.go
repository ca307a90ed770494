// Package v1alpha1 is a Rollout modelled on Argo Rollouts'
// argoproj.io/v1alpha1 (held out: see package crds): a Deployment's
// replacement whose spec embeds a whole corev1.PodTemplateSpec, a canary
// strategy with IntOrString maxSurge, maxUnavailable and pause
// durations, analysis steps and NGINX traffic routing, and a status with
// conditions, pause conditions and canary weights. rollout.go is the
// source; the upstream subpackage is its copy over k8s.io/api's and
// apimachinery's types.
//
// +groupName=argoproj.io
package v1alpha1

//go:generate go run github.com/kubewire/kubewire/cmd/kubewire-gen -crd-dir crd .
//go:generate go run ../../cmd/mirror -src rollout.go -dst upstream
//go:generate go run sigs.k8s.io/controller-tools/cmd/controller-gen@v0.21.0 object paths=./upstream
