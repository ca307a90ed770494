package object

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
)

// UnknownFieldPaths lists, in the order they appear in body, the paths of
// every JSON field that a value of type t does not define, as
// kube-apiserver's strict decoding reports them: object keys joined by
// dots and list indexes in brackets ("spec.template.spec.containers[0].bogus").
// Keys match json tags case-sensitively. Values of types that decode
// themselves (json.Unmarshaler) or of interface types are not looked
// into. A body that is not valid JSON yields the fields found before the
// error; decoding reports the error itself.
func UnknownFieldPaths(body []byte, t reflect.Type) []string {
	w := unknownWalker{dec: json.NewDecoder(bytes.NewReader(body))}
	_ = w.walk(t, "")
	return w.found
}

type unknownWalker struct {
	dec   *json.Decoder
	found []string
}

var unmarshalerType = reflect.TypeFor[json.Unmarshaler]()

func JoinPath(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// walk consumes one JSON value decoded into type t at path.
func (w *unknownWalker) walk(t reflect.Type, path string) error {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil || t.Kind() == reflect.Interface || reflect.PointerTo(t).Implements(unmarshalerType) {
		return w.skip()
	}
	tok, err := w.dec.Token()
	if err != nil {
		return err
	}
	switch tok {
	case json.Delim('{'):
		var fields map[string]reflect.Type
		if t.Kind() == reflect.Struct {
			fields = jsonFields(t, map[string]reflect.Type{})
		}
		for w.dec.More() {
			keyTok, err := w.dec.Token()
			if err != nil {
				return err
			}
			key, _ := keyTok.(string)
			var err2 error
			switch t.Kind() {
			case reflect.Struct:
				if ft, ok := fields[key]; ok {
					err2 = w.walk(ft, JoinPath(path, key))
				} else {
					w.found = append(w.found, JoinPath(path, key))
					err2 = w.skip()
				}
			case reflect.Map:
				err2 = w.walk(t.Elem(), JoinPath(path, key))
			default:
				err2 = w.skip()
			}
			if err2 != nil {
				return err2
			}
		}
		_, err = w.dec.Token() // '}'
		return err
	case json.Delim('['):
		for i := 0; w.dec.More(); i++ {
			var err error
			if t.Kind() == reflect.Slice || t.Kind() == reflect.Array {
				err = w.walk(t.Elem(), path+"["+strconv.Itoa(i)+"]")
			} else {
				err = w.skip()
			}
			if err != nil {
				return err
			}
		}
		_, err = w.dec.Token() // ']'
		return err
	}
	return nil
}

// skip consumes one JSON value.
func (w *unknownWalker) skip() error {
	var raw json.RawMessage
	return w.dec.Decode(&raw)
}

// jsonFields adds the JSON names of a struct's fields to m, with the
// fields of inlined embedded structs, as encoding/json sees them.
func jsonFields(t reflect.Type, m map[string]reflect.Type) map[string]reflect.Type {
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		if name == "" && f.Anonymous {
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				jsonFields(ft, m)
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		m[name] = f.Type
	}
	return m
}
