package main

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/kubewire/kubewire/api/cborwire"
	"github.com/kubewire/kubewire/api/jsonwire"
	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/api/wire"
	shapesv1 "github.com/kubewire/kubewire/cmd/kubewire-gen/testdata/api/v1"
	"github.com/kubewire/kubewire/codec"
)

// dupWidget is the full widget as a JSON tree, with the members the
// duplicate-key cases reach that fullWidget leaves empty: managedFields,
// an apiextensions JSON member, and keys that name no field.
func dupWidget(t testing.TB) map[string]any {
	t.Helper()
	js, err := codec.EncodeJSON(fullWidget())
	if err != nil {
		t.Fatal(err)
	}
	d := jsonwire.NewDecoder(js, nil)
	obj, _ := d.Any().(map[string]any)
	if err := d.End(); err != nil || obj == nil {
		t.Fatalf("widget JSON: %v", err)
	}
	meta := obj["metadata"].(map[string]any)
	meta["managedFields"] = []any{map[string]any{
		"manager": "m", "operation": "Update",
		"fieldsV1": map[string]any{"f:spec": map[string]any{"f:size": map[string]any{}, "f:name": map[string]any{}}},
	}}
	spec := obj["spec"].(map[string]any)
	spec["config"] = map[string]any{"a": map[string]any{"b": int64(1), "c": "d"}}
	spec["surplus"] = map[string]any{"inner": []any{map[string]any{"y": int64(1), "z": "2"}}}
	obj["surplus"] = int64(1)
	return obj
}

// dupEntry says where a map gets one of its keys a second time: the
// path to the map (keys, and indexes into arrays), the key, and how the
// second key is written.
type dupEntry struct {
	name string
	path []any
	key  string
	// keyForm is how the repeated key is written: 2 a byte string (as
	// every other key), 3 a text string, 31 an indefinite text string.
	keyForm int
}

