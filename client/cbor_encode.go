package client

import (
	"slices"

	"github.com/kubewire/kubewire/api/cborwire"
)

// CBOR bodies of Unstructured objects are written straight from the
// object's maps, without writing JSON and reading it back. The bytes are
// exactly those of the object's JSON converted with cborwire.FromJSON
// (the form kube-apiserver has round-tripped in e2e; see
// TestUnstructuredCBORMatchesConverted): the self-described tag, map keys
// sorted, text strings, integers where the JSON would hold an integer
// literal that fits int64, other numbers as float64. A value whose JSON
// form the walk does not mirror exactly (invalid UTF-8, a float32, a
// uint64 past int64, a Go type other than those Unstructured holds) makes
// it give up, and the write converts the JSON as before.

// unstructuredCBOR returns the CBOR body of obj, with apiVersion and kind
// added where obj has no such member (as codec.WithTypeMeta does to the
// JSON); ok is false when obj holds what the walk leaves to the JSON
// conversion.
func unstructuredCBOR(obj map[string]any, apiVersion, kind string) (body []byte, ok bool) {
	if obj == nil {
		return nil, false
	}
	extra := map[string]any{}
	if _, has := obj["apiVersion"]; !has && apiVersion != "" {
		extra["apiVersion"] = apiVersion
	}
	if _, has := obj["kind"]; !has && kind != "" {
		extra["kind"] = kind
	}
	keys := make([]string, 0, len(obj)+len(extra))
	for k := range obj {
		keys = append(keys, k)
	}
	for k := range extra {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	b := cborwire.AppendSelfDescribed(make([]byte, 0, 1024))
	b = cborwire.AppendMapHead(b, len(keys))
	for _, k := range keys {
		v, top := extra[k]
		if !top {
			v = obj[k]
		}
		if b, ok = cborwire.AppendJSONForm(b, k); !ok {
			return nil, false
		}
		if b, ok = cborwire.AppendJSONForm(b, v); !ok {
			return nil, false
		}
	}
	return b, true
}
