// Package widget is the custom resource of the CR benchmarks over
// k8s.io/apimachinery's types (Upstream), as an operator built on
// controller-runtime writes it. The kubewire side is package v1, whose
// code kubewire-gen generates. Both have the same fields and JSON names
// (Upstream reuses v1's spec types, which hold no kubewire type), so the
// two SDKs decode and cache the same objects.
package widget
