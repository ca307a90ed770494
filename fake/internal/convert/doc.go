// Package convert converts the built-in kinds kube-apiserver serves under
// several group/versions but stores once: core/v1 and events.k8s.io/v1
// Events share one store, converted field by field as kube-apiserver's
// internal Event is converted to and from each version; autoscaling/v2
// and autoscaling/v1 HorizontalPodAutoscalers share one, what v1 has no
// field for kept in its annotations as kube-apiserver keeps it.
//
// Objects are stored at their kind's storage version (Storage) and
// converted on every read at another version (To); conversion works on
// the generated Go types of package api, so it knows nothing of how
// objects are encoded or stored.
package convert
