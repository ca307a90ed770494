package fake

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"strconv"
	"strings"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/fake/internal/admission"
	"github.com/kubewire/kubewire/fake/internal/admission/validation"
	"github.com/kubewire/kubewire/fake/internal/apierr"
	"github.com/kubewire/kubewire/fake/internal/managedfields"
	"github.com/kubewire/kubewire/fake/internal/object"
	"github.com/kubewire/kubewire/fake/internal/request"
	"github.com/kubewire/kubewire/fake/internal/storage"
)

func (s *Server) nowTime() metav1.Time {
	return metav1.NewTime(s.now().UTC().Truncate(1e9))
}

// writeResult is what a write answers with.
type writeResult struct {
	obj  *object.Stored
	code int
}

// create stores a new object from d, in namespace ns (the path's).
// Creates through the API (call set) run the admission plugins and
// hooks; Server.Add does not.
func (s *Server) create(d *object.Draft, ns string, dry bool, call *admission.Request) (writeResult, *apierr.Error) {
	r := d.Res
	if r.Kind.Namespaced {
		if d.Meta.Namespace != "" && d.Meta.Namespace != ns {
			return writeResult{}, apierr.BadRequest("the namespace of the provided object does not match the namespace sent on the request")
		}
		d.Meta.Namespace = ns
	} else {
		d.Meta.Namespace = ""
	}
	if d.Meta.Name == "" && d.Meta.GenerateName != "" {
		d.Meta.Name = generatedName(d.Meta.GenerateName)
		if r.Kind.Group == "" && r.Kind.Kind == "Namespace" {
			// the name label the defaults set on a named namespace
			d.Meta.Labels = maps.Clone(d.Meta.Labels)
			if d.Meta.Labels == nil {
				d.Meta.Labels = map[string]string{}
			}
			d.Meta.Labels["kubernetes.io/metadata.name"] = d.Meta.Name
		}
	}
	if aerr := validation.Name(d); aerr != nil {
		return writeResult{}, aerr
	}
	view := storage.View{Store: s.store}
	if aerr := s.admission.AdmitCreate(d, call, view); aerr != nil {
		return writeResult{}, aerr
	}
	if aerr := s.admission.Validate(d, nil, call); aerr != nil {
		return writeResult{}, aerr
	}
	key := object.Key(d.Meta.Namespace, d.Meta.Name)
	// kube-apiserver's storage refuses a create that carries a resource
	// version (one that parses as a number other than 0), before it looks
	// for the name; a dry run never reaches storage and answers the
	// version it was given.
	givenRV, _ := strconv.ParseUint(d.Meta.ResourceVersion, 10, 64)
	o, _, err := s.write(r, key, dry, func(cur *object.Stored, rv uint64) (string, *object.Stored, error) {
		if call != nil && givenRV != 0 && !dry {
			return "", nil, apierr.InternalMessage("resourceVersion should not be set on objects to be created")
		}
		if cur != nil {
			e := apierr.AlreadyExists(r.Kind, d.Meta.Name)
			if cur.Deleting {
				// kube-apiserver's storage says why the name is taken.
				e.Status.Message = "object is being deleted: " + e.Status.Message
			}
			return "", nil, e
		}
		if dry {
			// kube-apiserver answers a dry-run create without a
			// resource version but the one it was given; managedFields
			// are kept.
			rv = 0
			if call != nil {
				rv = givenRV
			}
		}
		next, err := d.Seal(rv)
		if err != nil {
			return "", nil, err
		}
		return storage.Added, next, nil
	})
	if err != nil {
		return writeResult{}, apierr.From(err)
	}
	return writeResult{obj: o, code: http.StatusCreated}, nil
}

func (s *Server) namespaceExists(ns string) bool {
	nsRes := s.lookup("", "v1", "namespaces")
	return nsRes != nil && s.store.Get(nsRes, ns) != nil
}

