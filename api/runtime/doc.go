// Package runtime holds the envelope types of the Kubernetes wire format:
// TypeMeta, Unknown (the protobuf envelope body) and RawExtension (an
// embedded object kept as raw bytes). They mirror
// k8s.io/apimachinery/pkg/runtime's types of the same names, without the
// scheme machinery: kubewire has no global registry of types.
package runtime
