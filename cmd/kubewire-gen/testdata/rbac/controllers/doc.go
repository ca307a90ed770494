// Package controllers holds +kubebuilder:rbac markers where controller
// programs put them, for the golden test of `kubewire-gen rbac` against
// controller-gen v0.19.0's rbac generator (controller-gen.yaml, written
// by `controller-gen rbac:roleName=manager-role paths=./...` on this
// folder).
//
// +kubebuilder:rbac:groups=apps,resources=daemonsets,verbs=get
package controllers
