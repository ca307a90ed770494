package unstructured

import (
	"encoding/json"

	"github.com/kubewire/kubewire/api/jsonwire"
	"github.com/kubewire/kubewire/api/wire"
)

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
	return jsonwire.Decode(data, u, nil)
}

// DecodeJSON replaces u.Object with the JSON object read from d, in one
// pass: maps sized to fit, keys and short strings interned through d's
// Table, integers as int64. It is what UnmarshalJSON, lists and watches
// use; see UnmarshalJSON for the values it gives.
func (u *Unstructured) DecodeJSON(d *jsonwire.Decoder) error {
	if d.Null() {
		u.Object = nil
		return d.Err()
	}
	m := d.AnyObject()
	if d.Err() != nil {
		return d.Err()
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
	return jsonwire.Decode(data, l, nil)
}

// DecodeJSON reads the list from d as UnmarshalJSON does.
func (l *UnstructuredList) DecodeJSON(d *jsonwire.Decoder) error {
	if d.Null() {
		*l = UnstructuredList{}
		return d.Err()
	}
	m := d.AnyObject()
	if d.Err() != nil {
		return d.Err()
	}
	items, err := listItems(m)
	if err != nil {
		d.SetErr(err)
		return d.Err()
	}
	l.Object, l.Items = m, items
	return nil
}

// listError is a list whose items are not objects; it matches
// wire.ErrMalformed.
type listError struct{ msg string }

func (e *listError) Error() string        { return "unstructured: " + e.msg }
func (e *listError) Is(target error) bool { return target == wire.ErrMalformed }
