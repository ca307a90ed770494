package object

import (
	"encoding/json"
	"maps"
	"reflect"
	"slices"
	"strings"
	"time"
)

// kube-apiserver reads a built-in object's timestamps strictly: a Time
// in RFC 3339 to the second, a MicroTime to the microsecond; anything
// else, "" included, fails the decode with time.Parse's words. The
// project's Go types accept more (a client reads what servers send), so
// the fake checks the server's way before storing.

// layout is the time layout kube-apiserver parses a timestamp type
// with, or "" when rt is not one.
func layout(rt reflect.Type) string {
	if rt.PkgPath() != "github.com/kubewire/kubewire/api/meta/v1" {
		return ""
	}
	switch rt.Name() {
	case "Time":
		return time.RFC3339
	case "MicroTime":
		return "2006-01-02T15:04:05.000000Z07:00"
	}
	return ""
}

// TimeParseError returns the error kube-apiserver's decoding gives for
// the first timestamp of v (a decoded JSON value of Go type rt, in
// field order) that does not parse, or nil.
func TimeParseError(rt reflect.Type, v any) error {
	for rt.Kind() == reflect.Pointer {
		rt = rt.Elem()
	}
	if l := layout(rt); l != "" {
		s, ok := v.(string)
		if !ok {
			return nil
		}
		_, err := time.Parse(l, s)
		return err
	}
	if reflect.PointerTo(rt).Implements(reflect.TypeFor[json.Unmarshaler]()) {
		return nil // a type with its own decoder reads its own value
	}
	switch rt.Kind() {
	case reflect.Struct:
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		fields := JSONFields(rt)
		for _, k := range slices.Sorted(maps.Keys(m)) {
			if ft, ok := fields[k]; ok {
				if err := TimeParseError(ft, m[k]); err != nil {
					return err
				}
			}
		}
	case reflect.Map:
		if m, ok := v.(map[string]any); ok {
			for _, k := range slices.Sorted(maps.Keys(m)) {
				if err := TimeParseError(rt.Elem(), m[k]); err != nil {
					return err
				}
			}
		}
	case reflect.Slice, reflect.Array:
		if l, ok := v.([]any); ok {
			for _, e := range l {
				if err := TimeParseError(rt.Elem(), e); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// JSONFields maps a struct's JSON field names to their Go types,
// embedded inline structs included.
func JSONFields(rt reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for i := range rt.NumField() {
		f := rt.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" || (!f.IsExported() && !f.Anonymous) {
			continue
		}
		if f.Anonymous && name == "" {
			et := f.Type
			for et.Kind() == reflect.Pointer {
				et = et.Elem()
			}
			if et.Kind() == reflect.Struct {
				maps.Copy(out, JSONFields(et))
				continue
			}
		}
		if name == "" {
			name = f.Name
		}
		out[name] = f.Type
	}
	return out
}

// JSONField finds a struct's field by its JSON name, embedded inline
// structs included.
func JSONField(rt reflect.Type, name string) (reflect.StructField, bool) {
	for i := range rt.NumField() {
		f := rt.Field(i)
		tagName, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if f.Anonymous && tagName == "" {
			et := f.Type
			for et.Kind() == reflect.Pointer {
				et = et.Elem()
			}
			if et.Kind() == reflect.Struct {
				if sf, ok := JSONField(et, name); ok {
					return sf, true
				}
				continue
			}
		}
		if tagName == name {
			return f, true
		}
	}
	return reflect.StructField{}, false
}
