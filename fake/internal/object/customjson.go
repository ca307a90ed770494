package object

import (
	"encoding/json"
	"errors"
	"slices"

	"github.com/kubewire/kubewire/api/jsonwire"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
)

// A custom resource is written as kube-apiserver writes it, a map
// encoded by encoding/json: every object's keys sorted, its metadata
// included. appendCustom writes it straight into one buffer, the size
// the object is likely to take: encoding/json would build each value in
// a buffer of its own, grown by copying, and the metadata would go
// through maps (managedFields nest as deep as the object), so a large
// object would be held several times over while it is written.

// appendCustom appends the JSON of a custom resource's map, with meta as
// its metadata.
func appendCustom(out []byte, obj map[string]any, meta *metav1.ObjectMeta) ([]byte, error) {
	keys := make([]string, 0, len(obj)+1)
	for k := range obj {
		if k != "metadata" {
			keys = append(keys, k)
		}
	}
	keys = append(keys, "metadata")
	slices.Sort(keys)
	out = append(out, '{')
	var err error
	for i, k := range keys {
		if i > 0 {
			out = append(out, ',')
		}
		out = appendScalar(out, k)
		out = append(out, ':')
		if k == "metadata" {
			out, err = appendMeta(out, meta)
		} else {
			out, err = appendValue(out, obj[k])
		}
		if err != nil {
			return nil, err
		}
	}
	return append(out, '}'), nil
}

// appendValue appends a decoded JSON value as json.Marshal writes it.
func appendValue(out []byte, v any) ([]byte, error) {
	switch v := v.(type) {
	case map[string]any:
		if v == nil {
			return append(out, "null"...), nil
		}
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		out = append(out, '{')
		var err error
		for i, k := range keys {
			if i > 0 {
				out = append(out, ',')
			}
			out = appendScalar(out, k)
			out = append(out, ':')
			if out, err = appendValue(out, v[k]); err != nil {
				return nil, err
			}
		}
		return append(out, '}'), nil
	case []any:
		if v == nil {
			return append(out, "null"...), nil
		}
		out = append(out, '[')
		var err error
		for i, x := range v {
			if i > 0 {
				out = append(out, ',')
			}
			if out, err = appendValue(out, x); err != nil {
				return nil, err
			}
		}
		return append(out, ']'), nil
	}
	e := jsonwire.NewEncoder(out)
	e.Any(v)
	return e.Bytes(), e.Err()
}

// appendScalar appends a value without maps or lists in it.
func appendScalar(out []byte, v any) []byte {
	e := jsonwire.NewEncoder(out)
	e.Any(v)
	return e.Bytes()
}

// appendMeta appends metadata with its keys sorted; the managedFields'
// fieldsV1 are sorted into place rather than decoded.
func appendMeta(out []byte, m *metav1.ObjectMeta) ([]byte, error) {
	rest := *m
	rest.ManagedFields = nil
	small, err := json.Marshal(&rest)
	if err != nil {
		return nil, err
	}
	if small, err = sortKeys(small); err != nil {
		return nil, err
	}
	if len(m.ManagedFields) == 0 {
		return append(out, small...), nil
	}
	return appendWithMember(out, small, "managedFields", func(out []byte) ([]byte, error) {
		out = append(out, '[')
		for i := range m.ManagedFields {
			if i > 0 {
				out = append(out, ',')
			}
			var err error
			if out, err = appendEntry(out, m.ManagedFields[i]); err != nil {
				return nil, err
			}
		}
		return append(out, ']'), nil
	})
}

// appendEntry appends a managedFields entry with its keys sorted.
func appendEntry(out []byte, entry metav1.ManagedFieldsEntry) ([]byte, error) {
	fields := entry.FieldsV1
	entry.FieldsV1 = nil
	small, err := json.Marshal(&entry)
	if err != nil {
		return nil, err
	}
	if small, err = sortKeys(small); err != nil {
		return nil, err
	}
	if fields == nil {
		return append(out, small...), nil
	}
	return appendWithMember(out, small, "fieldsV1", func(out []byte) ([]byte, error) {
		if len(fields.Raw) == 0 {
			return append(out, "null"...), nil
		}
		return appendSortedKeys(out, fields.Raw)
	})
}

// appendWithMember appends obj, a JSON object with sorted keys, with one
// more member in its place: key, and the value value appends.
func appendWithMember(out, obj []byte, key string, value func([]byte) ([]byte, error)) ([]byte, error) {
	closing, err := matchBrackets(obj)
	if err != nil {
		return nil, err
	}
	if len(obj) < 2 || obj[0] != '{' {
		return nil, errors.New("appendWithMember: not an object")
	}
	s := keySorter{b: obj, closing: closing}
	end := closing[0]
	out = append(out, '{')
	n, done := 0, false
	member := func() error {
		if n > 0 {
			out = append(out, ',')
		}
		out = appendScalar(out, key)
		out = append(out, ':')
		var err error
		out, err = value(out)
		n++
		done = true
		return err
	}
	for j := 1; j < end; {
		kEnd, err := stringEnd(obj, j)
		if err != nil {
			return nil, err
		}
		var k string
		if err := json.Unmarshal(obj[j:kEnd], &k); err != nil {
			return nil, err
		}
		vEnd, err := s.skip(kEnd + 1)
		if err != nil {
			return nil, err
		}
		if !done && k > key {
			if err := member(); err != nil {
				return nil, err
			}
		}
		if n > 0 {
			out = append(out, ',')
		}
		out = append(out, obj[j:vEnd]...)
		n++
		j = vEnd
		if j < end && obj[j] == ',' {
			j++
		}
	}
	if !done {
		if err := member(); err != nil {
			return nil, err
		}
	}
	return append(out, '}'), nil
}
