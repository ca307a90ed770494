package apierr

import (
	"encoding/hex"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/api/registry"
)

// Error is a failure answered with a Status body.
type Error struct {
	Status     metav1.Status
	RetryAfter int // seconds; sets the Retry-After header when positive
	// Plain answers "404 page not found" in text, as kube-apiserver
	// answers paths under API groups it does not serve.
	Plain bool
}

func (e *Error) Error() string { return e.Status.Message }

func New(code int, reason metav1.StatusReason, msg string, details *metav1.StatusDetails) *Error {
	return &Error{Status: metav1.Status{
		TypeMeta: metav1.TypeMeta{Kind: "Status", APIVersion: "v1"},
		Status:   "Failure",
		Message:  msg,
		Reason:   reason,
		Details:  details,
		Code:     int32(code),
	}}
}

// QualifiedResource is "pods" or "deployments.apps", as messages name it.
func QualifiedResource(k registry.Kind) string {
	if k.Group == "" {
		return k.Resource
	}
	return k.Resource + "." + k.Group
}

// Details names an object of kind k, as the Status of an error
// about it does (its kind is the resource).
func Details(k registry.Kind, name string) *metav1.StatusDetails {
	return &metav1.StatusDetails{Name: name, Group: k.Group, Kind: k.Resource}
}

func NotFound(k registry.Kind, name string) *Error {
	return New(http.StatusNotFound, "NotFound", fmt.Sprintf("%s %q not found", QualifiedResource(k), name), Details(k, name))
}

func NamespaceNotFound(ns string) *Error {
	return New(http.StatusNotFound, "NotFound", fmt.Sprintf("namespaces %q not found", ns), &metav1.StatusDetails{Name: ns, Kind: "namespaces"})
}

// Forbidden is the 403 of an admission plugin refusing a write.
func Forbidden(k registry.Kind, name, msg string) *Error {
	return New(http.StatusForbidden, "Forbidden", fmt.Sprintf("%s %q is forbidden: %s", QualifiedResource(k), name, msg), Details(k, name))
}

func AlreadyExists(k registry.Kind, name string) *Error {
	return New(http.StatusConflict, "AlreadyExists", fmt.Sprintf("%s %q already exists", QualifiedResource(k), name), Details(k, name))
}

func Conflict(k registry.Kind, name string) *Error {
	return New(http.StatusConflict, "Conflict", fmt.Sprintf("Operation cannot be fulfilled on %s %q: the object has been modified; please apply your changes to the latest version and try again", QualifiedResource(k), name), Details(k, name))
}

// Cause is one reason an object or option is invalid.
type Cause struct {
	Type    metav1.CauseType // FieldValueInvalid, FieldValueRequired, FieldValueForbidden, FieldValueNotSupported
	Field   string
	Message string // "Invalid value: ...", "Required value", "Forbidden: ..."
}

