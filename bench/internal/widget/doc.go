// Package widget is the custom resource of the CR benchmarks, twice: Widget
// over kubewire's API types, as a kubewire user writes it, and Upstream
// over k8s.io/apimachinery's, as an operator built on controller-runtime
// writes it. Both have the same fields and JSON names, so the two SDKs
// decode and cache the same objects.
//
// Until kubewire-gen lands, Widget's KindInfo and DeepCopy are written by
// hand here, shaped as the generator writes them; its JSON decoder
// (zz_generated.json.go) is emitted by internal/codegen/jsoncodec, the
// emitter kubewire-gen drives, through cmd/widgetgen.
package widget
