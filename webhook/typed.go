package webhook

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"strings"

	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/codec"
)

// Defaulter sets the defaults of objects being created or updated: a
// mutating webhook. Default changes obj in place; what it changed is
// answered as a JSON patch of the object kube-apiserver sent (see
// JSONPatch). An error refuses the write (see Denied). RequestFrom(ctx)
// has the request (its OldObject on updates) and DryRun(ctx) says
// whether it is a dry run.
type Defaulter[T client.Object] interface {
	Default(ctx context.Context, obj T) error
}

// DefaulterFunc is a function that is a Defaulter.
type DefaulterFunc[T client.Object] func(ctx context.Context, obj T) error

// Default calls f.
func (f DefaulterFunc[T]) Default(ctx context.Context, obj T) error { return f(ctx, obj) }

// Warnings are messages for the client, which kubectl prints
// ("Warning: ..."), whether the request is allowed or not.
type Warnings []string

// Validator accepts or refuses writes: a validating webhook. A non-nil
// error refuses the write (see Denied for how it is answered; Invalid
// makes kube-apiserver's own 422 with field causes). Warnings are sent
// either way. RequestFrom(ctx) has the request and DryRun(ctx) says
// whether it is a dry run.
type Validator[T client.Object] interface {
	ValidateCreate(ctx context.Context, obj T) (Warnings, error)
	// ValidateUpdate is given the stored object and the new one.
	ValidateUpdate(ctx context.Context, old, obj T) (Warnings, error)
	// ValidateDelete is given the object being deleted.
	ValidateDelete(ctx context.Context, obj T) (Warnings, error)
}

// ValidatorFuncs is a Validator made of functions; a nil one allows the
// operation.
type ValidatorFuncs[T client.Object] struct {
	Create func(ctx context.Context, obj T) (Warnings, error)
	Update func(ctx context.Context, old, obj T) (Warnings, error)
	Delete func(ctx context.Context, obj T) (Warnings, error)
}

// ValidateCreate calls Create.
func (v ValidatorFuncs[T]) ValidateCreate(ctx context.Context, obj T) (Warnings, error) {
	if v.Create == nil {
		return nil, nil
	}
	return v.Create(ctx, obj)
}

// ValidateUpdate calls Update.
func (v ValidatorFuncs[T]) ValidateUpdate(ctx context.Context, old, obj T) (Warnings, error) {
	if v.Update == nil {
		return nil, nil
	}
	return v.Update(ctx, old, obj)
}

// ValidateDelete calls Delete.
func (v ValidatorFuncs[T]) ValidateDelete(ctx context.Context, obj T) (Warnings, error) {
	if v.Delete == nil {
		return nil, nil
	}
	return v.Delete(ctx, obj)
}

// Mutating returns the Hook calling d for creates and updates of the
// kind T (a kubewire-gen or built-in kind, as a pointer: *v1.CronJob),
// served at controller-runtime's path for it,
// /mutate-<group with dots as dashes>-<version>-<lower-case kind>, the
// path=... of the kind's +kubebuilder:webhook marker. Objects are decoded
// with the kind's generated JSON codec; a request for another kind or
// version is refused with 400.
func Mutating[T client.Kinded](d Defaulter[T]) *Hook {
	t, err := typedFor[T](nil)
	h := Admission(t.path("mutate"), t.defaulting(d))
	h.err = err
	return h
}

// Validating returns the Hook calling v for creates, updates and
// deletes of the kind T, at /validate-<group>-<version>-<kind> (see
// Mutating).
func Validating[T client.Kinded](v Validator[T]) *Hook {
	t, err := typedFor[T](nil)
	h := Admission(t.path("validate"), t.validating(v))
	h.err = err
	return h
}

// MutatingUnstructured is Mutating for a kind without a Go type: objects
// arrive as *unstructured.Unstructured. The request must be for gvk
// (when its Kind is set), which also names the default path.
func MutatingUnstructured(gvk metav1.GroupVersionKind, d Defaulter[*unstructured.Unstructured]) *Hook {
	t, err := typedFor[*unstructured.Unstructured](&gvk)
	h := Admission(t.path("mutate"), t.defaulting(d))
	h.err = err
	return h
}

// ValidatingUnstructured is Validating for a kind without a Go type.
func ValidatingUnstructured(gvk metav1.GroupVersionKind, v Validator[*unstructured.Unstructured]) *Hook {
	t, err := typedFor[*unstructured.Unstructured](&gvk)
	h := Admission(t.path("validate"), t.validating(v))
	h.err = err
	return h
}

// typed decodes a kind's objects.
type typed[T client.Object] struct {
	gvk  metav1.GroupVersionKind // Kind "" accepts any
	elem reflect.Type
}

func typedFor[T client.Object](gvk *metav1.GroupVersionKind) (typed[T], error) {
	t := typed[T]{}
	rt := reflect.TypeFor[T]()
	if rt.Kind() != reflect.Pointer || rt.Elem().Kind() != reflect.Struct {
		return t, fmt.Errorf("webhook: %v is not a pointer to a struct", rt)
	}
	t.elem = rt.Elem()
	if gvk != nil {
		t.gvk = *gvk
		return t, nil
	}
	if k, ok := any(t.new()).(client.Kinded); ok {
		ki := k.KindInfo()
		t.gvk = metav1.GroupVersionKind{Group: ki.Group, Version: ki.Version, Kind: ki.Kind}
	}
	return t, nil
}

