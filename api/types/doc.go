// Package types holds the small named string types that Kubernetes objects
// and requests share: UID, NodeName, NamespacedName and the PatchType media
// types. It mirrors k8s.io/apimachinery/pkg/types with the same names and
// values, so code moving from client-go changes only its import path.
//
// These are plain values: copy them freely; they are safe for concurrent
// use because nothing in them changes after construction.
package types
