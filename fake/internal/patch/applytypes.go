package patch

import (
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/kubewire/kubewire/fake/internal/fieldpath"
	"github.com/kubewire/kubewire/fake/internal/object"
)

// kube-apiserver's field manager reads an applied configuration as a
// typed value of the kind's schema before it merges anything; a value of
// the wrong type is a 500 naming its path. applyTypeErrors walks the
// applied object along the kind's Go type (for scalar types) and its
// field management shape (for list keys), and words each mismatch as
// that schema check does.

type applyTypeWalker struct {
	errs []string
}

var unmarshalerType = reflect.TypeFor[json.Unmarshaler]()

// applyTypeErrors returns "PATH: MESSAGE" for every value of applied
// whose type does not match the kind's (rt, its Go struct type).
func applyTypeErrors(applied map[string]any, rt reflect.Type, ft *fieldpath.Type) []string {
	w := &applyTypeWalker{}
	w.walk(applied, rt, ft, "")
	return w.errs
}

func (w *applyTypeWalker) fail(path, format string, args ...any) {
	w.errs = append(w.errs, path+": "+fmt.Sprintf(format, args...))
}

// scalarClass is the schema's scalar type of a Go type: "string",
// "numeric", "boolean", "untyped", or "" when it is not a scalar (or
// not one this check knows).
func scalarClass(rt reflect.Type) string {
	if reflect.PointerTo(rt).Implements(unmarshalerType) {
		switch rt.Name() {
		case "Time", "MicroTime", "Duration":
			return "string"
		case "IntOrString", "Quantity":
			return "untyped"
		}
		return ""
	}
	switch rt.Kind() {
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		return "numeric"
	case reflect.Slice:
		if rt.Elem().Kind() == reflect.Uint8 {
			return "string"
		}
	}
	return ""
}

// valueString prints a value as the schema check's %v of its wrapper.
func valueString(v any) string { return fmt.Sprintf("&{%v}", v) }

func (w *applyTypeWalker) walk(v any, rt reflect.Type, ft *fieldpath.Type, path string) {
	if v == nil {
		return
	}
	for rt.Kind() == reflect.Pointer {
		rt = rt.Elem()
	}
	switch scalarClass(rt) {
	case "string":
		if _, ok := v.(string); !ok {
			w.fail(path, "expected string, got &value.valueUnstructured{Value:%#v}", v)
		}
		return
	case "numeric":
		switch v.(type) {
		case int64, float64:
		default:
			w.fail(path, "expected numeric (int or float), got %T", v)
		}
		return
	case "boolean":
		if _, ok := v.(bool); !ok {
			w.fail(path, "expected boolean, got %s", valueString(v))
		}
		return
	case "untyped":
		switch v.(type) {
		case map[string]any, []any:
			w.fail(path, "expected any scalar, got %s", valueString(v))
		}
		return
	}
	if reflect.PointerTo(rt).Implements(unmarshalerType) {
		// A type with its own decoder (apiextensions' JSON, a raw
		// extension) takes any value here.
		return
	}
	switch rt.Kind() {
	case reflect.Struct:
		m, ok := v.(map[string]any)
		if !ok {
			w.fail(path, "expected map, got %s", valueString(v))
			return
		}
		fields := object.JSONFields(rt)
		for _, k := range slices.Sorted(maps.Keys(m)) {
			f, ok := fields[k]
			if !ok {
				continue // unknown fields are reported on their own
			}
			var sub *fieldpath.Type
			if ft != nil {
				sub = ft.Fields[k]
			}
			w.walk(m[k], f, sub, path+"."+k)
		}
	case reflect.Map:
		m, ok := v.(map[string]any)
		if !ok {
			w.fail(path, "expected map, got %s", valueString(v))
			return
		}
		var sub *fieldpath.Type
		if ft != nil {
			sub = ft.Elem
		}
		for _, k := range slices.Sorted(maps.Keys(m)) {
			w.walk(m[k], rt.Elem(), sub, path+"."+k)
		}
	case reflect.Slice, reflect.Array:
		l, ok := v.([]any)
		if !ok {
			w.fail(path, "expected list, got %s", valueString(v))
			return
		}
		var sub *fieldpath.Type
		if ft != nil {
			sub = ft.Elem
		}
		associative := ft != nil && ft.Kind == fieldpath.List && !ft.Atomic && (len(ft.Keys) > 0 || ft.ListSet)
		for i, item := range l {
			elem := "[" + strconv.Itoa(i) + "]"
			if associative {
				pe, msg := itemPath(ft, rt.Elem(), item)
				if msg != "" {
					w.fail(path, "element %d: %s", i, msg)
					return
				}
				elem = pe.String()
			}
			w.walk(item, rt.Elem(), sub, path+elem)
		}
	}
}

// itemPath is an associative list item's path element, or the reason
// it has none. A key field the item omits takes its schema default:
// recorded, or the zero value of a required field (kube-apiserver's
// OpenAPI gives those one).
func itemPath(ft *fieldpath.Type, elem reflect.Type, item any) (fieldpath.PathElement, string) {
	if len(ft.Keys) > 0 {
		m, isMap := item.(map[string]any)
		switch {
		case item == nil:
			return "", "associative list with keys may not have a null element"
		case !isMap:
			return "", "associative list with keys may not have non-map elements"
		}
		if pe, ok := ft.ItemElement(item); ok {
			return pe, ""
		}
		keys := map[string]any{}
		for _, k := range ft.Keys {
			if v, ok := m[k]; ok {
				keys[k] = v
			} else if d, ok := requiredZero(elem, k); ok {
				keys[k] = d
			}
		}
		if len(keys) > 0 {
			return fieldpath.Key(keys), ""
		}
		quoted := make([]string, len(ft.Keys))
		for i, k := range ft.Keys {
			quoted[i] = strconv.Quote(k)
		}
		return "", fmt.Sprintf("associative list with keys has an element that omits all key fields [%s] (and doesn't have default values for any key fields)", strings.Join(quoted, " "))
	}
	switch item.(type) {
	case map[string]any:
		return "", "associative list without keys has an element that's a map type"
	case []any:
		return "", "not supported: associative list with lists as elements"
	case nil:
		return "", "associative list without keys has an element that's an explicit null"
	}
	pe, _ := ft.ItemElement(item)
	return pe, ""
}

// requiredZero is the zero value of a struct's required scalar field
// (no omitempty, not a pointer), named by its JSON name.
func requiredZero(rt reflect.Type, name string) (any, bool) {
	for rt.Kind() == reflect.Pointer {
		rt = rt.Elem()
	}
	if rt.Kind() != reflect.Struct {
		return nil, false
	}
	f, ok := object.JSONField(rt, name)
	if !ok {
		return nil, false
	}
	_, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
	if strings.Contains(opts, "omitempty") || f.Type.Kind() == reflect.Pointer {
		return nil, false
	}
	switch scalarClass(f.Type) {
	case "string":
		return "", true
	case "numeric":
		return int64(0), true
	case "boolean":
		return false, true
	}
	return nil, false
}
