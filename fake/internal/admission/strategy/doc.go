// Package strategy is what kube-apiserver's registry does to an object
// on a create or an update whatever the body says (its strategies'
// PrepareForCreate and PrepareForUpdate, and the Service REST's address
// allocation): statuses reset, a Pod's QoS class, a Job's generated
// selector, a Service's cluster IP and node ports, a DaemonSet's
// template generation, a CustomResourceDefinition's stored versions.
//
// A Strategy is safe for concurrent use.
package strategy
