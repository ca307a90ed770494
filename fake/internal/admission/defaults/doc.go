// Package defaults sets the defaults kube-apiserver v1.36 sets when it
// decodes a built-in object (the SetDefaults functions and +default
// markers of k8s.io/kubernetes/pkg/apis/*), on the typed values of
// package api: a Deployment's strategy, revisionHistoryLimit and
// progressDeadlineSeconds, a pod template's restartPolicy, dnsPolicy and
// container fields, a Service's ports, a Secret's type, and so on. The
// functions are written from the upstream behaviour and cross-checked
// against a real kube-apiserver by the e2e module's TestFidelity.
//
// Draft applies them, and a custom resource's schema defaults, to an
// object being written, as decoding its body does.
//
// Apply changes the object it is given and keeps no state; it is safe to
// call concurrently on distinct objects.
package defaults
