package unstructured

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
)

// The Nested* functions reach a field of a JSON-shaped map by its path,
// each element a map key: NestedString(obj, "spec", "color") reads
// obj["spec"]["color"]. They report whether the field was found, and an
// error when a value on the path, or the field itself, has the wrong type.
// A nil value on the path reads as not found.

// NestedFieldNoCopy returns the value at fields, shared with obj.
func NestedFieldNoCopy(obj map[string]any, fields ...string) (any, bool, error) {
	var v any = obj
	for i, f := range fields {
		if v == nil {
			return nil, false, nil
		}
		m, ok := v.(map[string]any)
		if !ok {
			return nil, false, fmt.Errorf("unstructured: %s is %s, not a map", path(fields[:i]), typeOf(v))
		}
		if v, ok = m[f]; !ok {
			return nil, false, nil
		}
	}
	return v, true, nil
}

// NestedFieldCopy returns a deep copy of the value at fields.
func NestedFieldCopy(obj map[string]any, fields ...string) (any, bool, error) {
	v, ok, err := NestedFieldNoCopy(obj, fields...)
	if !ok || err != nil {
		return nil, ok, err
	}
	return DeepCopyJSONValue(v), true, nil
}

func nested[T any](obj map[string]any, want string, fields []string) (T, bool, error) {
	var zero T
	v, ok, err := NestedFieldNoCopy(obj, fields...)
	if !ok || err != nil {
		return zero, ok, err
	}
	t, ok := v.(T)
	if !ok {
		return zero, false, fmt.Errorf("unstructured: %s is %s, not %s", path(fields), typeOf(v), want)
	}
	return t, true, nil
}

// The scalar readers are written out rather than through nested: a
// generic instantiation's escape analysis does not carry across packages,
// and callers' variadic fields would then be allocated on every read.

// NestedString returns the string at fields.
func NestedString(obj map[string]any, fields ...string) (string, bool, error) {
	v, ok, err := NestedFieldNoCopy(obj, fields...)
	if !ok || err != nil {
		return "", ok, err
	}
	s, ok := v.(string)
	if !ok {
		return "", false, wrongType(fields, v, "a string")
	}
	return s, true, nil
}

// NestedBool returns the bool at fields.
func NestedBool(obj map[string]any, fields ...string) (bool, bool, error) {
	v, ok, err := NestedFieldNoCopy(obj, fields...)
	if !ok || err != nil {
		return false, ok, err
	}
	b, ok := v.(bool)
	if !ok {
		return false, false, wrongType(fields, v, "a bool")
	}
	return b, true, nil
}

// NestedFloat64 returns the float64 at fields. An integer (int64 after
// decoding) is not a float64: use NestedInt64 or NestedFieldNoCopy.
func NestedFloat64(obj map[string]any, fields ...string) (float64, bool, error) {
	v, ok, err := NestedFieldNoCopy(obj, fields...)
	if !ok || err != nil {
		return 0, ok, err
	}
	f, ok := v.(float64)
	if !ok {
		return 0, false, wrongType(fields, v, "a float64")
	}
	return f, true, nil
}

func wrongType(fields []string, v any, want string) error {
	return fmt.Errorf("unstructured: %s is %s, not %s", path(fields), typeOf(v), want)
}

// NestedInt64 returns the integer at fields: an int64 as decoded from
// JSON, or any Go integer a caller stored that fits in an int64. A
// float64, even 2.0, is an error, as in apimachinery.
func NestedInt64(obj map[string]any, fields ...string) (int64, bool, error) {
	v, ok, err := NestedFieldNoCopy(obj, fields...)
	if !ok || err != nil {
		return 0, ok, err
	}
	switch n := v.(type) {
	case int64:
		return n, true, nil
	case int:
		return int64(n), true, nil
	case int32:
		return int64(n), true, nil
	case int16:
		return int64(n), true, nil
	case int8:
		return int64(n), true, nil
	case uint32:
		return int64(n), true, nil
	case uint16:
		return int64(n), true, nil
	case uint8:
		return int64(n), true, nil
	case uint:
		if uint64(n) <= math.MaxInt64 {
			return int64(n), true, nil
		}
	case uint64:
		if n <= math.MaxInt64 {
			return int64(n), true, nil
		}
	}
	return 0, false, fmt.Errorf("unstructured: %s is %s, not an int64", path(fields), typeOf(v))
}

// NestedStringSlice returns a copy of the array of strings at fields.
func NestedStringSlice(obj map[string]any, fields ...string) ([]string, bool, error) {
	v, ok, err := NestedFieldNoCopy(obj, fields...)
	if !ok || err != nil {
		return nil, ok, err
	}
	switch s := v.(type) {
	case []string:
		return append([]string(nil), s...), true, nil
	case []any:
		out := make([]string, len(s))
		for i, e := range s {
			str, ok := e.(string)
			if !ok {
				return nil, false, fmt.Errorf("unstructured: %s[%d] is %s, not a string", path(fields), i, typeOf(e))
			}
			out[i] = str
		}
		return out, true, nil
	}
	return nil, false, fmt.Errorf("unstructured: %s is %s, not an array of strings", path(fields), typeOf(v))
}

