// Package rbac turns controller-gen's +kubebuilder:rbac markers into
// the ClusterRole and Roles a controller needs, written as controller-gen
// v0.19 writes config/rbac/role.yaml, byte for byte after kubewire-gen's
// header:
//
//	// +kubebuilder:rbac:groups=operator.kubewire.dev,resources=widgets,verbs=get;list;watch;patch
//	// +kubebuilder:rbac:groups="",resources=configmaps,verbs=get;list;watch;create;update;delete
//	// +kubebuilder:rbac:groups=coordination.k8s.io,namespace=kube-system,resources=leases,verbs=get;update
//	// +kubebuilder:rbac:urls=/metrics,verbs=get
//
// The arguments are groups ("" or core for the core group), resources
// (with subresources such as widgets/status), resourceNames, verbs
// (required; "*" stands for all), urls (non-resource URLs) and
// namespace: a rule with a namespace goes into a Role of that namespace,
// the others into the ClusterRole. Lists are written a;b;c or {a,b,c}.
//
// Markers are read where controller-gen reads package-level markers:
// the package doc comment and the comment groups at the top level of a
// file that are not a declaration's doc comment (a block of markers
// above `func Reconcile`, one blank line apart from its doc comment, as
// kubebuilder lays them out). Markers in a declaration's doc comment or
// inside a function or a struct are not rules.
//
// Rules are merged as controller-gen merges them: each rule is split per
// resource; rules on the same groups, resource, resource names and URLs
// get the union of their verbs; then rules that differ only in their
// resources, then only in their groups, then only in their URLs, are
// joined; lists are sorted without duplicates, a rule with "*" among its
// verbs has only "*", and rules are sorted by their groups, resources,
// resource names and URLs. Roles follow the ClusterRole, by namespace.
package rbac
