package fake

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/fake/internal/apierr"
	"github.com/kubewire/kubewire/fake/internal/object"
	"github.com/kubewire/kubewire/fake/internal/request"
)

// AdmissionHook stands for an admission webhook: it sees the writes its
// Match selects (creates, updates, patches, server-side applies and
// deletes through the API) after the built-in admission plugins and
// before validation, as kube-apiserver calls mutating webhooks, and may
// change the object or refuse the write.
type AdmissionHook struct {
	// Name is the webhook's name, quoted in refusals.
	Name string
	// Match selects the writes the hook sees (the zero Match: every
	// write). Its Verbs are request verbs (create, update, patch,
	// delete); a server-side apply is a patch.
	Match Match
	// Admit is called with the write. It may change req.Object (a
	// mutating webhook; changes are nobody's managed fields, as
	// kube-apiserver records them). It returns nil to let the write
	// through; an *AdmissionError to deny it, answered as kube-apiserver
	// answers a webhook's denial (`admission webhook "NAME" denied the
	// request: MESSAGE`); any other error to fail it as a webhook that
	// could not be called with failurePolicy Fail (500, `Internal error
	// occurred: failed calling webhook "NAME": ERROR`).
	//
	// Admit is called from many goroutines at once, while the server
	// holds the lock of its storage for updates, patches and deletes: it
	// must not call the server.
	Admit func(req *AdmissionRequest) error
}

// AdmissionRequest is a write an AdmissionHook sees.
type AdmissionRequest struct {
	// Operation is "CREATE", "UPDATE" or "DELETE".
	Operation string
	// Verb is the request's: create, update, patch or delete.
	Verb                                  string
	Group, Version, Resource, Subresource string
	Namespace, Name                       string
	// Object is the object about to be stored, as decoded JSON (nil for
	// DELETE). A mutating hook changes it in place.
	Object map[string]any
	// OldObject is the stored object (nil for CREATE).
	OldObject map[string]any
	// DryRun is set for dryRun=All requests.
	DryRun bool
	// FieldManager and UserAgent are the request's.
	FieldManager, UserAgent string
}

// AdmissionError is an AdmissionHook's denial of a write, as the
// Status a webhook answers with.
type AdmissionError struct {
	// Code is the HTTP status code; below 400 (and unset) it is 400, as
	// kube-apiserver makes it. Webhooks usually deny with 403.
	Code int
	// Reason is the Status's reason; unset it stays empty, as
	// kube-apiserver leaves it.
	Reason metav1.StatusReason
	// Message says why.
	Message string
}

func (e *AdmissionError) Error() string { return e.Message }

// hookCall is the request a write comes from, for the admission hooks.
type hookCall struct {
	r                       *request.Request
	verb                    string
	dry                     bool
	fieldManager, userAgent string
}

func newHookCall(r *request.Request, o request.WriteOptions) *hookCall {
	return &hookCall{r: r, verb: r.Verb, dry: o.DryRun, fieldManager: o.Manager, userAgent: o.UserAgent}
}

// runAdmissionHooks calls the hooks that match a write: d is the object
// to store (nil for a delete), old the stored one (nil for a create).
// Changes the hooks make are decoded back into d, keeping its system
// fields and managedFields.
func (s *Server) runAdmissionHooks(d, old *object.Draft, call *hookCall) *apierr.Error {
	if call == nil || len(s.opts.Admission) == 0 {
		return nil
	}
	res := call.r.Res
	name := call.r.Name
	if name == "" && d != nil {
		name = d.Meta.Name // a create names its object in the body
	}
	ri := request.Info{Verb: call.verb, Group: res.Kind.Group, Resource: res.Kind.Resource, Subresource: call.r.Subresource, Namespace: call.r.Namespace, Name: name, FieldManager: call.fieldManager, UserAgent: call.userAgent}
	op := "UPDATE"
	switch {
	case old == nil:
		op = "CREATE"
	case d == nil:
		op = "DELETE"
	}
	var ar *AdmissionRequest
	for i := range s.opts.Admission {
		h := &s.opts.Admission[i]
		if h.Admit == nil || !h.Match.matches(ri) {
			continue
		}
		if ar == nil {
			ar = &AdmissionRequest{Operation: op, Verb: call.verb, Group: res.Kind.Group, Version: res.Kind.Version, Resource: res.Kind.Resource, Subresource: call.r.Subresource,
				Namespace: call.r.Namespace, Name: name, DryRun: call.dry, FieldManager: call.fieldManager, UserAgent: call.userAgent}
			if d != nil {
				m, err := d.ToMap()
				if err != nil {
					return apierr.Internal(err)
				}
				ar.Object = m
			}
			if old != nil {
				m, err := old.ToMap()
				if err != nil {
					return apierr.Internal(err)
				}
				ar.OldObject = m
			}
		}
		if err := h.Admit(ar); err != nil {
			return hookError(h.Name, err)
		}
	}
	if ar == nil || d == nil {
		return nil
	}
	b, err := json.Marshal(ar.Object)
	if err != nil {
		return apierr.Internal(err)
	}
	next, _, err := res.DecodeJSON(b)
	if err != nil {
		return apierr.Internal(fmt.Errorf("admission webhook changed the object into one that does not decode: %w", err))
	}
	m := next.Meta
	m.UID, m.CreationTimestamp, m.DeletionTimestamp, m.DeletionGracePeriodSeconds = d.Meta.UID, d.Meta.CreationTimestamp, d.Meta.DeletionTimestamp, d.Meta.DeletionGracePeriodSeconds
	m.Generation, m.ResourceVersion, m.ManagedFields = d.Meta.Generation, d.Meta.ResourceVersion, d.Meta.ManagedFields
	m.Name, m.Namespace = d.Meta.Name, d.Meta.Namespace
	*d = *next
	return nil
}

// hookError is the answer to a write a hook refused or failed.
func hookError(name string, err error) *apierr.Error {
	var deny *AdmissionError
	if !errors.As(err, &deny) {
		msg := fmt.Sprintf("Internal error occurred: failed calling webhook %q: %v", name, err)
		e := apierr.New(http.StatusInternalServerError, "InternalError", msg, &metav1.StatusDetails{Causes: []metav1.StatusCause{{Message: msg}}})
		return e
	}
	code := deny.Code
	if code < http.StatusBadRequest {
		code = http.StatusBadRequest
	}
	msg := fmt.Sprintf("admission webhook %q denied the request without explanation", name)
	switch {
	case deny.Message != "":
		msg = fmt.Sprintf("admission webhook %q denied the request: %s", name, deny.Message)
	case deny.Reason != "":
		msg = fmt.Sprintf("admission webhook %q denied the request: %s", name, deny.Reason)
	}
	return apierr.New(code, deny.Reason, msg, nil)
}
