package validation

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/kubewire/kubewire/fake/internal/apierr"
)

// errs is a list of field errors in the order kube-apiserver finds
// them; each becomes a cause of the 422 and a part of its message.
type errs []apierr.Cause

// Field errors as kube-apiserver's field package words them: the type,
// the value (quoted for strings, printed plainly for numbers and
// booleans, pointers followed) and the detail.

func (e *errs) add(c apierr.Cause) { *e = append(*e, c) }
func (e *errs) addAll(more errs)   { *e = append(*e, more...) }
func (e *errs) empty() bool        { return len(*e) == 0 }
func (e *errs) invalid(path string, value any, detail string) {
	e.add(invalidErr(path, value, detail))
}

func (e *errs) required(path, detail string) { e.add(requiredErr(path, detail)) }

func (e *errs) forbidden(path, detail string) {
	e.add(apierr.Cause{Type: "FieldValueForbidden", Field: path, Message: withDetail("Forbidden", detail)})
}

func (e *errs) notSupported(path string, value any, valid ...string) {
	quoted := make([]string, len(valid))
	for i, v := range valid {
		quoted[i] = strconv.Quote(v)
	}
	detail := ""
	if len(valid) > 0 {
		detail = "supported values: " + strings.Join(quoted, ", ")
	}
	e.add(apierr.Cause{Type: "FieldValueNotSupported", Field: path, Message: withDetail("Unsupported value: "+printValue(value), detail)})
}

func (e *errs) duplicate(path string, value any) {
	e.add(apierr.Cause{Type: "FieldValueDuplicate", Field: path, Message: "Duplicate value: " + printValue(value)})
}

func (e *errs) notFound(path string, value any) {
	e.add(apierr.Cause{Type: "FieldValueNotFound", Field: path, Message: "Not found: " + printValue(value)})
}

func (e *errs) tooLong(path string, max int) {
	unit := "bytes"
	if max == 1 {
		unit = "byte"
	}
	e.add(apierr.Cause{Type: "FieldValueTooLong", Field: path, Message: fmt.Sprintf("Too long: may not be more than %d %s", max, unit)})
}

func invalidErr(path string, value any, detail string) apierr.Cause {
	return apierr.Cause{Type: "FieldValueInvalid", Field: path, Message: withDetail("Invalid value: "+printValue(value), detail)}
}

func requiredErr(path, detail string) apierr.Cause {
	return apierr.Cause{Type: "FieldValueRequired", Field: path, Message: withDetail("Required value", detail)}
}

func withDetail(s, detail string) string {
	if detail == "" {
		return s
	}
	return s + ": " + detail
}

// printValue prints a value as kube-apiserver's field errors do: plain
// numbers and booleans, quoted strings, anything else as JSON (or its
// String, or Go syntax, when it has none).
func printValue(v any) string {
	switch t := v.(type) {
	case nil:
		return "null"
	case int64, int32, float64, float32, bool:
		return fmt.Sprint(t)
	case string:
		return strconv.Quote(t)
	}
	if b, err := json.Marshal(v); err == nil {
		return string(b)
	}
	if s, ok := v.(fmt.Stringer); ok {
		return s.String()
	}
	return fmt.Sprintf("%#v", v)
}

// path joins field path elements: keys with dots, indexes and map keys
// in brackets.
func child(p, name string) string {
	if p == "" {
		return name
	}
	return p + "." + name
}

func index(p string, i int) string { return p + "[" + strconv.Itoa(i) + "]" }

func key(p, k string) string { return p + "[" + k + "]" }