// createNamespace creates a namespace directly (server start).
func (s *Server) createNamespace(name string) error {
	r := s.lookup("", "v1", "namespaces")
	d, _, err := r.DecodeJSON([]byte(`{"metadata":{"name":` + quote(name) + `},"spec":{"finalizers":["kubernetes"]},"status":{"phase":"Active"}}`))
	if err != nil {
		return err
	}
	d.Meta.Labels = map[string]string{"kubernetes.io/metadata.name": name}
	// kube-apiserver's own write, recorded as its update of the label
	// alone (the spec and status are its defaults).
	written, _, err := r.DecodeJSON([]byte(`{"metadata":{"name":` + quote(name) + `}}`))
	if err != nil {
		return err
	}
	written.Meta.Labels = d.Meta.Labels
	if err := managedfields.RecordUpdate(s.endpoint(r, ""), nil, nil, written, "kube-apiserver"); err != nil {
		return err
	}
	d.Meta.ManagedFields = written.Meta.ManagedFields
	if _, aerr := s.create(d, "", false, nil); aerr != nil {
		return aerr
	}
	return nil
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// update replaces an object with d. For the status subresource only
// .status changes; for the main resource of a kind with a status
// subresource .status is kept. A stale metadata.resourceVersion is a 409.
// An update that changes nothing keeps the resource version.
func (s *Server) update(d *object.Draft, r *request.Request, o request.WriteOptions) (writeResult, *apierr.Error) {
	res := d.Res
	if res.Kind.Namespaced {
		if d.Meta.Namespace != "" && d.Meta.Namespace != r.Namespace {
			return writeResult{}, apierr.BadRequest("the namespace of the provided object does not match the namespace sent on the request")
		}
		d.Meta.Namespace = r.Namespace
	} else {
		d.Meta.Namespace = ""
	}
	if aerr := checkURLName(d.Meta.Name, r.Name); aerr != nil {
		return writeResult{}, aerr
	}
	if wr, aerr, created := s.createByUpdate(d, r, o); created {
		return wr, aerr
	}
	code := http.StatusOK
	sent := d.Meta.ManagedFields
	var storedRV uint64
	var deletedAs *object.Draft // what a write that deleted the object wrote
	obj, typ, err := s.write(res, object.Key(r.Namespace, r.Name), o.DryRun, func(cur *object.Stored, rv uint64) (string, *object.Stored, error) {
		if cur != nil {
			storedRV = cur.RV
		}
		if cur == nil && d.Meta.UID != "" && updateMayCreate(res, r.Subresource) {
			// Where an update may create, the storage checks the uid
			// precondition against an empty object before the update
			// finds it missing.
			return "", nil, uidPreconditionFailed(res, &object.Stored{Namespace: r.Namespace, Name: r.Name}, string(d.Meta.UID), o.DryRun)
		}
		if cur == nil {
			return "", nil, apierr.NotFound(res.Kind, r.Name)
		}
		if d.Meta.UID != "" && string(d.Meta.UID) != cur.UID {
			// The uid an update names is a precondition of its write.
			return "", nil, uidPreconditionFailed(res, cur, string(d.Meta.UID), o.DryRun)
		}
		sentRV, aerr := writtenResourceVersion(d.Meta.ResourceVersion)
		if aerr != nil {
			return "", nil, aerr
		}
		if sentRV == 0 && needsResourceVersion(res, r.Subresource) {
			// Custom resources, and some built-in kinds, allow no
			// unconditional update.
			return "", nil, apierr.Invalid(res.Kind.Group, res.Kind.Resource, r.Name, apierr.Cause{Type: "FieldValueInvalid", Field: "metadata.resourceVersion", Message: "Invalid value: 0: must be specified for an update"})
		}
		if sentRV != 0 && sentRV != cur.RV {
			return "", nil, apierr.Conflict(res.Kind, r.Name)
		}
		old, err := res.DraftOf(cur)
		if err != nil {
			return "", nil, err
		}
		narrowed, err := prepareSubresourceUpdate(r.Subresource, old, d)
		if err != nil {
			return "", nil, err
		}
		ep, err := s.writeEndpoint(res, r.Subresource, narrowed)
		if err != nil {
			return "", nil, err
		}
		next, err := s.mergeUpdate(old, narrowed, r.Subresource == "status")
		if err != nil {
			return "", nil, err
		}
		call := admission.NewRequest(r, r.Verb, o.DryRun, o.Manager, o.UserAgent)
		if aerr := s.admission.Mutate(next, old, call); aerr != nil {
			return "", nil, aerr
		}
		if managedfields.IsReset(sent) {
			next.Meta.ManagedFields = nil // (recorded below from sent)
		}
		if aerr := s.admission.Validate(next, old, call); aerr != nil {
			return "", nil, aerr
		}
		if err := managedfields.RecordUpdate(ep, old, sent, next, o.Manager); err != nil {
			return "", nil, err
		}
		return s.commitWrite(cur, old, next, rv, &deletedAs)
	})
	if err != nil {
		return writeResult{}, apierr.From(err)
	}
	if typ == storage.Deleted {
		code = http.StatusOK
		if obj, err = deletedAs.Seal(storedRV); err != nil {
			return writeResult{}, apierr.Internal(err)
		}
	}
	return writeResult{obj: obj, code: code}, nil
}

// mergeUpdate returns the object an update of old with d stores: system
// metadata is kept from old, and .status (or everything but .status, for
// the status subresource) follows the subresource rules.
func (s *Server) mergeUpdate(old, d *object.Draft, statusOnly bool) (*object.Draft, error) {
	res := d.Res
	if res.Status {
		if statusOnly {
			st, err := d.StatusValue()
			if err != nil {
				return nil, err
			}
			sent := d.Meta
			d, err = withStatus(old, st)
			if err != nil {
				return nil, err
			}
			takeStatusWriteMeta(res, d.Meta, sent)
			keepPodQOSClass(old, d)
		} else {
			st, err := old.StatusValue()
			if err != nil {
				return nil, err
			}
			if d, err = withStatus(d, st); err != nil {
				return nil, err
			}
		}
	}
	if !statusOnly {
		s.admission.Strategy.PrepareUpdate(old, d)
	}
	// The system fields the client did not set are the stored object's,
	// as kube-apiserver's update keeps them; those it changed are
	// refused by validation (a uid it changed, on an update, by the
	// storage's precondition first: see update).
	if d.Meta.UID == "" {
		d.Meta.UID = old.Meta.UID
	}
	if !old.Meta.CreationTimestamp.IsZero() {
		d.Meta.CreationTimestamp = old.Meta.CreationTimestamp
	}
	if old.Meta.DeletionTimestamp != nil {
		d.Meta.DeletionTimestamp = old.Meta.DeletionTimestamp
	}
	if old.Meta.DeletionGracePeriodSeconds != nil && d.Meta.DeletionGracePeriodSeconds == nil {
		d.Meta.DeletionGracePeriodSeconds = old.Meta.DeletionGracePeriodSeconds
	}
	d.Meta.Generation = old.Meta.Generation
	d.Meta.SelfLink = ""
	if res.Generation && !statusOnly && (!object.SpecEqual(old, d) || res.AnnotationsInGeneration && !maps.Equal(old.Meta.Annotations, d.Meta.Annotations) ||
		res.LabelsInGeneration && !maps.Equal(old.Meta.Labels, d.Meta.Labels)) {
		d.Meta.Generation++
	}
	return d, nil
}

// withStatus returns a copy of d with .status replaced by st.
func withStatus(d *object.Draft, st any) (*object.Draft, error) {
	m, err := d.ToMap()
	if err != nil {
		return nil, err
	}
	if st == nil {
		delete(m, "status")
	} else {
		m["status"] = st
	}
	b, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	out, _, err := d.Res.DecodeJSON(b)
	if err != nil {
		return nil, err
	}
	out.Meta.ResourceVersion = d.Meta.ResourceVersion
	return out, nil
}

// commitWrite is commitChange for an update or patch: when the write
// deletes the object (it took off the last finalizer), the store's
// DELETED event carries the object as last stored, finalizers and all
// (etcd's previous value, as kube-apiserver's watch sends it), at the
// deletion's version, and *answer gets what the request wrote, which is
// what kube-apiserver answers (at the version last stored).
func (s *Server) commitWrite(cur *object.Stored, old, next *object.Draft, rv uint64, answer **object.Draft) (string, *object.Stored, error) {
	typ, obj, err := s.commitChange(cur, old, next, rv)
	if err != nil || typ != storage.Deleted {
		return typ, obj, err
	}
	*answer = next
	gone, err := cur.Res.DraftOf(cur)
	if err != nil {
		return "", nil, err
	}
	obj, err = gone.Seal(rv)
	return typ, obj, err
}

// commitChange seals next as the successor of cur: no change keeps cur,
// and a deleting object whose last finalizer is gone is deleted.
func (s *Server) commitChange(cur *object.Stored, old, next *object.Draft, rv uint64) (string, *object.Stored, error) {
	same, err := next.Seal(cur.RV)
	if err != nil {
		return "", nil, err
	}
	if string(same.JSON) == string(cur.JSON) {
		return "", nil, nil
	}
	sealed, err := next.Seal(rv)
	if err != nil {
		return "", nil, err
	}
	if sealed.Deleting && len(sealed.Finalizers) == 0 && !sealed.Graceful() && (sealed.Res.Kind.Kind != "Namespace" || namespaceGone(next)) {
		return storage.Deleted, sealed, nil
	}
	return storage.Modified, sealed, nil
}

func (s *Server) serveCreate(w http.ResponseWriter, req *http.Request, r *request.Request) {
	if r.Subresource != "" {
		request.WriteError(w, req, apierr.MethodNotSupported(r.Res.Kind, "create"))
		return
	}
	s.serveWrite(w, req, r, request.CreateOptions, func(d *object.Draft, o request.WriteOptions) (writeResult, *apierr.Error) {
		wipeSystemFields(d.Meta)
		if err := managedfields.RecordUpdate(s.endpoint(r.Res, ""), nil, d.Meta.ManagedFields, d, o.Manager); err != nil {
			return writeResult{}, apierr.Internal(err)
		}
		return s.create(d, r.Namespace, o.DryRun, admission.NewRequest(r, r.Verb, o.DryRun, o.Manager, o.UserAgent))
	})
}

func (s *Server) serveUpdate(w http.ResponseWriter, req *http.Request, r *request.Request) {
	s.serveWrite(w, req, r, request.UpdateOptions, func(d *object.Draft, o request.WriteOptions) (writeResult, *apierr.Error) { return s.update(d, r, o) })
}

// serveWrite runs a create or update from the request body, checking
// what kube-apiserver checks in its order: the answer's media type
// (406), the body's (415), the options (422), then the body (400).
func (s *Server) serveWrite(w http.ResponseWriter, req *http.Request, r *request.Request, optionsKind string, do func(*object.Draft, request.WriteOptions) (writeResult, *apierr.Error)) {
	out, aerr := s.negotiate(req, r.Res, false, false)
	if aerr != nil {
		request.WriteError(w, req, aerr)
		return
	}
	mt, aerr := s.bodyType(req, r.Res)
	if aerr != nil {
		request.WriteError(w, req, aerr)
		return
	}
	body, aerr := request.ReadBody(req)
	if aerr != nil {
		request.WriteError(w, req, aerr)
		return
	}
	o, aerr := request.ParseWriteOptions(req, optionsKind, false)
	if aerr != nil {
		request.WriteError(w, req, aerr)
		return
	}
	o.Out = out
	d, aerr := s.decodeDraft(w, body, mt, r.Res, o.Level)
	if aerr != nil {
		request.WriteError(w, req, aerr)
		return
	}
	res, aerr := do(d, o)
	if aerr != nil {
		request.WriteError(w, req, aerr)
		return
	}
	s.writeObject(w, req, res.code, res.obj, out)
}

// namespaceGone reports whether a namespace being deleted has nothing
// left holding it: no finalizer in its spec nor its metadata.
func namespaceGone(d *object.Draft) bool {
	ns, ok := d.Typed.(*corev1.Namespace)
	return ok && ns.DeletionTimestamp != nil && len(ns.Spec.Finalizers) == 0 && len(ns.Finalizers) == 0
}

// uidPreconditionFailed is the 409 of an update naming another uid than
// the stored object's, as kube-apiserver's storage words it: the object's
// key in etcd and the failed precondition. A dry run's storage checks the
// precondition itself, with the key its registry asked for: without the
// "/registry" prefix etcd's storage adds.
func uidPreconditionFailed(res *object.Resource, cur *object.Stored, uid string, dryRun bool) *apierr.Error {
	key := etcdKey(res, cur.Namespace, cur.Name)
	if dryRun {
		key = strings.TrimPrefix(key, "/registry")
	}
	msg := fmt.Sprintf("StorageError: invalid object, Code: 4, Key: %s, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: %s, UID in object meta: %s", key, uid, cur.UID)
	return apierr.New(http.StatusConflict, "Conflict", fmt.Sprintf("Operation cannot be fulfilled on %s %q: %s", apierr.QualifiedResource(res.Kind), cur.Name, msg), apierr.Details(res.Kind, cur.Name))
}

// etcdKey is where kube-apiserver keeps an object in etcd: its
// resource's prefix (some built-in ones have names of their own), the
// namespace and the name.
func etcdKey(res *object.Resource, ns, name string) string {
	prefix := res.Kind.Resource
	switch {
	case res.Custom:
		prefix = res.Kind.Group + "/" + res.Kind.Resource
	case res.Kind.Group == "" && res.Kind.Resource == "replicationcontrollers":
		prefix = "controllers"
	case res.Kind.Group == "" && res.Kind.Resource == "endpoints":
		prefix = "services/endpoints"
	case res.Kind.Group == "" && res.Kind.Resource == "nodes":
		prefix = "minions"
	case res.Kind.Group == "" && res.Kind.Resource == "services":
		prefix = "services/specs"
	case res.Kind.Resource == "ingresses":
		prefix = "ingress"
	}
	if ns == "" {
		return "/registry/" + prefix + "/" + name
	}
	return "/registry/" + prefix + "/" + ns + "/" + name
}
