package fake

import (
	"net/http"
	"slices"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/fake/internal/apierr"
	"github.com/kubewire/kubewire/fake/internal/managedfields"
	"github.com/kubewire/kubewire/fake/internal/object"
	"github.com/kubewire/kubewire/fake/internal/request"
	"github.com/kubewire/kubewire/fake/internal/storage"
)

// reconcileNamespace is the namespace and service account controllers'
// work on one namespace: an active one gets its "default"
// ServiceAccount; a terminating one has its objects deleted and, once
// none is left, its "kubernetes" finalizer removed, after which it is
// gone.
func (s *Server) reconcileNamespace(ref objRef, o *object.Stored) bool {
	if !o.Deleting {
		delete(s.ctrl.watch, ref)
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
		delete(s.ctrl.watch, ref)
		return false
	}
	wrote, remaining := false, false
	policy := request.PropagateBackground
	for _, r := range s.storedResources() {
		if !r.Kind.Namespaced {
			continue
		}
		snap, _, _ := s.store.Snapshot(r, 0)
		lo, hi := storage.NamespaceRange(snap, o.Name)
		for _, obj := range snap[lo:hi] {
			remaining = true
			if obj.Deleting {
				continue
			}
			if _, aerr := s.deleteOne(r, obj.Key, obj.Name, &request.DeleteOptions{PropagationPolicy: &policy}, false, nil); aerr == nil {
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
func (s *Server) ensureServiceAccount(ns string) bool {
	r := s.lookup("", "v1", "serviceaccounts")
	if s.store.Get(r, object.Key(ns, "default")) != nil {
		return false
	}
	d, _, err := r.DecodeJSON([]byte(`{"metadata":{"name":"default"}}`))
	if err != nil {
		return false
	}
	_, aerr := s.create(d, ns, false, nil)
	return aerr == nil
}

// namespaceGone reports whether a namespace being deleted has nothing
// left holding it: no finalizer in its spec nor its metadata.
func namespaceGone(d *object.Draft) bool {
	ns, ok := d.Typed.(*corev1.Namespace)
	return ok && ns.DeletionTimestamp != nil && len(ns.Spec.Finalizers) == 0 && len(ns.Finalizers) == 0
}

// serveFinalize answers PUT /api/v1/namespaces/NAME/finalize: the body's
// spec.finalizers replace the namespace's, and a namespace being deleted
// that is left without finalizers is gone.
func (s *Server) serveFinalize(w http.ResponseWriter, req *http.Request, r *request.Request) {
	s.serveWrite(w, req, r, request.UpdateOptions, func(d *object.Draft, o request.WriteOptions) (writeResult, *apierr.Error) {
		if d.Meta.Name != "" && d.Meta.Name != r.Name {
			return writeResult{}, apierr.BadRequest("the name of the object (" + d.Meta.Name + ") does not match the name on the URL (" + r.Name + ")")
		}
		sent := d.Typed.(*corev1.Namespace).Spec.Finalizers
		res := r.Res
		obj, _, err := s.write(res, r.Name, o.DryRun, func(cur *object.Stored, rv uint64) (string, *object.Stored, error) {
			if cur == nil {
				return "", nil, apierr.NotFound(res.Kind, r.Name)
			}
			old, err := res.DraftOf(cur)
			if err != nil {
				return "", nil, err
			}
			next, err := res.DraftOf(cur)
			if err != nil {
				return "", nil, err
			}
			next.Typed.(*corev1.Namespace).Spec.Finalizers = sent
			if err := managedfields.RecordUpdate(s.endpoint(res, "finalize"), old, nil, next, o.Manager); err != nil {
				return "", nil, err
			}
			return s.commitChange(cur, old, next, rv)
		})
		if err != nil {
			return writeResult{}, apierr.From(err)
		}
		return writeResult{obj: obj, code: http.StatusOK}, nil
	})
}
