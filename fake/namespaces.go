package fake

import (
	"net/http"
	"slices"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
)

// reconcileNamespace is the namespace and service account controllers'
// work on one namespace: an active one gets its "default"
// ServiceAccount; a terminating one has its objects deleted and, once
// none is left, its "kubernetes" finalizer removed, after which it is
// gone.
func (s *Server) reconcileNamespace(ref objRef, o *storedObject) bool {
	if !o.deleting {
		delete(s.ctrl.watch, ref)
		return s.ensureServiceAccount(o.name)
	}
	if slices.Contains(o.finalizers, finalizerOrphan) {
		return s.orphanDependents(ref, o)
	}
	d, err := ref.res.draftOf(o)
	if err != nil {
		return false
	}
	if !slices.Contains(d.typed.(*corev1.Namespace).Spec.Finalizers, corev1.FinalizerKubernetes) {
		delete(s.ctrl.watch, ref)
		return false
	}
	wrote, remaining := false, false
	policy := propagateBackground
	for _, r := range s.storedResources() {
		if !r.kind.Namespaced {
			continue
		}
		snap, _, _ := s.store.snapshot(r, 0)
		lo, hi := namespaceRange(snap, o.name)
		for _, obj := range snap[lo:hi] {
			remaining = true
			if obj.deleting {
				continue
			}
			if _, aerr := s.deleteOne(r, obj.key, obj.name, &deleteOptions{PropagationPolicy: &policy}, false, nil); aerr == nil {
				wrote = true
			}
		}
	}
	if remaining {
		return wrote
	}
	return s.controllerUpdate(ref, func(d *draft) bool {
		ns := d.typed.(*corev1.Namespace)
		n := len(ns.Spec.Finalizers)
		ns.Spec.Finalizers = slices.DeleteFunc(ns.Spec.Finalizers, func(f corev1.FinalizerName) bool { return f == corev1.FinalizerKubernetes })
		return len(ns.Spec.Finalizers) != n
	})
}

// ensureServiceAccount creates a namespace's "default" ServiceAccount
// if it has none.
func (s *Server) ensureServiceAccount(ns string) bool {
	r := s.lookup("", "v1", "serviceaccounts")
	if s.store.get(r, objectKey(ns, "default")) != nil {
		return false
	}
	d, _, err := r.decodeJSONDraft([]byte(`{"metadata":{"name":"default"}}`))
	if err != nil {
		return false
	}
	_, aerr := s.create(d, ns, false, nil)
	return aerr == nil
}

// namespaceGone reports whether a namespace being deleted has nothing
// left holding it: no finalizer in its spec nor its metadata.
func namespaceGone(d *draft) bool {
	ns, ok := d.typed.(*corev1.Namespace)
	return ok && ns.DeletionTimestamp != nil && len(ns.Spec.Finalizers) == 0 && len(ns.Finalizers) == 0
}

// serveFinalize answers PUT /api/v1/namespaces/NAME/finalize: the body's
// spec.finalizers replace the namespace's, and a namespace being deleted
// that is left without finalizers is gone.
func (s *Server) serveFinalize(w http.ResponseWriter, req *http.Request, r *request) {
	s.serveWrite(w, req, r, updateOptions, func(d *draft, o writeOpts) (writeResult, *apiError) {
		if d.meta.Name != "" && d.meta.Name != r.name {
			return writeResult{}, errBadRequest("the name of the object (" + d.meta.Name + ") does not match the name on the URL (" + r.name + ")")
		}
		sent := d.typed.(*corev1.Namespace).Spec.Finalizers
		res := r.res
		obj, _, err := s.write(res, r.name, o.dry, func(cur *storedObject, rv uint64) (string, *storedObject, error) {
			if cur == nil {
				return "", nil, errNotFound(res, r.name)
			}
			old, err := res.draftOf(cur)
			if err != nil {
				return "", nil, err
			}
			next, err := res.draftOf(cur)
			if err != nil {
				return "", nil, err
			}
			next.typed.(*corev1.Namespace).Spec.Finalizers = sent
			if err := s.recordUpdate(s.endpoint(res, "finalize"), old, nil, next, o.manager); err != nil {
				return "", nil, err
			}
			return s.commitChange(cur, old, next, rv)
		})
		if err != nil {
			return writeResult{}, asAPIError(err)
		}
		return writeResult{obj: obj, code: http.StatusOK}, nil
	})
}
