package fake

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"

	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/api/types"
	"github.com/kubewire/kubewire/codec"
)

// deleteOptions is the part of a DeleteOptions body the fake honours.
type deleteOptions struct {
	Preconditions *struct {
		UID             *string `json:"uid,omitempty"`
		ResourceVersion *string `json:"resourceVersion,omitempty"`
	} `json:"preconditions,omitempty"`
	DryRun []string `json:"dryRun,omitempty"`
	// OrphanDependents=false turns the 200 of a deferred deletion into
	// a 202, as kube-apiserver does for backward compatibility.
	OrphanDependents *bool `json:"orphanDependents,omitempty"`
}

func readDeleteOptions(req *http.Request) (*deleteOptions, *apiError) {
	body, aerr := readBody(req)
	if aerr != nil {
		return nil, aerr
	}
	o := &deleteOptions{}
	if len(body) == 0 {
		// Without a body, kube-apiserver reads DeleteOptions from the query.
		if v := req.URL.Query().Get("orphanDependents"); v != "" {
			b, err := strconv.ParseBool(v)
			if err != nil {
				return nil, errBadRequest(fmt.Sprintf("orphanDependents: invalid value %q", v))
			}
			o.OrphanDependents = &b
		}
		return o, nil
	}
	if mt, err := codec.ParseMediaType(req.Header.Get("Content-Type")); err == nil && mt.IsProtobuf() {
		return o, nil // protobuf DeleteOptions: preconditions are not read
	}
	if err := json.Unmarshal(body, o); err != nil {
		return nil, errBadRequest("DeleteOptions in version \"v1\" cannot be handled as a DeleteOptions: " + err.Error())
	}
	return o, nil
}

// deleteResult is the outcome of deleting one object.
type deleteResult struct {
	obj *storedObject // the deleted object, or the one finalizers hold
	// deferred is set when finalizers hold the object: it carries
	// metadata.deletionTimestamp and stays until they are removed.
	deferred bool
}

// deleteOne deletes (or, with finalizers, marks for deletion) one object.
func (s *Server) deleteOne(res *resource, key, name string, opts *deleteOptions, dry bool) (deleteResult, *apiError) {
	deferred := false
	o, typ, err := s.write(res, key, dry, func(cur *storedObject, rv uint64) (string, *storedObject, error) {
		if cur == nil {
			return "", nil, errNotFound(res, name)
		}
		if p := opts.Preconditions; p != nil {
			if p.UID != nil && *p.UID != cur.uid {
				return "", nil, newStatus(http.StatusConflict, "Conflict", fmt.Sprintf("Operation cannot be fulfilled on %s %q: Precondition failed: UID in precondition: %s, UID in object meta: %s", res.qualifiedResource(), name, *p.UID, cur.uid), res.details(name))
			}
			if p.ResourceVersion != nil && *p.ResourceVersion != strconv.FormatUint(cur.rv, 10) {
				return "", nil, newStatus(http.StatusConflict, "Conflict", fmt.Sprintf("Operation cannot be fulfilled on %s %q: Precondition failed: ResourceVersion in precondition: %s, ResourceVersion in object meta: %d", res.qualifiedResource(), name, *p.ResourceVersion, cur.rv), res.details(name))
			}
		}
		d, err := res.draftOf(cur)
		if err != nil {
			return "", nil, err
		}
		if res.isCRD() {
			deferred = true
			if cur.deleting {
				return "", nil, nil
			}
			s.markCRDDeleted(d)
			next, err := d.seal(rv)
			return eventModified, next, err
		}
		if cur.finalizers > 0 {
			deferred = true
			if cur.deleting {
				return "", nil, nil
			}
			now := s.nowTime()
			zero := int64(0)
			d.meta.DeletionTimestamp, d.meta.DeletionGracePeriodSeconds = &now, &zero
			if res.generation {
				d.meta.Generation++
			}
			next, err := d.seal(rv)
			return eventModified, next, err
		}
		next, err := d.seal(rv)
		return eventDeleted, next, err
	})
	if err != nil {
		return deleteResult{}, asAPIError(err)
	}
	_ = typ
	return deleteResult{obj: o, deferred: deferred}, nil
}

