// Package v1 is kubewire-gen's test package: every marker and Go type
// shape the generator reads, in the group shapes.kubewire.dev. Its
// generated files are the golden files of cmd/kubewire-gen's tests, and
// e2e applies its CustomResourceDefinitions to a real kube-apiserver.
//
// +groupName=shapes.kubewire.dev
package v1
