package fake

import (
	"errors"
	"fmt"
	"net/http"

	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/fake/internal/admission"
	"github.com/kubewire/kubewire/fake/internal/apierr"
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

// userHooks runs Options.Admission as one admission hook, in order: the
// hooks that match a write see one AdmissionRequest (a change one makes
// is what the next sees), and the object they leave is decoded back
// into the write.
type userHooks []AdmissionHook

func (hs userHooks) Mutate(a *admission.Attributes) *apierr.Error {
	res := a.Resource
	ri := request.Info{Verb: a.Verb, Group: res.Kind.Group, Resource: res.Kind.Resource, Subresource: a.Subresource, Namespace: a.Namespace, Name: a.Name, FieldManager: a.FieldManager, UserAgent: a.UserAgent}
	var ar *AdmissionRequest
	for i := range hs {
		h := &hs[i]
		if h.Admit == nil || !h.Match.matches(ri) {
			continue
		}
		if ar == nil {
			ar = &AdmissionRequest{Operation: a.Operation, Verb: a.Verb, Group: res.Kind.Group, Version: res.Kind.Version, Resource: res.Kind.Resource, Subresource: a.Subresource,
				Namespace: a.Namespace, Name: a.Name, DryRun: a.DryRun, FieldManager: a.FieldManager, UserAgent: a.UserAgent}
			var err error
			if ar.Object, ar.OldObject, err = a.ObjectMaps(); err != nil {
				return apierr.Internal(err)
			}
		}
		if err := h.Admit(ar); err != nil {
			return hookError(h.Name, err)
		}
	}
	if ar == nil || a.Object == nil {
		return nil
	}
	return a.ReplaceObject(ar.Object)
}

// Validate lets every write through: the hooks of Options.Admission
// run before validation only.
func (userHooks) Validate(*admission.Attributes) *apierr.Error { return nil }

// hookError is the answer to a write a hook refused or failed.
func hookError(name string, err error) *apierr.Error {
	var deny *AdmissionError
	if !errors.As(err, &deny) {
		return apierr.Internal(fmt.Errorf("failed calling webhook %q: %v", name, err))
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
