package main

// kubewire-gen writes api/v1's kind info, deep copies, list type and apply
// configurations, and config/crd's CustomResourceDefinition. A user's
// module runs the same command; CI checks that running it here changes
// nothing.
//
//go:generate go run github.com/kubewire/kubewire/cmd/kubewire-gen -crd-dir config/crd ./api/v1
