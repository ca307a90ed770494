package webhook

import (
	"fmt"
	"net/http"
	"strings"

	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/codec"
)

// FieldError is what is wrong with one field, as a validating webhook
// reports it through Invalid.
type FieldError struct {
	// Type is the cause (default metav1.CauseTypeFieldValueInvalid).
	Type metav1.CauseType
	// Field is the path of the field, such as "spec.schedule".
	Field string
	// Value is the offending value, quoted in the message for invalid,
	// unsupported and duplicate values.
	Value any
	// Detail says why.
	Detail string
}

// causeNames are kube-apiserver's words for the causes in messages.
var causeNames = map[metav1.CauseType]string{
	metav1.CauseTypeFieldValueInvalid:      "Invalid value",
	metav1.CauseTypeFieldValueRequired:     "Required value",
	"FieldValueForbidden":                  "Forbidden",
	metav1.CauseTypeFieldValueNotSupported: "Unsupported value",
	metav1.CauseTypeFieldValueDuplicate:    "Duplicate value",
	metav1.CauseTypeFieldValueNotFound:     "Not found",
	"FieldValueTooLong":                    "Too long",
	"FieldValueTooMany":                    "Too many",
}

// body is the error's text after its field, as kube-apiserver writes it.
func (e FieldError) body() string {
	t := e.Type
	if t == "" {
		t = metav1.CauseTypeFieldValueInvalid
	}
	s := causeNames[t]
	if s == "" {
		s = string(t)
	}
	switch t {
	case metav1.CauseTypeFieldValueInvalid, metav1.CauseTypeFieldValueNotSupported, metav1.CauseTypeFieldValueDuplicate, metav1.CauseTypeFieldValueNotFound:
		switch v := e.Value.(type) {
		case nil:
			s += ": null"
		case string:
			s += fmt.Sprintf(": %q", v)
		case fmt.Stringer:
			s += ": " + v.String()
		default:
			s += fmt.Sprintf(": %v", v)
		}
	}
	if e.Detail != "" {
		s += ": " + e.Detail
	}
	return s
}

// Error is "field: body".
func (e FieldError) Error() string { return e.Field + ": " + e.body() }

// Invalid returns the 422 Invalid error kube-apiserver makes for an
// object failing validation, for a Validator (or Defaulter) to return:
// its message reads `CronJob.batch.example.com "nightly" is invalid:
// spec.schedule: Invalid value: "x": ...` and each FieldError is a
// cause naming its field, which clients can match. It returns nil
// without errors, so that
//
//	return nil, webhook.Invalid(obj, checks...)
//
// allows a valid object.
func Invalid(obj client.Object, errs ...FieldError) error {
	if len(errs) == 0 {
		return nil
	}
	group, _, _ := strings.Cut(obj.GetAPIVersion(), "/")
	if !strings.Contains(obj.GetAPIVersion(), "/") {
		group = ""
	}
	kind := obj.GetKind()
	if k, ok := obj.(client.Kinded); ok {
		ki := k.KindInfo()
		group, kind = ki.Group, ki.Kind
	}
	qualified := kind
	if group != "" {
		qualified += "." + group
	}
	details := &metav1.StatusDetails{Group: group, Kind: kind, Name: obj.GetName()}
	msgs := make([]string, len(errs))
	for i, e := range errs {
		t := e.Type
		if t == "" {
			t = metav1.CauseTypeFieldValueInvalid
		}
		details.Causes = append(details.Causes, metav1.StatusCause{Type: t, Message: e.body(), Field: e.Field})
		msgs[i] = e.Error()
	}
	msg := msgs[0]
	if len(msgs) > 1 {
		msg = "[" + strings.Join(msgs, ", ") + "]"
	}
	return &codec.StatusError{Status: metav1.Status{
		Status:  metav1.StatusFailure,
		Code:    http.StatusUnprocessableEntity,
		Reason:  metav1.StatusReasonInvalid,
		Message: fmt.Sprintf("%s %q is invalid: %s", qualified, obj.GetName(), msg),
		Details: details,
	}}
}