// writeDeleted answers a DELETE as kube-apiserver does (generic registry
// Store.Delete and the DELETE handler): a deletion that finalizers defer
// answers with the object, which carries deletionTimestamp; an immediate
// one answers with the object only for the resources whose registry sets
// ReturnDeletedObject, and with a Success Status naming the object (its
// details.kind is the resource, not the kind) for the others. The code is
// 200, or 202 for a deferred deletion with orphanDependents=false.
func (s *Server) writeDeleted(w http.ResponseWriter, req *http.Request, res *resource, d deleteResult, opts *deleteOptions, out output) {
	code := http.StatusOK
	if d.deferred && opts.OrphanDependents != nil && !*opts.OrphanDependents {
		code = http.StatusAccepted
	}
	if d.deferred || res.returnsDeleted {
		s.writeObject(w, req, code, d.obj, out)
		return
	}
	st := &metav1.Status{
		TypeMeta: metav1.TypeMeta{Kind: "Status", APIVersion: "v1"},
		Status:   "Success",
		Details:  &metav1.StatusDetails{Name: d.obj.name, Group: res.kind.Group, Kind: res.kind.Resource, UID: types.UID(d.obj.uid)},
	}
	s.writeBody(w, req, code, out.format.contentType(), encodeStatus(st, out.format))
}

func (s *Server) serveDelete(w http.ResponseWriter, req *http.Request, r *request) {
	if r.sub != "" {
		writeError(w, req, errMethodNotSupported(r.res, "delete"))
		return
	}
	out, aerr := s.negotiate(req, r.res, false, false)
	if aerr != nil {
		writeError(w, req, aerr)
		return
	}
	dry, opts, aerr := deleteParams(req)
	if aerr != nil {
		writeError(w, req, aerr)
		return
	}
	res, aerr := s.deleteOne(r.res, objectKey(r.ns, r.name), r.name, opts, dry)
	if aerr != nil {
		writeError(w, req, aerr)
		return
	}
	s.writeDeleted(w, req, r.res, res, opts, out)
}

func deleteParams(req *http.Request) (bool, *deleteOptions, *apiError) {
	dry, aerr := dryRun(req.URL.Query())
	if aerr != nil {
		return false, nil, aerr
	}
	opts, aerr := readDeleteOptions(req)
	if aerr != nil {
		return false, nil, aerr
	}
	for _, v := range opts.DryRun {
		if v == "All" {
			dry = true
		}
	}
	return dry, opts, nil
}

// serveDeleteCollection deletes every object the selectors match and
// answers with the list of deleted (or deleting) objects.
func (s *Server) serveDeleteCollection(w http.ResponseWriter, req *http.Request, r *request) {
	out, aerr := s.negotiate(req, r.res, true, false)
	if aerr != nil {
		writeError(w, req, aerr)
		return
	}
	opts, aerr := parseListOptions(req.URL.Query(), r.res, false)
	if aerr != nil {
		writeError(w, req, aerr)
		return
	}
	dry, dopts, aerr := deleteParams(req)
	if aerr != nil {
		writeError(w, req, aerr)
		return
	}
	snap, _, _ := s.store.snapshot(r.res, 0)
	lo, hi := namespaceRange(snap, r.ns)
	var deleted []*storedObject
	for _, o := range snap[lo:hi] {
		if !opts.matches(o) {
			continue
		}
		res, aerr := s.deleteOne(r.res, o.key, o.name, dopts, dry)
		if aerr != nil {
			if aerr.status.Code == http.StatusNotFound {
				continue // deleted meanwhile
			}
			writeError(w, req, aerr)
			return
		}
		deleted = append(deleted, res.obj)
	}
	lm := metav1.ListMeta{ResourceVersion: strconv.FormatUint(s.store.currentRV(), 10)}
	bw := s.startBody(w, req, http.StatusOK, out.format.contentType(), -1)
	_ = s.writeList(bw, r.res, out, deleted, lm)
	_ = bw.Close()
}
