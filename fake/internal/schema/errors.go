package schema

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// ErrorType is a field error's kind, named as a Status cause's reason.
type ErrorType string

// Field error kinds.
const (
	Required     ErrorType = "FieldValueRequired"
	Invalid      ErrorType = "FieldValueInvalid"
	TypeInvalid  ErrorType = "FieldValueTypeInvalid"
	NotSupported ErrorType = "FieldValueNotSupported"
	Duplicate    ErrorType = "FieldValueDuplicate"
	TooLong      ErrorType = "FieldValueTooLong"
	TooMany      ErrorType = "FieldValueTooMany"
	Forbidden    ErrorType = "FieldValueForbidden"
)

// Omitted is a BadValue that is not shown.
type omitted struct{}

// Omit is the BadValue of an error that shows none.
var Omit any = omitted{}

// FieldError is one reason an object is invalid, worded as
// kube-apiserver words its field errors.
type FieldError struct {
	Type     ErrorType
	Field    string // "spec.size", or "<nil>" for the object as a whole
	BadValue any
	Detail   string
}

func (t ErrorType) label() string {
	switch t {
	case Required:
		return "Required value"
	case NotSupported:
		return "Unsupported value"
	case Duplicate:
		return "Duplicate value"
	case TooLong:
		return "Too long"
	case TooMany:
		return "Too many"
	case Forbidden:
		return "Forbidden"
	}
	return "Invalid value"
}

// Body is the error without its field: "Invalid value: 11: spec.size in
// body should be less than or equal to 10".
func (e FieldError) Body() string {
	var s string
	switch e.Type {
	case Required, Forbidden, TooLong:
		s = e.Type.label()
	default:
		if e.BadValue == Omit {
			s = e.Type.label()
			break
		}
		switch v := e.BadValue.(type) {
		case int64, int, float64, bool:
			s = fmt.Sprintf("%s: %v", e.Type.label(), v)
		case string:
			s = e.Type.label() + ": " + strconv.Quote(v)
		default:
			b, _ := json.Marshal(v)
			s = e.Type.label() + ": " + string(b)
		}
	}
	if e.Detail != "" {
		s += ": " + e.Detail
	}
	return s
}

func (e FieldError) Error() string { return e.Field + ": " + e.Body() }

// Blocking reports whether an error keeps kube-apiserver from evaluating
// x-kubernetes-validations rules.
func (e FieldError) Blocking() bool {
	switch e.Type {
	case NotSupported, Required, TooLong, TooMany, TypeInvalid:
		return true
	}
	return false
}

// RulesNotChecked is the error kube-apiserver adds instead of evaluating
// the rules of an object already invalid.
var RulesNotChecked = FieldError{Type: Invalid, Field: "<nil>", BadValue: nil,
	Detail: "some validation rules were not checked because the object was invalid; correct the existing errors to complete validation"}

// supported formats the supported values of an enum.
func supported(values []any) string {
	q := make([]string, len(values))
	for i, v := range values {
		if s, ok := v.(string); ok {
			q[i] = strconv.Quote(s)
		} else {
			b, _ := json.Marshal(v)
			q[i] = strconv.Quote(string(b))
		}
	}
	return "supported values: " + strings.Join(q, ", ")
}
