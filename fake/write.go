package fake

import (
	"crypto/rand"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"

	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/api/types"
)

func newUID() types.UID {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return types.UID(fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16]))
}

// randomSuffix is generateName's five random characters, from the same
// alphabet kube-apiserver uses (no vowels, no confusable digits).
func randomSuffix() string {
	const alphabet = "bcdfghjklmnpqrstvwxz2456789"
	var b [5]byte
	_, _ = rand.Read(b[:])
	for i := range b {
		b[i] = alphabet[int(b[i])%len(alphabet)]
	}
	return string(b[:])
}

func (s *Server) nowTime() metav1.Time {
	return metav1.NewTime(s.now().UTC().Truncate(1e9))
}

// writeResult is what a write answers with.
type writeResult struct {
	obj  *storedObject
	code int
}

// create stores a new object from d, in namespace ns (the path's).
// Creates through the API (call set) run the admission plugins and
// hooks; Server.Add does not.
func (s *Server) create(d *draft, ns string, dry bool, call *hookCall) (writeResult, *apiError) {
	r := d.res
	if r.kind.Namespaced {
		if d.meta.Namespace != "" && d.meta.Namespace != ns {
			return writeResult{}, errBadRequest("the namespace of the provided object does not match the namespace sent on the request")
		}
		d.meta.Namespace = ns
	} else {
		d.meta.Namespace = ""
	}
	if d.meta.Name == "" && d.meta.GenerateName != "" {
		d.meta.Name = d.meta.GenerateName + randomSuffix()
	}
	if aerr := d.validateName(); aerr != nil {
		return writeResult{}, aerr
	}
	view := storeView{st: s.store}
	if aerr := s.admitNew(d, call, view); aerr != nil {
		return writeResult{}, aerr
	}
	if aerr := s.validate(d, nil); aerr != nil {
		return writeResult{}, aerr
	}
	key := objectKey(d.meta.Namespace, d.meta.Name)
	o, _, err := s.write(r, key, dry, func(cur *storedObject, rv uint64) (string, *storedObject, error) {
		if cur != nil {
			e := errAlreadyExists(r, d.meta.Name)
			if cur.deleting {
				// kube-apiserver's storage says why the name is taken.
				e.status.Message = "object is being deleted: " + e.status.Message
			}
			return "", nil, e
		}
		if dry {
			// kube-apiserver answers a dry-run create without a
			// resource version or managedFields.
			d.meta.ManagedFields = nil
			rv = 0
		}
		next, err := d.seal(rv)
		if err != nil {
			return "", nil, err
		}
		return eventAdded, next, nil
	})
	if err != nil {
		return writeResult{}, asAPIError(err)
	}
	return writeResult{obj: o, code: http.StatusCreated}, nil
}

// admitNew runs what a create runs between the field manager and
// validation, in kube-apiserver's order: the namespace must exist (404)
// and not be terminating (403, for creates through the API), the
// built-in admission plugins (API creates only), the system fields, and
// the registry's preparation.
func (s *Server) admitNew(d *draft, call *hookCall, view storeView) *apiError {
	r := d.res
	if r.kind.Namespaced {
		nsObj := view.get(s.lookup("", "v1", "namespaces"), d.meta.Namespace)
		if nsObj == nil {
			return errNamespaceNotFound(d.meta.Namespace)
		}
		if nsObj.deleting && call != nil {
			e := errForbidden(r, d.meta.Name, fmt.Sprintf("unable to create new content in namespace %s because it is being terminated", d.meta.Namespace))
			e.status.Details.Causes = append(e.status.Details.Causes, metav1.StatusCause{Type: "NamespaceTerminating", Message: fmt.Sprintf("namespace %s is being terminated", d.meta.Namespace), Field: "metadata.namespace"})
			return e
		}
	}
	if call != nil {
		if aerr := s.admitCreate(d, view); aerr != nil {
			return aerr
		}
		if aerr := s.runAdmissionHooks(d, nil, call); aerr != nil {
			return aerr
		}
	}
	d.meta.UID = newUID()
	d.meta.CreationTimestamp = s.nowTime()
	d.meta.DeletionTimestamp, d.meta.DeletionGracePeriodSeconds = nil, nil
	d.meta.SelfLink = ""
	if r.generation {
		d.meta.Generation = 1
	} else {
		d.meta.Generation = 0
	}
	s.prepareCreate(d, call != nil)
	return nil
}

