package fake

import (
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	metav1 "github.com/kubewire/kubewire/api/meta/v1"
)

// apiError is a failure answered with a Status body.
type apiError struct {
	status     metav1.Status
	retryAfter int // seconds; sets the Retry-After header when positive
	// plain answers "404 page not found" in text, as kube-apiserver
	// answers paths under API groups it does not serve.
	plain bool
}

func (e *apiError) Error() string { return e.status.Message }

func newStatus(code int, reason metav1.StatusReason, msg string, details *metav1.StatusDetails) *apiError {
	return &apiError{status: metav1.Status{
		TypeMeta: metav1.TypeMeta{Kind: "Status", APIVersion: "v1"},
		Status:   "Failure",
		Message:  msg,
		Reason:   reason,
		Details:  details,
		Code:     int32(code),
	}}
}

// qualifiedResource is "pods" or "deployments.apps", as messages name it.
func (r *resource) qualifiedResource() string {
	if r.kind.Group == "" {
		return r.kind.Resource
	}
	return r.kind.Resource + "." + r.kind.Group
}

func (r *resource) details(name string) *metav1.StatusDetails {
	return &metav1.StatusDetails{Name: name, Group: r.kind.Group, Kind: r.kind.Resource}
}

func errNotFound(r *resource, name string) *apiError {
	return newStatus(http.StatusNotFound, "NotFound", fmt.Sprintf("%s %q not found", r.qualifiedResource(), name), r.details(name))
}

func errNamespaceNotFound(ns string) *apiError {
	return newStatus(http.StatusNotFound, "NotFound", fmt.Sprintf("namespaces %q not found", ns), &metav1.StatusDetails{Name: ns, Kind: "namespaces"})
}

func errAlreadyExists(r *resource, name string) *apiError {
	return newStatus(http.StatusConflict, "AlreadyExists", fmt.Sprintf("%s %q already exists", r.qualifiedResource(), name), r.details(name))
}

func errConflict(r *resource, name string) *apiError {
	return newStatus(http.StatusConflict, "Conflict", fmt.Sprintf("Operation cannot be fulfilled on %s %q: the object has been modified; please apply your changes to the latest version and try again", r.qualifiedResource(), name), r.details(name))
}

// fieldCause is one reason an object or option is invalid.
type fieldCause struct {
	typ   metav1.CauseType // FieldValueInvalid, FieldValueRequired, FieldValueForbidden, FieldValueNotSupported
	field string
	msg   string // "Invalid value: ...", "Required value", "Forbidden: ..."
}

// errInvalid is a 422 naming the kind and object, like validation errors.
func errInvalid(group, kind, name string, causes ...fieldCause) *apiError {
	d := &metav1.StatusDetails{Name: name, Group: group, Kind: kind}
	// The message names each distinct error once, as kube-apiserver's
	// aggregate of them does; the causes keep them all.
	var parts []string
	for _, c := range causes {
		d.Causes = append(d.Causes, metav1.StatusCause{Type: c.typ, Message: c.msg, Field: c.field})
		if p := c.field + ": " + c.msg; !slices.Contains(parts, p) {
			parts = append(parts, p)
		}
	}
	msg := strings.Join(parts, ", ")
	if len(parts) > 1 {
		msg = "[" + msg + "]"
	}
	qualified := kind
	if group != "" {
		qualified += "." + group
	}
	return newStatus(http.StatusUnprocessableEntity, "Invalid", fmt.Sprintf("%s %q is invalid: %s", qualified, name, msg), d)
}

// errInvalidOptions is the 422 for list and watch options.
func errInvalidOptions(causes ...fieldCause) *apiError {
	return errInvalid("meta.k8s.io", "ListOptions", "", causes...)
}

func errBadRequest(msg string) *apiError {
	return newStatus(http.StatusBadRequest, "BadRequest", msg, nil)
}

func errGone(msg string) *apiError {
	return newStatus(http.StatusGone, "Expired", msg, nil)
}

