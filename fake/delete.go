package fake

import (
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"time"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/fake/internal/admission"
	"github.com/kubewire/kubewire/fake/internal/apierr"
	"github.com/kubewire/kubewire/fake/internal/object"
	"github.com/kubewire/kubewire/fake/internal/request"
	"github.com/kubewire/kubewire/fake/internal/storage"

	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/api/types"
)

// orphansByDefault lists, as "group/resource", the resources whose
// dependents a delete without a policy orphans (kube-apiserver's
// DefaultGarbageCollectionPolicy OrphanDependents for these versions).
func orphansByDefault(r *object.Resource) bool {
	return !r.Custom && r.Kind.Group == "batch" && r.Kind.Resource == "jobs"
}

// gcFinalizers returns an object's finalizers updated for a delete's
// propagation policy, as kube-apiserver's generic registry updates them:
// Orphan adds "orphan", Foreground "foregroundDeletion" (each removing
// the other), Background removes both; without a policy the finalizers
// already there decide, then the resource's default.
func gcFinalizers(r *object.Resource, fins []string, o *request.DeleteOptions) []string {
	if r.InternalGroup() == "" && r.Kind.Resource == "events" && !r.Custom {
		// Events have no garbage collection policy: a delete's
		// propagation policy leaves their finalizers as they are.
		return fins
	}
	has := func(f string) bool { return slices.Contains(fins, f) }
	orphan, foreground := false, false
	switch {
	case o.OrphanDependents != nil:
		orphan = *o.OrphanDependents
	case o.PropagationPolicy != nil:
		orphan = *o.PropagationPolicy == request.PropagateOrphan
		foreground = *o.PropagationPolicy == request.PropagateForeground
	default:
		foreground = has(object.FinalizerForeground)
		orphan = !foreground && (has(object.FinalizerOrphan) || orphansByDefault(r))
	}
	out := slices.Clone(fins)
	drop := func(f string) { out = slices.DeleteFunc(out, func(x string) bool { return x == f }) }
	add := func(f string) {
		if !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	switch {
	case orphan:
		add(object.FinalizerOrphan)
		drop(object.FinalizerForeground)
	case foreground:
		add(object.FinalizerForeground)
		drop(object.FinalizerOrphan)
	case o.PropagationPolicy != nil || o.OrphanDependents != nil:
		drop(object.FinalizerOrphan)
		drop(object.FinalizerForeground)
	}
	return out
}

// immortalNamespaces cannot be deleted.
func immortalNamespace(name string) bool {
	return name == "default" || name == "kube-system" || name == "kube-public"
}

// deleteResult is the outcome of deleting one object.
type deleteResult struct {
	obj *object.Stored // the deleted object, or the one finalizers hold
	// deferred is set when finalizers or a grace period hold the
	// object: it carries metadata.deletionTimestamp and stays until they
	// are removed or the period ends.
	deferred bool
}

// preconditionFailed is the 409 of a delete whose preconditions do not
// hold, worded as kube-apiserver's generic registry words it for built-in
// kinds and custom resources alike (the registries of namespaces and of
// CustomResourceDefinitions word it otherwise).
func preconditionFailed(res *object.Resource, name, field, want, got string) *apierr.Error {
	if res.IsCRD() || res.Kind.Group == "" && res.Kind.Resource == "namespaces" {
		// (a namespace's and a CRD's delete check their preconditions
		// themselves)
		msg := fmt.Sprintf("Operation cannot be fulfilled on %s %q: Precondition failed: %s in precondition: %s, %s in object meta: %s", apierr.QualifiedResource(res.Kind), name, field, want, field, got)
		return apierr.New(http.StatusConflict, "Conflict", msg, apierr.Details(res.Kind, name))
	}
	what, why := "deleted and then recreated", "UID"
	if field == "ResourceVersion" {
		what, why = "modified", "ResourceVersion"
	}
	kind := res.Kind.Kind
	if res.Kind.Group != "" {
		kind += "." + res.Kind.Group
	}
	msg := fmt.Sprintf("Operation cannot be fulfilled on %s %q: the %s in the precondition (%s) does not match the %s in record (%s). The object might have been %s", kind, name, why, want, why, got, what)
	return apierr.New(http.StatusConflict, "Conflict", msg, &metav1.StatusDetails{Name: name, Group: res.Kind.Group, Kind: res.Kind.Kind})
}

// deleteOne deletes one object, or marks it for deletion when
// finalizers (its own, or the garbage collector's for a Foreground or
// Orphan propagation) or a Pod's grace period hold it. Deletes through
// the API (call set) run the admission hooks.
func (s *Server) deleteOne(res *object.Resource, key, name string, opts *request.DeleteOptions, dry bool, call *admission.Request) (deleteResult, *apierr.Error) {
	if res.Kind.Group == "" && res.Kind.Resource == "namespaces" && immortalNamespace(name) && call != nil {
		return deleteResult{}, apierr.Forbidden(res.Kind, name, "this namespace may not be deleted")
	}
	deferred := false
	o, _, err := s.write(res, key, dry, func(cur *object.Stored, rv uint64) (string, *object.Stored, error) {
		if cur == nil {
			return "", nil, apierr.NotFound(res.Kind, name)
		}
		if p := opts.Preconditions; p != nil {
			if p.UID != nil && *p.UID != cur.UID {
				return "", nil, preconditionFailed(res, name, "UID", *p.UID, cur.UID)
			}
			if p.ResourceVersion != nil && *p.ResourceVersion != strconv.FormatUint(cur.RV, 10) {
				return "", nil, preconditionFailed(res, name, "ResourceVersion", *p.ResourceVersion, strconv.FormatUint(cur.RV, 10))
			}
		}
		d, err := res.DraftOf(cur)
		if err != nil {
			return "", nil, err
		}
		if aerr := s.admission.Mutate(nil, d, call); aerr != nil {
			return "", nil, aerr
		}
		if res.IsCRD() {
			deferred = true
			if cur.Deleting {
				return "", nil, nil
			}
			s.markCRDDeleted(d)
			next, err := d.Seal(rv)
			return storage.Modified, next, err
		}
		if ns, ok := d.Typed.(*corev1.Namespace); ok {
			return s.deleteNamespace(ns, d, cur, opts, rv, &deferred)
		}
		return s.deleteObject(res, d, cur, opts, rv, &deferred)
	})
	if err != nil {
		return deleteResult{}, apierr.From(err)
	}
	return deleteResult{obj: o, deferred: deferred}, nil
}

// deleteObject is deleteOne's write for every kind but CRDs and
// Namespaces.
func (s *Server) deleteObject(res *object.Resource, d *object.Draft, cur *object.Stored, opts *request.DeleteOptions, rv uint64, deferred *bool) (string, *object.Stored, error) {
	fins := d.Meta.Finalizers
	if gcSupported(res) {
		fins = gcFinalizers(res, fins, opts)
	}
	changed := !slices.Equal(fins, d.Meta.Finalizers)
	d.Meta.Finalizers = fins
	grace, graceful := podGracePeriod(d, opts)
	now := s.nowTime()
	if cur.Deleting {
		*deferred = true
		if graceful && grace == 0 && len(fins) == 0 {
			// A pod's grace period cut to zero (force): gone now.
			zero := int64(0)
			d.Meta.DeletionGracePeriodSeconds = &zero
			next, err := d.Seal(rv)
			*deferred = false
			return storage.Deleted, next, err
		}
		if graceful && d.Meta.DeletionGracePeriodSeconds != nil && grace < *d.Meta.DeletionGracePeriodSeconds {
			at := metav1.NewTime(now.Add(time.Duration(grace) * time.Second))
			d.Meta.DeletionTimestamp, d.Meta.DeletionGracePeriodSeconds = &at, &grace
			changed = true
		}
		if !changed {
			return "", nil, nil
		}
		next, err := d.Seal(rv)
		return storage.Modified, next, err
	}
	if len(fins) > 0 || grace > 0 {
		*deferred = true
		at := metav1.NewTime(now.Add(time.Duration(grace) * time.Second))
		d.Meta.DeletionTimestamp, d.Meta.DeletionGracePeriodSeconds = &at, &grace
		if res.Generation {
			d.Meta.Generation++
		}
		next, err := d.Seal(rv)
		return storage.Modified, next, err
	}
	if graceful {
		// kube-apiserver answers with the pod as it marked it before
		// removing it.
		zero := int64(0)
		d.Meta.DeletionTimestamp, d.Meta.DeletionGracePeriodSeconds = &now, &zero
		if res.Generation {
			d.Meta.Generation++
		}
	}
	next, err := d.Seal(rv)
	return storage.Deleted, next, err
}

// podGracePeriod returns a Pod's grace period for a delete (the
// request's, else the pod's terminationGracePeriodSeconds; zero for a
// pod bound to no node or finished, one second for a negative one) and
// whether the object is a Pod: other kinds are deleted without one.
func podGracePeriod(d *object.Draft, opts *request.DeleteOptions) (int64, bool) {
	p, ok := d.Typed.(*corev1.Pod)
	if !ok {
		return 0, false
	}
	grace := int64(30)
	if p.Spec.TerminationGracePeriodSeconds != nil {
		grace = *p.Spec.TerminationGracePeriodSeconds
	}
	if opts.GracePeriodSeconds != nil {
		grace = *opts.GracePeriodSeconds
	}
	if p.Spec.NodeName == "" || p.Status.Phase == "Failed" || p.Status.Phase == "Succeeded" {
		grace = 0
	}
	if grace < 0 {
		grace = 1 // as the Pod strategy's CheckGracefulDelete
	}
	return grace, true
}

// deleteNamespace marks a Namespace Terminating; its controller (or
// /finalize) empties it and removes the "kubernetes" finalizer, after
// which it is gone. One without finalizers is gone at once.
func (s *Server) deleteNamespace(ns *corev1.Namespace, d *object.Draft, cur *object.Stored, opts *request.DeleteOptions, rv uint64, deferred *bool) (string, *object.Stored, error) {
	if !cur.Deleting {
		ns.Finalizers = namespaceGCFinalizers(ns.Finalizers, opts)
	}
	if len(ns.Spec.Finalizers) == 0 && len(ns.Finalizers) == 0 {
		next, err := d.Seal(rv)
		return storage.Deleted, next, err
	}
	*deferred = true
	if cur.Deleting {
		return "", nil, nil
	}
	now := s.nowTime()
	ns.DeletionTimestamp = &now
	ns.Status.Phase = "Terminating"
	next, err := d.Seal(rv)
	return storage.Modified, next, err
}

// namespaceGCFinalizers are a namespace's finalizers as the namespace
// registry sets them on the first delete (pkg/registry/core/namespace
// shouldHaveOrphanFinalizer and shouldHaveDeleteDependentsFinalizer):
// "orphan" for orphanDependents=true or the Orphan policy,
// "foregroundDeletion" for orphanDependents=false or the Foreground
// policy, each removed by the other options and kept without any.
func namespaceGCFinalizers(fins []string, o *request.DeleteOptions) []string {
	shouldHave := func(f string, orphanDependents bool, policy string) bool {
		switch {
		case o.OrphanDependents != nil:
			return *o.OrphanDependents == orphanDependents
		case o.PropagationPolicy != nil:
			return *o.PropagationPolicy == policy
		}
		return slices.Contains(fins, f)
	}
	orphan := shouldHave(object.FinalizerOrphan, true, request.PropagateOrphan)
	foreground := shouldHave(object.FinalizerForeground, false, request.PropagateForeground)
	out := slices.DeleteFunc(slices.Clone(fins), func(f string) bool {
		return f == object.FinalizerOrphan || f == object.FinalizerForeground
	})
	if orphan {
		out = append(out, object.FinalizerOrphan)
	}
	if foreground {
		out = append(out, object.FinalizerForeground)
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// writeDeleted answers a DELETE as kube-apiserver does (generic registry
// Store.Delete and the DELETE handler): a deletion that finalizers defer
// answers with the object, which carries deletionTimestamp; an immediate
// one answers with the object only for the resources whose registry sets
// ReturnDeletedObject, and with a Success Status naming the object (its
// details.kind is the resource, not the kind) for the others. The code is
// 200, or 202 for a deferred deletion with orphanDependents=false.
func (s *Server) writeDeleted(w http.ResponseWriter, req *http.Request, res *object.Resource, d deleteResult, opts *request.DeleteOptions, out request.Output) {
	code := http.StatusOK
	if d.deferred && opts.OrphanDependents != nil && !*opts.OrphanDependents {
		code = http.StatusAccepted
	}
	if d.deferred || res.ReturnsDeleted {
		s.writeObject(w, req, code, d.obj, out)
		return
	}
	st := &metav1.Status{
		TypeMeta: metav1.TypeMeta{Kind: "Status", APIVersion: "v1"},
		Status:   "Success",
		Details:  &metav1.StatusDetails{Name: d.obj.Name, Group: res.Kind.Group, Kind: res.Kind.Resource, UID: types.UID(d.obj.UID)},
	}
	s.writeBody(w, req, code, out.Format.ContentType(), request.EncodeStatus(st, out.Format))
}

func (s *Server) serveDelete(w http.ResponseWriter, req *http.Request, r *request.Request) {
	if r.Subresource != "" {
		request.WriteError(w, req, apierr.MethodNotSupported(r.Res.Kind, "delete"))
		return
	}
	out, aerr := s.negotiate(req, r.Res, false, false)
	if aerr != nil {
		request.WriteError(w, req, aerr)
		return
	}
	dry, opts, aerr := request.DeleteParams(req)
	if aerr != nil {
		request.WriteError(w, req, aerr)
		return
	}
	if orphansByDefault(r.Res) && opts.PropagationPolicy == nil && opts.OrphanDependents == nil {
		w.Header().Add("Warning", "299 - "+strconv.Quote("child pods are preserved by default when jobs are deleted; set propagationPolicy=Background to remove them or set propagationPolicy=Orphan to suppress this warning"))
	}
	res, aerr := s.deleteOne(r.Res, object.Key(r.Namespace, r.Name), r.Name, opts, dry, admission.NewRequest(r, "delete", dry, "", req.UserAgent()))
	if aerr != nil {
		request.WriteError(w, req, aerr)
		return
	}
	s.writeDeleted(w, req, r.Res, res, opts, out)
}

// serveDeleteCollection deletes every object the selectors match and
// answers with the list of deleted (or deleting) objects.
func (s *Server) serveDeleteCollection(w http.ResponseWriter, req *http.Request, r *request.Request) {
	out, aerr := s.negotiate(req, r.Res, true, false)
	if aerr != nil {
		request.WriteError(w, req, aerr)
		return
	}
	opts, aerr := request.ParseListOptions(req.URL.Query(), r.Res, false)
	if aerr != nil {
		request.WriteError(w, req, aerr)
		return
	}
	dry, dopts, aerr := request.DeleteParams(req)
	if aerr != nil {
		request.WriteError(w, req, aerr)
		return
	}
	if opts.RV != "0" && watchCached(r.Res) {
		// kube-apiserver lists what it deletes as a list does: a
		// consistent read, which brings the watch cache up to date.
		n, _ := strconv.ParseUint(opts.RV, 10, 64)
		s.store.Freshen(r.Res, n)
	}
	snap, _, _ := s.store.Snapshot(r.Res, 0)
	lo, hi := storage.NamespaceRange(snap, r.Namespace)
	var deleted []*object.Stored
	for _, o := range snap[lo:hi] {
		if !opts.Matches(o) {
			continue
		}
		one := *r
		one.Name = o.Name
		_, aerr := s.deleteOne(r.Res, o.Key, o.Name, dopts, dry, admission.NewRequest(&one, "delete", dry, "", req.UserAgent()))
		if aerr != nil {
			if aerr.Status.Code == http.StatusNotFound {
				continue // deleted meanwhile
			}
			request.WriteError(w, req, aerr)
			return
		}
		// kube-apiserver answers with the objects it listed before
		// deleting them, as they were.
		deleted = append(deleted, o)
	}
	if aerr := out.Mismatch(); aerr != nil {
		request.WriteError(w, req, aerr)
		return
	}
	lm := metav1.ListMeta{ResourceVersion: strconv.FormatUint(s.store.CurrentRV(), 10)}
	bw := s.startBody(w, req, http.StatusOK, out.Format.ContentType(), -1)
	_ = s.writeList(bw, r.Res, out, deleted, lm)
	_ = bw.Close()
}

// gcSupported reports whether deletes of the resource take propagation
// policies (core Events do not: they have no dependents).
func gcSupported(r *object.Resource) bool {
	return !(r.Kind.Group == "" && r.Kind.Resource == "events")
}