func asAPIError(err error) *apiError {
	if ae, ok := err.(*apiError); ok {
		return ae
	}
	return errInternal(err)
}

func (s *Server) namespaceExists(ns string) bool {
	nsRes := s.lookup("", "v1", "namespaces")
	return nsRes != nil && s.store.get(nsRes, ns) != nil
}

// createNamespace creates a namespace directly (server start).
func (s *Server) createNamespace(name string) error {
	r := s.lookup("", "v1", "namespaces")
	d, _, err := r.decodeJSONDraft([]byte(`{"metadata":{"name":` + quote(name) + `},"spec":{"finalizers":["kubernetes"]},"status":{"phase":"Active"}}`))
	if err != nil {
		return err
	}
	d.meta.Labels = map[string]string{"kubernetes.io/metadata.name": name}
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
func (s *Server) update(d *draft, r *request, o writeOpts) (writeResult, *apiError) {
	res := d.res
	if d.meta.Name == "" {
		d.meta.Name = r.name
	}
	if d.meta.Name != r.name {
		return writeResult{}, errBadRequest(fmt.Sprintf("the name of the object (%s) does not match the name on the URL (%s)", d.meta.Name, r.name))
	}
	if res.kind.Namespaced {
		if d.meta.Namespace != "" && d.meta.Namespace != r.ns {
			return writeResult{}, errBadRequest("the namespace of the provided object does not match the namespace sent on the request")
		}
		d.meta.Namespace = r.ns
	} else {
		d.meta.Namespace = ""
	}
	code := http.StatusOK
	sent := d.meta.ManagedFields
	obj, typ, err := s.write(res, objectKey(r.ns, r.name), o.dry, func(cur *storedObject, rv uint64) (string, *storedObject, error) {
		if cur == nil {
			return "", nil, errNotFound(res, r.name)
		}
		if d.meta.ResourceVersion == "" && res.custom {
			// Custom resources allow no unconditional update.
			return "", nil, errInvalid(res.kind.Group, res.kind.Resource, r.name, fieldCause{typ: "FieldValueInvalid", field: "metadata.resourceVersion", msg: "Invalid value: 0: must be specified for an update"})
		}
		if d.meta.ResourceVersion != "" && d.meta.ResourceVersion != fmt.Sprint(cur.rv) {
			return "", nil, errConflict(res, r.name)
		}
		old, err := res.draftOf(cur)
		if err != nil {
			return "", nil, err
		}
		next, err := s.mergeUpdate(old, d, r.sub == "status")
		if err != nil {
			return "", nil, err
		}
		if aerr := s.runAdmissionHooks(next, old, newHookCall(r, o)); aerr != nil {
			return "", nil, aerr
		}
		if aerr := s.validate(next, old); aerr != nil {
			return "", nil, aerr
		}
		if err := s.recordUpdate(s.endpoint(res, r.sub), old, sent, next, o.manager); err != nil {
			return "", nil, err
		}
		return s.commitChange(cur, old, next, rv)
	})
	if err != nil {
		return writeResult{}, asAPIError(err)
	}
	if typ == eventDeleted {
		code = http.StatusOK
	}
	return writeResult{obj: obj, code: code}, nil
}

// mergeUpdate returns the object an update of old with d stores: system
// metadata is kept from old, and .status (or everything but .status, for
// the status subresource) follows the subresource rules.
func (s *Server) mergeUpdate(old, d *draft, statusOnly bool) (*draft, error) {
	res := d.res
	if res.status {
		if statusOnly {
			st, err := d.statusValue()
			if err != nil {
				return nil, err
			}
			d, err = withStatus(old, st)
			if err != nil {
				return nil, err
			}
		} else {
			st, err := old.statusValue()
			if err != nil {
				return nil, err
			}
			if d, err = withStatus(d, st); err != nil {
				return nil, err
			}
		}
	}
	if !statusOnly {
		s.prepareUpdate(old, d)
	}
	if d.meta.UID != "" && d.meta.UID != old.meta.UID {
		return nil, errInvalid(res.kind.Group, res.kind.Kind, d.meta.Name, invalidCause("metadata.uid", string(d.meta.UID), "field is immutable"))
	}
	d.meta.UID = old.meta.UID
	d.meta.CreationTimestamp = old.meta.CreationTimestamp
	d.meta.DeletionTimestamp = old.meta.DeletionTimestamp
	d.meta.DeletionGracePeriodSeconds = old.meta.DeletionGracePeriodSeconds
	d.meta.Generation = old.meta.Generation
	d.meta.SelfLink = ""
	if res.generation && !statusOnly && (!specEqual(old, d) || res.annotationsInGeneration && !maps.Equal(old.meta.Annotations, d.meta.Annotations)) {
		d.meta.Generation++
	}
	return d, nil
}

// withStatus returns a copy of d with .status replaced by st.
func withStatus(d *draft, st any) (*draft, error) {
	m, err := d.toMap()
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
	out, _, err := d.res.decodeJSONDraft(b)
	if err != nil {
		return nil, err
	}
	out.meta.ResourceVersion = d.meta.ResourceVersion
	return out, nil
}

// commitChange seals next as the successor of cur: no change keeps cur,
// and a deleting object whose last finalizer is gone is deleted.
func (s *Server) commitChange(cur *storedObject, old, next *draft, rv uint64) (string, *storedObject, error) {
	same, err := next.seal(cur.rv)
	if err != nil {
		return "", nil, err
	}
	if string(same.json) == string(cur.json) {
		return "", nil, nil
	}
	sealed, err := next.seal(rv)
	if err != nil {
		return "", nil, err
	}
	if sealed.deleting && len(sealed.finalizers) == 0 && !sealed.graceful() && (sealed.res.kind.Kind != "Namespace" || namespaceGone(next)) {
		return eventDeleted, sealed, nil
	}
	return eventModified, sealed, nil
}

func (s *Server) serveCreate(w http.ResponseWriter, req *http.Request, r *request) {
	if r.sub != "" {
		writeError(w, req, errMethodNotSupported(r.res, "create"))
		return
	}
	s.serveWrite(w, req, r, createOptions, func(d *draft, o writeOpts) (writeResult, *apiError) {
		if err := s.recordUpdate(s.endpoint(r.res, ""), nil, d.meta.ManagedFields, d, o.manager); err != nil {
			return writeResult{}, errInternal(err)
		}
		return s.create(d, r.ns, o.dry, newHookCall(r, o))
	})
}

func (s *Server) serveUpdate(w http.ResponseWriter, req *http.Request, r *request) {
	s.serveWrite(w, req, r, updateOptions, func(d *draft, o writeOpts) (writeResult, *apiError) { return s.update(d, r, o) })
}

// serveWrite runs a create or update from the request body, checking
// what kube-apiserver checks in its order: the answer's media type
// (406), the body's (415), the options (422), then the body (400).
func (s *Server) serveWrite(w http.ResponseWriter, req *http.Request, r *request, optionsKind string, do func(*draft, writeOpts) (writeResult, *apiError)) {
	out, aerr := s.negotiate(req, r.res, false, false)
	if aerr != nil {
		writeError(w, req, aerr)
		return
	}
	mt, aerr := s.bodyType(req, r.res)
	if aerr != nil {
		writeError(w, req, aerr)
		return
	}
	body, aerr := readBody(req)
	if aerr != nil {
		writeError(w, req, aerr)
		return
	}
	o, aerr := parseWriteOptions(req, optionsKind, false)
	if aerr != nil {
		writeError(w, req, aerr)
		return
	}
	o.out = out
	d, aerr := s.decodeDraft(w, body, mt, r.res, o.level)
	if aerr != nil {
		writeError(w, req, aerr)
		return
	}
	res, aerr := do(d, o)
	if aerr != nil {
		writeError(w, req, aerr)
		return
	}
	s.writeObject(w, req, res.code, res.obj, out)
}
