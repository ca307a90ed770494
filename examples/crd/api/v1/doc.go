// Package v1 is the API of examples/crd: the Widget kind of the group
// examples.kubewire.dev, written as an operator author writes a custom
// resource's types. kubewire-gen wrote the rest: zz_generated.kubewire.go
// (kind info, WidgetList, deep copies, the CustomResourceDefinition),
// applyconfig/ (apply configurations) and ../../config/crd.
//
// +groupName=examples.kubewire.dev
package v1