// Invalid is a 422 naming the kind and object, like validation errors.
func Invalid(group, kind, name string, causes ...Cause) *Error {
	d := &metav1.StatusDetails{Name: name, Group: group, Kind: kind}
	// The message names each distinct error once, as kube-apiserver's
	// aggregate of them does; the causes keep them all.
	var parts []string
	for _, c := range causes {
		d.Causes = append(d.Causes, metav1.StatusCause{Type: c.Type, Message: c.Message, Field: c.Field})
		if p := c.Field + ": " + c.Message; !slices.Contains(parts, p) {
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
	return New(http.StatusUnprocessableEntity, "Invalid", fmt.Sprintf("%s %q is invalid: %s", qualified, name, msg), d)
}

// InvalidOptions is the 422 for list and watch options.
func InvalidOptions(causes ...Cause) *Error {
	return Invalid("meta.k8s.io", "ListOptions", "", causes...)
}

func BadRequest(msg string) *Error {
	return New(http.StatusBadRequest, "BadRequest", msg, nil)
}

func Gone(msg string) *Error {
	return New(http.StatusGone, "Expired", msg, nil)
}

func TooLargeRV(requested, current uint64) *Error {
	e := New(http.StatusGatewayTimeout, "Timeout",
		fmt.Sprintf("Timeout: Too large resource version: %d, current: %d", requested, current),
		&metav1.StatusDetails{
			Causes:            []metav1.StatusCause{{Type: "ResourceVersionTooLarge", Message: "Too large resource version"}},
			RetryAfterSeconds: 1,
		})
	e.RetryAfter = 1
	return e
}

func TooManyRequests(retryAfter int) *Error {
	e := New(http.StatusTooManyRequests, "TooManyRequests", "Too many requests, please try again later.",
		&metav1.StatusDetails{RetryAfterSeconds: int32(retryAfter)})
	e.RetryAfter = retryAfter
	return e
}

// Server is an injected fault's answer with status code: the reason
// kube-apiserver gives that code and a message in its words, so that a
// client's checks of the reason (forbidden, not found, conflict...) see
// what they would see from a real server. k and name, when k is set,
// are the request's resource and object.
func Server(code int, k registry.Kind, name string) *Error {
	switch code {
	case http.StatusServiceUnavailable:
		return New(code, "ServiceUnavailable", "the server is currently unable to handle the request", nil)
	case http.StatusGatewayTimeout:
		return New(code, "Timeout", "Timeout: request did not complete within the allotted timeout", nil)
	case http.StatusBadRequest:
		return BadRequest("the server rejected our request for an unknown reason")
	case http.StatusUnauthorized:
		return Unauthorized()
	case http.StatusForbidden:
		if k.Resource == "" {
			return New(code, "Forbidden", "forbidden: injected fault", nil)
		}
		res := QualifiedResource(k)
		if name != "" {
			res += fmt.Sprintf(" %q", name)
		}
		return New(code, "Forbidden", res+" is forbidden: injected fault", Details(k, name))
	case http.StatusNotFound:
		if k.Resource == "" || name == "" {
			return New(code, "NotFound", "the server could not find the requested resource", nil)
		}
		return NotFound(k, name)
	case http.StatusMethodNotAllowed:
		return New(code, "MethodNotAllowed", "the server does not allow this method on the requested resource", nil)
	case http.StatusConflict:
		if k.Resource == "" {
			return New(code, "Conflict", "the server reported a conflict", nil)
		}
		return Conflict(k, name)
	case http.StatusGone:
		return Gone("The resourceVersion for the provided watch is too old.")
	case http.StatusUnprocessableEntity:
		return New(code, "Invalid", "the server rejected our request due to an error in our request", nil)
	}
	if code >= 500 {
		return New(code, "InternalError", "Internal error occurred: injected fault", &metav1.StatusDetails{
			Causes: []metav1.StatusCause{{Message: "injected fault"}},
		})
	}
	return New(code, "", fmt.Sprintf("the server responded with the status code %d but did not return more information", code), nil)
}

func Unauthorized() *Error {
	return New(http.StatusUnauthorized, "Unauthorized", "Unauthorized", nil)
}

func NotAcceptable() *Error { return NotAcceptableMediaTypes(false) }

// servedMediaTypes lists the media types kube-apiserver's serializers
// take, with application/cbor last when its CBORServingAndStorage gate
// is on.
func servedMediaTypes(cbor bool) string {
	if cbor {
		return "application/json, application/yaml, application/vnd.kubernetes.protobuf, application/cbor"
	}
	return "application/json, application/yaml, application/vnd.kubernetes.protobuf"
}

// NotAcceptableMediaTypes is the 406 of a handler's negotiation.
func NotAcceptableMediaTypes(cbor bool) *Error {
	return New(http.StatusNotAcceptable, "NotAcceptable", "only the following media types are accepted: "+servedMediaTypes(cbor), nil)
}

// NotAcceptableRouter is the 406 of a built-in resource's router.
func NotAcceptableRouter(cbor bool) *Error {
	return New(http.StatusNotAcceptable, "NotAcceptable", "406: Not Acceptable\n\nAvailable representations: "+servedMediaTypes(cbor), &metav1.StatusDetails{})
}

// NotAcceptableFor is the 406 of a resource: built-in resources
// answer as their router does, custom resources as their handler does.
func NotAcceptableFor(custom bool) *Error {
	if custom {
		return NotAcceptable()
	}
	return NotAcceptableRouter(false)
}

// MethodNotAllowed is the 405 of a method a path does not take.
func MethodNotAllowed() *Error {
	return New(http.StatusMethodNotAllowed, "MethodNotAllowed", "the server does not allow this method on the requested resource", &metav1.StatusDetails{})
}

func UnsupportedMediaType(string) *Error { return UnsupportedMediaTypes(false) }

// UnsupportedMediaTypes is the 415 of a body kube-apiserver cannot
// decode, listing application/cbor when its CBOR gate is on.
func UnsupportedMediaTypes(cbor bool) *Error {
	return New(http.StatusUnsupportedMediaType, "UnsupportedMediaType", "the body of the request was in an unknown format - accepted media types include: "+servedMediaTypes(cbor), nil)
}

// UnsupportedMediaTypeJSON is the 415 of a server that decodes only
// JSON and YAML bodies (Faults.RefuseProtobufBodies).
func UnsupportedMediaTypeJSON(ct string) *Error {
	return New(http.StatusUnsupportedMediaType, "UnsupportedMediaType", fmt.Sprintf("the body of the request was in an unknown format - accepted media types include: application/json, application/yaml (got %q)", ct), nil)
}

func MethodNotSupported(k registry.Kind, verb string) *Error {
	return New(http.StatusMethodNotAllowed, "MethodNotAllowed", fmt.Sprintf("%s is not supported on resources of kind %q", verb, QualifiedResource(k)), &metav1.StatusDetails{Group: k.Group, Kind: k.Resource})
}

// GroupNotFound is the 404 of a path under an API group that no
// built-in kind belongs to.
func GroupNotFound() *Error {
	e := PathNotFound()
	e.Plain = true
	return e
}

func PathNotFound() *Error {
	return New(http.StatusNotFound, "NotFound", "the server could not find the requested resource", &metav1.StatusDetails{})
}

func Internal(err error) *Error {
	return New(http.StatusInternalServerError, "InternalError", "Internal error occurred: "+err.Error(), &metav1.StatusDetails{
		Causes: []metav1.StatusCause{{Message: err.Error()}},
	})
}

func RetryAfterHeader(h http.Header, seconds int) {
	if seconds > 0 {
		h.Set("Retry-After", strconv.Itoa(seconds))
	}
}

func From(err error) *Error {
	if ae, ok := err.(*Error); ok {
		return ae
	}
	return Internal(err)
}

// InternalMessage is a 500 whose Status has only a message, as
// kube-apiserver answers errors that are not API errors.
func InternalMessage(msg string) *Error {
	e := New(http.StatusInternalServerError, "", msg, nil)
	return e
}

// Summarize is the start of a body as kube-apiserver quotes it in decode
// errors: 30 bytes of an object, in hex for anything else.
func Summarize(b []byte) string {
	const n = 30
	switch {
	case len(b) == 0:
		return "<empty>"
	case b[0] == '{':
		if len(b) > n {
			return string(b[:n]) + " ..."
		}
		return string(b)
	}
	if len(b) > n {
		return hex.EncodeToString(b[:n]) + " ..."
	}
	return hex.EncodeToString(b)
}
