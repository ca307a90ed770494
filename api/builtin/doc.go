// Package builtin makes objects of the built-in kinds by name: New and
// NewList return a new, empty *T for an apiVersion and kind, such as
// new(corev1.Pod) for "v1" and "Pod". It is for code that learns the kind
// only at run time, such as a fake API server or a decoder of mixed
// objects; code that knows its types should use them directly.
//
// Importing it links every generated API package. The functions are
// generated (see tools/apigen) and hold no state.
package builtin
