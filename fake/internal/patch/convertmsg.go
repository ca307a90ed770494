package patch

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
)

// kube-apiserver turns a strategic merge patch's result (a map, numbers
// read as int64 or float64) into the typed object with its unstructured
// converter, whose type errors read differently from encoding/json's.

// unstructuredTypeError rewords a JSON type error as kube-apiserver's
// unstructured converter words the same mismatch, or returns "" when err
// is not one it can tell.
func unstructuredTypeError(err error) string {
	var typeErr *json.UnmarshalTypeError
	if !errors.As(err, &typeErr) || typeErr.Type == nil {
		return ""
	}
	src, ok := unstructuredSource(typeErr.Value)
	if !ok {
		return ""
	}
	dst := typeErr.Type
	if reflect.PointerTo(dst).Implements(reflect.TypeFor[json.Unmarshaler]()) {
		// The converter hands these to their own decoders.
		return ""
	}
	switch dst.Kind() {
	case reflect.Struct:
		return "cannot restore struct from: " + src.Kind().String()
	case reflect.Map:
		return "cannot restore map from " + src.Kind().String()
	case reflect.Slice:
		if dst.Elem().Kind() == reflect.Uint8 && src.Kind() == reflect.String {
			return ""
		}
		return "cannot restore slice from " + src.Kind().String()
	case reflect.Interface, reflect.Pointer:
		return ""
	}
	if src.ConvertibleTo(dst) {
		return "cannot convert " + src.String() + " to " + dst.String()
	}
	return "unrecognized type: " + dst.Kind().String()
}

// unstructuredSource is the Go type a JSON value has in the map the
// patch produced.
func unstructuredSource(jsonValue string) (reflect.Type, bool) {
	switch {
	case jsonValue == "string":
		return reflect.TypeFor[string](), true
	case jsonValue == "bool":
		return reflect.TypeFor[bool](), true
	case jsonValue == "object":
		return reflect.TypeFor[map[string]any](), true
	case jsonValue == "array":
		return reflect.TypeFor[[]any](), true
	case jsonValue == "number":
		return reflect.TypeFor[int64](), true
	case strings.HasPrefix(jsonValue, "number "):
		if strings.ContainsAny(jsonValue[len("number "):], ".eE") {
			return reflect.TypeFor[float64](), true
		}
		return reflect.TypeFor[int64](), true
	}
	return nil, false
}
