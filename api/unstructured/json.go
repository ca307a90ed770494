package unstructured

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/kubewire/kubewire/api/wire"
)

// decodeError is a JSON decode failure; it matches wire.ErrMalformed.
type decodeError struct {
	msg string
	err error
}

func (e *decodeError) Error() string {
	if e.err == nil {
		return "unstructured: " + e.msg
	}
	return "unstructured: " + e.msg + ": " + e.err.Error()
}

func (e *decodeError) Unwrap() error        { return e.err }
func (e *decodeError) Is(target error) bool { return target == wire.ErrMalformed }

// decodeObject decodes one JSON object, with nothing but whitespace after
// it, into a map whose numbers are int64 or float64 (see convertNumbers).
func decodeObject(data []byte) (map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, &decodeError{msg: "invalid JSON", err: err}
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, &decodeError{msg: fmt.Sprintf("invalid JSON: data after the object at byte %d", dec.InputOffset())}
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, &decodeError{msg: fmt.Sprintf("want a JSON object, found %s", jsonKind(v))}
	}
	if err := convertNumbers(m); err != nil {
		return nil, err
	}
	return m, nil
}

func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case []any:
		return "an array"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case map[string]any:
		return "an object"
	}
	return "a number"
}

// convertNumbers replaces, in place, every json.Number under v by an
// int64 when the literal is an integer in int64's range, and by a float64
// otherwise: an integer too large for int64 becomes the nearest float64
// (as in apimachinery), and a number too large for float64 is an error
// (as in encoding/json).
func convertNumbers(v any) error {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			if n, ok := e.(json.Number); ok {
				x, err := convertNumber(n)
				if err != nil {
					return err
				}
				v[k] = x
			} else if err := convertNumbers(e); err != nil {
				return err
			}
		}
	case []any:
		for i, e := range v {
			if n, ok := e.(json.Number); ok {
				x, err := convertNumber(n)
				if err != nil {
					return err
				}
				v[i] = x
			} else if err := convertNumbers(e); err != nil {
				return err
			}
		}
	}
	return nil
}

func convertNumber(n json.Number) (any, error) {
	s := string(n)
	if !strings.ContainsAny(s, ".eE") {
		if i, err := strconv.ParseInt(s, 10, 64); err == nil {
			return i, nil
		}
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(f, 0) {
		if len(s) > 40 {
			s = s[:40] + "..."
		}
		return nil, &decodeError{msg: fmt.Sprintf("number %s does not fit a float64", s), err: errors.Unwrap(err)}
	}
	return f, nil
}

// MarshalJSON encodes u.Object; a nil Object encodes as null.
func (u *Unstructured) MarshalJSON() ([]byte, error) {
	return json.Marshal(u.Object)
}

// UnmarshalJSON replaces u.Object with the JSON object in data. Integer
// literals that fit become int64 (1, -7, 9223372036854775807); other
// numbers become float64 (1.5, 1e3, and integers beyond int64, which lose
// precision); a number beyond float64 (1e400) is an error. null sets
// Object to nil. Errors match wire.ErrMalformed.
func (u *Unstructured) UnmarshalJSON(data []byte) error {
	if isNull(data) {
		u.Object = nil
		return nil
	}
	m, err := decodeObject(data)
	if err != nil {
		return err
	}
	u.Object = m
	return nil
}

// MarshalJSON encodes the list: the fields of l.Object and "items".
func (l *UnstructuredList) MarshalJSON() ([]byte, error) {
	out := make(map[string]any, len(l.Object)+1)
	for k, v := range l.Object {
		out[k] = v
	}
	items := make([]any, len(l.Items))
	for i := range l.Items {
		items[i] = l.Items[i].Object
	}
	out["items"] = items
	return json.Marshal(out)
}

// UnmarshalJSON decodes a list: "items" into Items (each a JSON object),
// every other field into Object. Numbers are decoded as for Unstructured.
// Items without apiVersion or kind, as in the lists of built-in kinds
// (a PodList's items carry neither), get the list's apiVersion and its
// kind without the "List" suffix. null resets l.
func (l *UnstructuredList) UnmarshalJSON(data []byte) error {
	if isNull(data) {
		*l = UnstructuredList{}
		return nil
	}
	m, err := decodeObject(data)
	if err != nil {
		return err
	}
	raw := m["items"]
	delete(m, "items")
	var items []Unstructured
	switch raw := raw.(type) {
	case nil:
	case []any:
		items = make([]Unstructured, len(raw))
		apiVersion, _ := m["apiVersion"].(string)
		kind, _ := m["kind"].(string)
		kind = strings.TrimSuffix(kind, "List")
		for i, item := range raw {
			obj, ok := item.(map[string]any)
			if !ok {
				return &decodeError{msg: fmt.Sprintf("list item %d is %s, not an object", i, jsonKind(item))}
			}
			if _, ok := obj["apiVersion"]; !ok && apiVersion != "" {
				obj["apiVersion"] = apiVersion
			}
			if _, ok := obj["kind"]; !ok && kind != "" {
				obj["kind"] = kind
			}
			items[i].Object = obj
		}
	default:
		return &decodeError{msg: fmt.Sprintf("the list's items are %s, not an array", jsonKind(raw))}
	}
	l.Object, l.Items = m, items
	return nil
}

func isNull(data []byte) bool { return string(bytes.TrimSpace(data)) == "null" }