func errTooLargeRV(requested, current uint64) *apiError {
	e := newStatus(http.StatusGatewayTimeout, "Timeout",
		fmt.Sprintf("Timeout: Too large resource version: %d, current: %d", requested, current),
		&metav1.StatusDetails{
			Causes:            []metav1.StatusCause{{Type: "ResourceVersionTooLarge", Message: "Too large resource version"}},
			RetryAfterSeconds: 1,
		})
	e.retryAfter = 1
	return e
}

func errTooManyRequests(retryAfter int) *apiError {
	e := newStatus(http.StatusTooManyRequests, "TooManyRequests", "Too many requests, please try again later.",
		&metav1.StatusDetails{RetryAfterSeconds: int32(retryAfter)})
	e.retryAfter = retryAfter
	return e
}

func errServer(code int) *apiError {
	switch code {
	case http.StatusServiceUnavailable:
		return newStatus(code, "ServiceUnavailable", "the server is currently unable to handle the request", nil)
	case http.StatusGatewayTimeout:
		return newStatus(code, "Timeout", "Timeout: request did not complete within the allotted timeout", nil)
	}
	return newStatus(code, "InternalError", "Internal error occurred: injected fault", &metav1.StatusDetails{
		Causes: []metav1.StatusCause{{Message: "injected fault"}},
	})
}

func errUnauthorized() *apiError {
	return newStatus(http.StatusUnauthorized, "Unauthorized", "Unauthorized", nil)
}

func errNotAcceptable() *apiError {
	return newStatus(http.StatusNotAcceptable, "NotAcceptable", "only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf", nil)
}

// errNotAcceptableFor is the 406 of a resource: built-in resources
// answer as their router does, custom resources as their handler does.
func errNotAcceptableFor(r *resource) *apiError {
	if r.custom {
		return errNotAcceptable()
	}
	return newStatus(http.StatusNotAcceptable, "NotAcceptable", "406: Not Acceptable\n\nAvailable representations: application/json, application/yaml, application/vnd.kubernetes.protobuf", &metav1.StatusDetails{})
}

// errMethodNotAllowed is the 405 of a method a path does not take.
func errMethodNotAllowed() *apiError {
	return newStatus(http.StatusMethodNotAllowed, "MethodNotAllowed", "the server does not allow this method on the requested resource", &metav1.StatusDetails{})
}

func errUnsupportedMediaType(string) *apiError {
	return newStatus(http.StatusUnsupportedMediaType, "UnsupportedMediaType", "the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf", nil)
}

// errUnsupportedMediaTypeJSON is the 415 of a server that decodes only
// JSON and YAML bodies (Faults.RefuseProtobufBodies).
func errUnsupportedMediaTypeJSON(ct string) *apiError {
	return newStatus(http.StatusUnsupportedMediaType, "UnsupportedMediaType", fmt.Sprintf("the body of the request was in an unknown format - accepted media types include: application/json, application/yaml (got %q)", ct), nil)
}

func errMethodNotSupported(r *resource, verb string) *apiError {
	return newStatus(http.StatusMethodNotAllowed, "MethodNotAllowed", fmt.Sprintf("%s is not supported on resources of kind %q", verb, r.qualifiedResource()), &metav1.StatusDetails{Group: r.kind.Group, Kind: r.kind.Resource})
}

// errGroupNotFound is the 404 of a path under an API group that no
// built-in kind belongs to.
func errGroupNotFound() *apiError {
	e := errPathNotFound()
	e.plain = true
	return e
}

func errPathNotFound() *apiError {
	return newStatus(http.StatusNotFound, "NotFound", "the server could not find the requested resource", &metav1.StatusDetails{})
}

func errInternal(err error) *apiError {
	return newStatus(http.StatusInternalServerError, "InternalError", "Internal error occurred: "+err.Error(), &metav1.StatusDetails{
		Causes: []metav1.StatusCause{{Message: err.Error()}},
	})
}

func retryAfterHeader(h http.Header, seconds int) {
	if seconds > 0 {
		h.Set("Retry-After", strconv.Itoa(seconds))
	}
}
