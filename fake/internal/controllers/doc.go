// Package controllers does what kube-controller-manager's controllers
// (and a kubelet) do in a cluster, on the fake's storage and at once:
// the garbage collector (dependents of deleted owners,
// blockOwnerDeletion, the foregroundDeletion and orphan finalizers),
// the namespace controller (a Terminating namespace is emptied, then
// removed), the service account controller (a "default" ServiceAccount
// in every namespace), the PVC and PV protection controllers, and a
// kubelet's removal of a Pod whose grace period is over.
//
// A Manager follows the storage's change log; its passes are
// serialized, and its one goroutine (ending Pods' grace periods on
// time in the background mode) ends with its Context.
package controllers
