package admission

import (
	"encoding/json"
	"fmt"

	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/fake/internal/admission/strategy"
	"github.com/kubewire/kubewire/fake/internal/admission/validation"
	"github.com/kubewire/kubewire/fake/internal/apierr"
	"github.com/kubewire/kubewire/fake/internal/object"
	"github.com/kubewire/kubewire/fake/internal/request"
	"github.com/kubewire/kubewire/fake/internal/storage"
)

// Chain is the admission a write goes through, in kube-apiserver's
// order. A create (AdmitCreate) checks the namespace lifecycle, runs the
// built-in mutating plugins and the mutating hooks (writes through the
// API only), sets the system fields and runs the kind's registry
// strategy; an update runs the strategy (Strategy.PrepareUpdate, from
// the pipeline's merge of the update) and then the mutating hooks
// (Mutate). Every write is then validated per kind and, through the
// API, by the validating hooks (Validate). A delete runs the mutating
// hooks with the object it deletes.
//
// Hooks are the place for external admission: Options.Admission and
// admission webhooks. A hook that needs the object at another version
// (a webhook registered for one version of a multi-version custom
// resource) converts Attributes.Object and converts its answer back
// before ReplaceObject; nothing else in the pipeline changes.
type Chain struct {
	// Lookup finds a served resource (the plugins read namespaces,
	// service accounts, priority and storage classes).
	Lookup func(group, version, resource string) *object.Resource
	// Hooks are the external admission steps, called in order.
	Hooks     []Hook
	Validator *validation.Validator
	Strategy  *strategy.Strategy
	// Now is the clock of creation timestamps.
	Now func() metav1.Time
}

// Hook is an external admission step, such as a webhook.
type Hook interface {
	// Mutate sees a write before validation and may change its object
	// (Attributes.ReplaceObject); an error refuses the write.
	Mutate(a *Attributes) *apierr.Error
	// Validate sees a validated write and may only refuse it.
	Validate(a *Attributes) *apierr.Error
}

// Request is the API request a write comes from; nil for the
// server's own writes (Server.Add, the controllers), which admission
// does not see.
type Request struct {
	Verb                    string
	Resource                *object.Resource
	Subresource             string
	Namespace, Name         string
	DryRun                  bool
	FieldManager, UserAgent string
	// Warn, when set, adds a Warning header to the response (a
	// webhook's warnings).
	Warn func(msg string)
}

// NewRequest is the admission view of a routed write.
func NewRequest(r *request.Request, verb string, dry bool, manager, agent string) *Request {
	return &Request{Verb: verb, Resource: r.Res, Subresource: r.Subresource, Namespace: r.Namespace, Name: r.Name, DryRun: dry, FieldManager: manager, UserAgent: agent, Warn: r.Warn}
}

// Attributes are one write as admission sees it.
type Attributes struct {
	Request
	Operation string        // CREATE, UPDATE or DELETE
	Object    *object.Draft // to store; nil for DELETE
	oldObject *object.Draft // stored; nil for CREATE
}

func newAttributes(call *Request, d, old *object.Draft) *Attributes {
	a := &Attributes{Request: *call, Object: d, oldObject: old, Operation: "UPDATE"}
	switch {
	case old == nil:
		a.Operation = "CREATE"
	case d == nil:
		a.Operation = "DELETE"
	}
	if a.Name == "" && d != nil {
		a.Name = d.Meta.Name // a create names its object in the body
	}
	return a
}

// ObjectMaps returns the object and the old object as decoded JSON (nil
// when absent).
func (a *Attributes) ObjectMaps() (obj, old map[string]any, err error) {
	if a.Object != nil {
		if obj, err = a.Object.ToMap(); err != nil {
			return nil, nil, err
		}
	}
	if a.oldObject != nil {
		if old, err = a.oldObject.ToMap(); err != nil {
			return nil, nil, err
		}
	}
	return obj, old, nil
}

// ObjectLabels returns the labels of the object and of the old object.
func (a *Attributes) ObjectLabels() (obj, old map[string]string) {
	if a.Object != nil {
		obj = a.Object.Meta.Labels
	}
	if a.oldObject != nil {
		old = a.oldObject.Meta.Labels
	}
	return obj, old
}