// appendWithDup writes v as CBOR in key order, with the entry of
// dup.key written twice (the same value both times) in the map at path
// at.
func appendWithDup(t testing.TB, b []byte, v any, at []any, dup dupEntry) []byte {
	switch v := v.(type) {
	case map[string]any:
		keys := sortedKeys(v)
		here := dup.key != "" && len(at) == 0
		n := len(keys)
		if here {
			if _, ok := v[dup.key]; !ok {
				t.Fatalf("%s: no key %q at the path", dup.name, dup.key)
			}
			n++
		}
		b = append(b, cborHead(5, n)...)
		for _, k := range keys {
			var next []any
			if !here && len(at) > 0 && at[0] == k {
				next = at[1:]
			}
			b = append(append(b, cborHead(2, len(k))...), k...)
			if len(next) > 0 || (next != nil && dup.key != "") {
				b = appendWithDup(t, b, v[k], next, dup)
			} else {
				b = appendWithDup(t, b, v[k], nil, dupEntry{})
			}
			if here && k == dup.key {
				b = appendKey(b, k, dup.keyForm)
				b = appendWithDup(t, b, v[k], nil, dupEntry{})
			}
		}
		return b
	case []any:
		b = append(b, cborHead(4, len(v))...)
		for i, e := range v {
			if len(at) > 0 && at[0] == i {
				b = appendWithDup(t, b, e, at[1:], dup)
			} else {
				b = appendWithDup(t, b, e, nil, dupEntry{})
			}
		}
		return b
	case string:
		return append(append(b, cborHead(3, len(v))...), v...)
	}
	if dup.key != "" {
		t.Fatalf("%s: the path ends at a %T", dup.name, v)
	}
	out, err := cborwire.AppendValue(b, v)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func appendKey(b []byte, k string, form int) []byte {
	switch form {
	case 3:
		return append(append(b, cborHead(3, len(k))...), k...)
	case 31:
		// Two chunks: the decoder joins them in scratch.
		b = append(b, 0x7f)
		half := len(k) / 2
		b = append(append(b, cborHead(3, half)...), k[:half]...)
		b = append(append(b, cborHead(3, len(k)-half)...), k[half:]...)
		return append(b, 0xff)
	}
	return append(append(b, cborHead(2, len(k))...), k...)
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	for i := 1; i < len(keys); i++ {
		for j := i; j > 0 && keys[j] < keys[j-1]; j-- {
			keys[j], keys[j-1] = keys[j-1], keys[j]
		}
	}
	return keys
}

// A map that holds a key twice is refused by the generated typed
// decoders (plain and read-only) and by the dynamic decoder alike, as
// kube-apiserver's CBOR decoder refuses it, with an error naming the key
// that matches wire.ErrMalformed; wherever the map is: the object, its
// metadata, labels, a nested struct, a list item, a map field, a member
// held as raw JSON, managedFields, keys naming no field; however the
// repeated key is written.
func TestGeneratedCBORRefusesDuplicateKeys(t *testing.T) {
	obj := dupWidget(t)
	// The same object without a duplicate decodes both ways: a refusal
	// below is the duplicate's doing.
	clean := appendWithDup(t, cborwire.AppendSelfDescribed(nil), obj, nil, dupEntry{})
	if err := cborwire.Decode(clean, new(shapesv1.Widget), nil); err != nil {
		t.Fatalf("typed decode of the object without duplicates: %v", err)
	}
	// A read-only table that holds the object's values already: what it
	// shares must not stand in for a map that holds a key twice.
	table := &wire.Decoder{ReadOnly: true}
	if err := cborwire.Decode(clean, new(shapesv1.Widget), table); err != nil {
		t.Fatalf("read-only decode of the object without duplicates: %v", err)
	}
	if err := cborwire.Decode(clean, new(unstructured.Unstructured), nil); err != nil {
		t.Fatalf("dynamic decode of the object without duplicates: %v", err)
	}
	cases := []dupEntry{
		{name: "top level", key: "spec"},
		{name: "top level, unknown key", key: "surplus"},
		{name: "metadata", path: []any{"metadata"}, key: "name"},
		{name: "labels", path: []any{"metadata", "labels"}, key: "app"},
		{name: "managedFields entry", path: []any{"metadata", "managedFields", 0}, key: "manager"},
		{name: "fieldsV1", path: []any{"metadata", "managedFields", 0, "fieldsV1", "f:spec"}, key: "f:size"},
		{name: "spec, embedded struct member", path: []any{"spec"}, key: "paused"},
		{name: "spec, unknown key", path: []any{"spec"}, key: "surplus"},
		{name: "inside the value of an unknown key", path: []any{"spec", "surplus", "inner", 0}, key: "z"},
		{name: "nested struct", path: []any{"spec", "thing"}, key: "data"},
		{name: "anonymous struct", path: []any{"spec", "anonymous"}, key: "inner"},
		{name: "pod template spec", path: []any{"spec", "template", "spec"}, key: "containers"},
		{name: "list item", path: []any{"spec", "ports", 0}, key: "port"},
		{name: "container", path: []any{"spec", "template", "spec", "containers", 0}, key: "image"},
		{name: "condition", path: []any{"status", "conditions", 0}, key: "type"},
		{name: "map of strings", path: []any{"spec", "labels"}, key: "k"},
		{name: "map of slices", path: []any{"spec", "routes"}, key: "r"},
		{name: "resource list", path: []any{"spec", "limits"}, key: "cpu"},
		{name: "label selector", path: []any{"spec", "selector", "matchLabels"}, key: "app"},
		{name: "raw extension", path: []any{"spec", "extra"}, key: "x"},
		{name: "apiextensions JSON", path: []any{"spec", "config", "a"}, key: "b"},
		{name: "untyped value", path: []any{"spec", "values", "list", 1}, key: "b"},
		{name: "text key", path: []any{"metadata"}, key: "namespace", keyForm: 3},
		{name: "indefinite key", path: []any{"spec"}, key: "size", keyForm: 31},
		{name: "indefinite key, unknown", path: []any{"spec"}, key: "surplus", keyForm: 31},
		{name: "indefinite key, labels", path: []any{"metadata", "labels"}, key: "app", keyForm: 31},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := appendWithDup(t, cborwire.AppendSelfDescribed(nil), obj, c.path, c)
			checkDuplicate(t, "typed", c.key, cborwire.Decode(in, new(shapesv1.Widget), nil))
			checkDuplicate(t, "typed read-only", c.key, cborwire.Decode(in, new(shapesv1.Widget), &wire.Decoder{ReadOnly: true}))
			checkDuplicate(t, "typed read-only, warm table", c.key, cborwire.Decode(in, new(shapesv1.Widget), table))
			checkDuplicate(t, "dynamic", c.key, cborwire.Decode(in, new(unstructured.Unstructured), nil))
		})
	}
}

// checkDuplicate checks that err refuses a duplicate of key.
func checkDuplicate(t *testing.T, who string, key string, err error) {
	t.Helper()
	if err == nil {
		t.Fatalf("%s decode took a map holding %q twice", who, key)
	}
	if !errors.Is(err, wire.ErrMalformed) {
		t.Errorf("%s decode: %v does not match wire.ErrMalformed", who, err)
	}
	if want := "duplicate key " + strconv.Quote(key); !strings.Contains(err.Error(), want) {
		t.Errorf("%s decode: %q does not say %s", who, err, want)
	}
}
