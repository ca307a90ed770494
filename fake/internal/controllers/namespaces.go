package controllers

import (
	"slices"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/fake/internal/object"
	"github.com/kubewire/kubewire/fake/internal/request"
	"github.com/kubewire/kubewire/fake/internal/storage"
)

// reconcileNamespace is the namespace and service account controllers'
// work on one namespace: an active one gets its "default"
// ServiceAccount; a terminating one has its objects deleted and, once
// none is left, its "kubernetes" finalizer removed, after which it is
// gone.
func (s *Manager) reconcileNamespace(ref objRef, o *object.Stored) bool {
	if !o.Deleting {
		delete(s.watch, ref)
		return s.ensureServiceAccount(o.Name)
	}
	if slices.Contains(o.Finalizers, object.FinalizerOrphan) {
		return s.orphanDependents(ref, o)
	}
	d, err := ref.res.DraftOf(o)
	if err != nil {
		return false
	}
	if !slices.Contains(d.Typed.(*corev1.Namespace).Spec.Finalizers, corev1.FinalizerKubernetes) {
		delete(s.watch, ref)
		return false
	}
	wrote, remaining := false, false
	policy := request.PropagateBackground
	for _, r := range s.Cluster.StoredResources() {
		if !r.Kind.Namespaced {
			continue
		}
		snap, _, _ := s.Store.Snapshot(r, 0)
		lo, hi := storage.NamespaceRange(snap, o.Name)
		for _, obj := range snap[lo:hi] {
			remaining = true
			if obj.Deleting {
				continue
			}
			if s.Cluster.Delete(r, obj.Key, obj.Name, &request.DeleteOptions{PropagationPolicy: &policy}) {
				wrote = true
			}
		}
	}
	if remaining {
		return wrote
	}
	return s.controllerUpdate(ref, func(d *object.Draft) bool {
		ns := d.Typed.(*corev1.Namespace)
		n := len(ns.Spec.Finalizers)
		ns.Spec.Finalizers = slices.DeleteFunc(ns.Spec.Finalizers, func(f corev1.FinalizerName) bool { return f == corev1.FinalizerKubernetes })
		return len(ns.Spec.Finalizers) != n
	})
}

// ensureServiceAccount creates a namespace's "default" ServiceAccount
// if it has none.
func (s *Manager) ensureServiceAccount(ns string) bool {
	r := s.Cluster.Lookup("", "v1", "serviceaccounts")
	if s.Store.Get(r, object.Key(ns, "default")) != nil {
		return false
	}
	d, _, err := r.DecodeJSON([]byte(`{"metadata":{"name":"default"}}`))
	if err != nil {
		return false
	}
	return s.Cluster.Create(d, ns)
}