// ReplaceObject replaces the write's object with m, as a mutating hook
// changed it, keeping the system fields and managedFields it had.
func (a *Attributes) ReplaceObject(m map[string]any) *apierr.Error {
	d := a.Object
	b, err := json.Marshal(m)
	if err != nil {
		return apierr.Internal(err)
	}
	next, _, err := d.Res.DecodeJSON(b)
	if err != nil {
		return apierr.Internal(fmt.Errorf("admission webhook changed the object into one that does not decode: %w", err))
	}
	nm := next.Meta
	nm.UID, nm.CreationTimestamp, nm.DeletionTimestamp, nm.DeletionGracePeriodSeconds = d.Meta.UID, d.Meta.CreationTimestamp, d.Meta.DeletionTimestamp, d.Meta.DeletionGracePeriodSeconds
	nm.Generation, nm.ResourceVersion, nm.ManagedFields = d.Meta.Generation, d.Meta.ResourceVersion, d.Meta.ManagedFields
	nm.Name, nm.Namespace = d.Meta.Name, d.Meta.Namespace
	*d = *next
	return nil
}

// Mutate runs the mutating hooks on a write through the API: d is the
// object to store (nil for a delete), old the stored one (nil for a
// create).
func (c *Chain) Mutate(d, old *object.Draft, call *Request) *apierr.Error {
	if call == nil || len(c.Hooks) == 0 {
		return nil
	}
	a := newAttributes(call, d, old)
	for _, h := range c.Hooks {
		if aerr := h.Mutate(a); aerr != nil {
			return aerr
		}
	}
	return nil
}

// Validate validates an object about to be stored (old is the stored
// one, nil for a create), then runs the validating hooks on a write
// through the API (call set).
func (c *Chain) Validate(d, old *object.Draft, call *Request) *apierr.Error {
	validate := c.Validator.Validate
	if call != nil && old != nil && (call.Subresource == "ephemeralcontainers" || call.Subresource == "resize") {
		validate = c.Validator.ValidatePodSubresourceUpdate
	}
	if call != nil && old != nil && call.Subresource == "status" {
		validate = c.Validator.ValidateStatusUpdate
	}
	if call != nil && call.Subresource == "" {
		if aerr := c.Validator.ServiceFamilies(d, old); aerr != nil {
			return aerr
		}
	}
	if aerr := validate(d, old); aerr != nil {
		return aerr
	}
	if call == nil {
		return nil
	}
	if call.Warn != nil && call.Subresource == "" {
		for _, w := range c.Validator.Warnings(d, old) {
			call.Warn(w)
		}
	}
	if old == nil && call.Subresource == "" {
		if aerr := overheadWithoutClass(d); aerr != nil {
			return aerr
		}
	}
	var a *Attributes
	for _, h := range c.Hooks {
		if a == nil {
			a = newAttributes(call, d, old)
		}
		if aerr := h.Validate(a); aerr != nil {
			return aerr
		}
	}
	return nil
}

// AdmitCreate runs what a create runs between the field manager and
// validation, in kube-apiserver's order: the namespace must exist (404)
// and not be terminating (403, for creates through the API), the
// built-in admission plugins (API creates only), the system fields, and
// the registry's preparation.
func (c *Chain) AdmitCreate(d *object.Draft, call *Request, view storage.View) *apierr.Error {
	r := d.Res
	if r.Kind.Namespaced {
		nsObj := view.Get(c.Lookup("", "v1", "namespaces"), d.Meta.Namespace)
		if nsObj == nil {
			return apierr.NamespaceNotFound(d.Meta.Namespace)
		}
		if nsObj.Deleting && call != nil {
			e := apierr.Forbidden(r.Kind, d.Meta.Name, fmt.Sprintf("unable to create new content in namespace %s because it is being terminated", d.Meta.Namespace))
			e.Status.Details.Causes = append(e.Status.Details.Causes, metav1.StatusCause{Type: "NamespaceTerminating", Message: fmt.Sprintf("namespace %s is being terminated", d.Meta.Namespace), Field: "metadata.namespace"})
			return e
		}
	}
	if call != nil {
		if aerr := c.runPlugins(d, view); aerr != nil {
			return aerr
		}
		if aerr := c.Mutate(d, nil, call); aerr != nil {
			return aerr
		}
	}
	d.Meta.UID = object.NewUID()
	d.Meta.CreationTimestamp = c.Now()
	// A create through server-side apply keeps the deletion fields its
	// configuration set, as kube-apiserver's apply-create does.
	if call == nil || call.Verb != "patch" {
		d.Meta.DeletionTimestamp, d.Meta.DeletionGracePeriodSeconds = nil, nil
	}
	d.Meta.SelfLink = ""
	// Kinds whose spec changes count generations start at 1; the
	// others keep what the body says, as kube-apiserver's strategies
	// leave it (and validation refuses a negative one).
	if r.Generation {
		d.Meta.Generation = 1
	}
	via := strategy.Added
	switch {
	case call != nil && call.Subresource == "status":
		via = strategy.StatusWrite
	case call != nil:
		via = strategy.API
	}
	c.Strategy.PrepareCreate(d, via)
	return nil
}
