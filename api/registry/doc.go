// Package registry describes every kind that kube-apiserver v1.36.3 serves
// by default: its group, version, list kind, REST resource and scope, as
// the server's aggregated discovery documents state them.
//
// The table is generated (see tools/apigen) and holds no state: All,
// ByKind and ByResource build their answers on each call. Each generated
// kind type also has a KindInfo method returning its entry, which is how
// typed clients find the resource to talk to.
package registry