func (t typed[T]) new() T { return reflect.New(t.elem).Interface().(T) }

// path is controller-runtime's default path for the kind's webhooks.
func (t typed[T]) path(verb string) string {
	g := t.gvk
	return "/" + verb + "-" + strings.ReplaceAll(g.Group, ".", "-") + "-" + g.Version + "-" + strings.ToLower(g.Kind)
}

func (t typed[T]) String() string {
	if t.gvk.Group == "" {
		return t.gvk.Version + " " + t.gvk.Kind
	}
	return t.gvk.Group + "/" + t.gvk.Version + " " + t.gvk.Kind
}

// checkKind refuses a request for another kind than T's.
func (t typed[T]) checkKind(req *AdmissionRequest) *AdmissionResponse {
	if t.gvk.Kind == "" {
		return nil
	}
	k := req.Kind
	if k.Group != t.gvk.Group || k.Version != t.gvk.Version || k.Kind != t.gvk.Kind {
		return Errored(http.StatusBadRequest, fmt.Errorf("this webhook admits %s objects, the request is for %s %s (register it for the versions it decodes, or with matchPolicy Equivalent)",
			t, strings.TrimPrefix(k.Group+"/"+k.Version, "/"), k.Kind))
	}
	return nil
}

// decode decodes the object or old object of a request.
func (t typed[T]) decode(raw []byte, field string) (T, *AdmissionResponse) {
	obj := t.new()
	if err := codec.DecodeJSON(raw, obj); err != nil {
		return obj, Errored(http.StatusBadRequest, fmt.Errorf("cannot decode the request's %s as a %s: %v", field, t, err))
	}
	if k := obj.GetKind(); t.gvk.Kind != "" && k != "" && (k != t.gvk.Kind || obj.GetAPIVersion() != apiVersion(t.gvk.Group, t.gvk.Version)) {
		return obj, Errored(http.StatusBadRequest, fmt.Errorf("the request's %s is a %s %s, not a %s", field, obj.GetAPIVersion(), k, t))
	}
	return obj, nil
}

func apiVersion(group, version string) string {
	if group == "" {
		return version
	}
	return group + "/" + version
}

func (t typed[T]) defaulting(d Defaulter[T]) AdmitFunc {
	return func(ctx context.Context, req *AdmissionRequest) *AdmissionResponse {
		if req.Operation != Create && req.Operation != Update {
			return Allowed()
		}
		if bad := t.checkKind(req); bad != nil {
			return bad
		}
		obj, bad := t.decode(req.Object.Raw, "object")
		if bad != nil {
			return bad
		}
		before, err := codec.EncodeJSON(obj)
		if err != nil {
			return Errored(http.StatusInternalServerError, err)
		}
		if err := d.Default(ctx, obj); err != nil {
			return Denied(err)
		}
		after, err := codec.EncodeJSON(obj)
		if err != nil {
			return Errored(http.StatusInternalServerError, err)
		}
		return PatchResponse(req.Object.Raw, before, after)
	}
}

// PatchResponse allows a request with the JSON patch that makes
// original carry the changes from before to after (see JSONPatch).
func PatchResponse(original, before, after []byte) *AdmissionResponse {
	ops, err := JSONPatch(original, before, after)
	if err != nil {
		return Errored(http.StatusInternalServerError, err)
	}
	if len(ops) == 0 {
		return Allowed()
	}
	patch, err := json.Marshal(ops)
	if err != nil {
		return Errored(http.StatusInternalServerError, err)
	}
	pt := PatchTypeJSONPatch
	return &AdmissionResponse{Allowed: true, Patch: patch, PatchType: &pt}
}

func (t typed[T]) validating(v Validator[T]) AdmitFunc {
	return func(ctx context.Context, req *AdmissionRequest) *AdmissionResponse {
		if req.Operation == Connect {
			return Allowed()
		}
		if bad := t.checkKind(req); bad != nil {
			return bad
		}
		var warnings Warnings
		var err error
		switch req.Operation {
		case Create:
			obj, bad := t.decode(req.Object.Raw, "object")
			if bad != nil {
				return bad
			}
			warnings, err = v.ValidateCreate(ctx, obj)
		case Update:
			obj, bad := t.decode(req.Object.Raw, "object")
			if bad != nil {
				return bad
			}
			old, bad := t.decode(req.OldObject.Raw, "oldObject")
			if bad != nil {
				return bad
			}
			warnings, err = v.ValidateUpdate(ctx, old, obj)
		case Delete:
			if req.OldObject.Raw == nil {
				return Errored(http.StatusBadRequest, fmt.Errorf("the DELETE request has no oldObject: a validating webhook needs it"))
			}
			obj, bad := t.decode(req.OldObject.Raw, "oldObject")
			if bad != nil {
				return bad
			}
			warnings, err = v.ValidateDelete(ctx, obj)
		}
		if err != nil {
			return Denied(err, warnings...)
		}
		return Allowed(warnings...)
	}
}