// NestedStringMap returns a copy of the map of strings at fields.
func NestedStringMap(obj map[string]any, fields ...string) (map[string]string, bool, error) {
	v, ok, err := NestedFieldNoCopy(obj, fields...)
	if !ok || err != nil {
		return nil, ok, err
	}
	switch m := v.(type) {
	case map[string]string:
		out := make(map[string]string, len(m))
		for k, s := range m {
			out[k] = s
		}
		return out, true, nil
	case map[string]any:
		out := make(map[string]string, len(m))
		for k, e := range m {
			str, ok := e.(string)
			if !ok {
				return nil, false, fmt.Errorf("unstructured: %s.%s is %s, not a string", path(fields), k, typeOf(e))
			}
			out[k] = str
		}
		return out, true, nil
	}
	return nil, false, fmt.Errorf("unstructured: %s is %s, not a map of strings", path(fields), typeOf(v))
}

// NestedSlice returns a deep copy of the array at fields.
func NestedSlice(obj map[string]any, fields ...string) ([]any, bool, error) {
	s, ok, err := nested[[]any](obj, "an array", fields)
	if !ok || err != nil {
		return nil, ok, err
	}
	return DeepCopyJSONValue(s).([]any), true, nil
}

// NestedMap returns a deep copy of the map at fields.
func NestedMap(obj map[string]any, fields ...string) (map[string]any, bool, error) {
	m, ok, err := nested[map[string]any](obj, "a map", fields)
	if !ok || err != nil {
		return nil, ok, err
	}
	return DeepCopyJSON(m), true, nil
}

// SetNestedField stores a deep copy of value at fields, creating the maps
// on the way. It fails, changing nothing, when a value on the way is not a
// map, or when obj is nil (there is nowhere to store) or fields empty.
func SetNestedField(obj map[string]any, value any, fields ...string) error {
	if obj == nil || len(fields) == 0 {
		return fmt.Errorf("unstructured: cannot set %s in a nil map or at an empty path", path(fields))
	}
	m := obj
	for i, f := range fields[:len(fields)-1] {
		v, ok := m[f]
		if !ok || v == nil {
			for _, g := range fields[i : len(fields)-1] {
				next := make(map[string]any)
				m[g] = next
				m = next
			}
			break
		}
		next, ok := v.(map[string]any)
		if !ok {
			return fmt.Errorf("unstructured: cannot set %s: %s is %s, not a map", path(fields), path(fields[:i+1]), typeOf(v))
		}
		m = next
	}
	m[fields[len(fields)-1]] = DeepCopyJSONValue(value)
	return nil
}

// SetNestedStringSlice stores a copy of value at fields as an array.
func SetNestedStringSlice(obj map[string]any, value []string, fields ...string) error {
	v := make([]any, len(value))
	for i, s := range value {
		v[i] = s
	}
	return SetNestedField(obj, v, fields...)
}

// SetNestedStringMap stores a copy of value at fields as a map.
func SetNestedStringMap(obj map[string]any, value map[string]string, fields ...string) error {
	v := make(map[string]any, len(value))
	for k, s := range value {
		v[k] = s
	}
	return SetNestedField(obj, v, fields...)
}

// SetNestedSlice stores a deep copy of value at fields.
func SetNestedSlice(obj map[string]any, value []any, fields ...string) error {
	return SetNestedField(obj, value, fields...)
}

// SetNestedMap stores a deep copy of value at fields.
func SetNestedMap(obj map[string]any, value map[string]any, fields ...string) error {
	return SetNestedField(obj, value, fields...)
}

// RemoveNestedField deletes the field at fields, if it is there.
func RemoveNestedField(obj map[string]any, fields ...string) {
	if len(fields) == 0 {
		return
	}
	m := obj
	for _, f := range fields[:len(fields)-1] {
		next, ok := m[f].(map[string]any)
		if !ok {
			return
		}
		m = next
	}
	delete(m, fields[len(fields)-1])
}

// DeepCopyJSON returns a deep copy of m (nil for nil).
func DeepCopyJSON(m map[string]any) map[string]any {
	if m == nil {
		return nil
	}
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = DeepCopyJSONValue(v)
	}
	return out
}

// DeepCopyJSONValue returns a deep copy of a JSON-shaped value: maps and
// arrays are copied recursively (also map[string]string and []string,
// which callers store). Other values are returned as they are, which
// copies every scalar; unlike apimachinery it never panics, so a pointer a
// caller stored stays shared.
func DeepCopyJSONValue(v any) any {
	switch v := v.(type) {
	case map[string]any:
		if v == nil {
			return v
		}
		return DeepCopyJSON(v)
	case []any:
		if v == nil {
			return v
		}
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = DeepCopyJSONValue(e)
		}
		return out
	case map[string]string:
		if v == nil {
			return v
		}
		out := make(map[string]string, len(v))
		for k, s := range v {
			out[k] = s
		}
		return out
	case []string:
		if v == nil {
			return v
		}
		return append([]string{}, v...)
	}
	return v
}

func path(fields []string) string {
	if len(fields) == 0 {
		return "the object"
	}
	return "." + strings.Join(fields, ".")
}

func typeOf(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case map[string]any:
		return "a map"
	case []any:
		return "an array"
	case json.Number:
		return "a json.Number"
	}
	return fmt.Sprintf("%T", v)
}
