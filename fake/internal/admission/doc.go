// Package admission is what a write goes through between decoding and
// storage, as in kube-apiserver: the namespace lifecycle, the admission
// plugins kube-apiserver enables by default that change objects
// (ServiceAccount, Priority, DefaultTolerationSeconds,
// TaintNodesByCondition, StorageObjectInUseProtection,
// DefaultStorageClass), external admission hooks (a test's hooks and
// webhooks), the registry's per-kind strategy (package strategy) and
// per-kind validation (package validation). Defaults are applied when a
// body is decoded (package defaults), so that they count as the
// writer's fields.
//
// Chain orders these stages; Hook is where external admission plugs
// in. A Chain is safe for concurrent use.
package admission
