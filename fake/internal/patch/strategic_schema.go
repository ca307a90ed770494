package patch

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
)

// field is the schema of a field whose value is an object, its patch
// strategy and merge key.
func (s Schema) field(name string) (Schema, string, string, error) {
	t := s.Type
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil {
		return Schema{}, "", "", nil
	}
	if t.Kind() != reflect.Struct {
		return Schema{}, "", "", fmt.Errorf("merging an object in json but data type is not struct, instead is: %s", t.Kind())
	}
	f, jsonName, ok := fieldByJSONName(t, name)
	if !ok {
		return Schema{}, "", "", fmt.Errorf("unable to find api field in struct %s for the json field %q", t.Name(), name)
	}
	meta, strategy, mergeKey := s.Meta.Field(jsonName)
	return Schema{Type: f, Meta: meta}, strategy, mergeKey, nil
}

// sliceField is the schema of the items of a list field, the field's
// patch strategy and merge key.
func (s Schema) sliceField(name string) (Schema, string, string, error) {
	sub, strategy, mergeKey, err := s.field(name)
	if err != nil || sub.Type == nil {
		return sub, strategy, mergeKey, err
	}
	t := sub.Type
	switch t.Kind() {
	case reflect.Array, reflect.Slice:
		t = t.Elem()
		if t.Kind() == reflect.Array || t.Kind() == reflect.Slice {
			return Schema{}, "", "", errors.New("unexpected slice of slice")
		}
	case reflect.Pointer:
		t = t.Elem()
		if t.Kind() == reflect.Array || t.Kind() == reflect.Slice {
			t = t.Elem()
		}
	default:
		return Schema{}, "", "", fmt.Errorf("expected slice or array type, but got: %s", s.structKind())
	}
	return Schema{Type: t, Meta: sub.Meta}, strategy, mergeKey, nil
}

func (s Schema) structKind() string {
	if s.Type == nil {
		return "struct"
	}
	return s.Type.Kind().String()
}

func (s Schema) kindName() string {
	if s.Type == nil {
		return "interface"
	}
	return s.Type.Kind().String()
}

// fieldByJSONName finds the field JSON decoding would use: by its exact
// JSON name, else ignoring case; embedded structs' fields count as the
// outer struct's.
func fieldByJSONName(t reflect.Type, name string) (reflect.Type, string, bool) {
	var fold reflect.Type
	foldName := ""
	var walk func(t reflect.Type) (reflect.Type, string, bool)
	walk = func(t reflect.Type) (reflect.Type, string, bool) {
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			tag := f.Tag.Get("json")
			if tag == "-" {
				continue
			}
			n, _, _ := strings.Cut(tag, ",")
			ft := f.Type
			if f.Anonymous && n == "" {
				et := ft
				if et.Kind() == reflect.Pointer {
					et = et.Elem()
				}
				if et.Kind() == reflect.Struct {
					if r, rn, ok := walk(et); ok {
						return r, rn, true
					}
					continue
				}
			}
			if !f.IsExported() {
				continue
			}
			if n == "" {
				n = f.Name
			}
			if n == name {
				return ft, n, true
			}
			if fold == nil && strings.EqualFold(n, name) {
				fold, foldName = ft, n
			}
		}
		return nil, "", false
	}
	if r, n, ok := walk(t); ok {
		return r, n, true
	}
	return fold, foldName, fold != nil
}
