package client

import (
	"encoding/binary"
	"math"
	"slices"
	"unicode/utf8"

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

// maxExactInt is 2^63: integral float64 values below it in magnitude
// are written by the JSON encoder as integer literals that fit int64.
const maxExactInt = 1 << 63

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
	b = appendCBORHead(b, 5, uint64(len(keys)))
	for _, k := range keys {
		v, top := extra[k]
		if !top {
			v = obj[k]
		}
		if b, ok = appendCBORText(b, k); !ok {
			return nil, false
		}
		if b, ok = appendCBORValue(b, v, 1); !ok {
			return nil, false
		}
	}
	return b, true
}

func appendCBORValue(b []byte, v any, depth int) ([]byte, bool) {
	if depth > cborwire.DefaultMaxDepth {
		return nil, false
	}
	ok := true
	switch v := v.(type) {
	case nil:
		return append(b, 0xf6), true
	case bool:
		if v {
			return append(b, 0xf5), true
		}
		return append(b, 0xf4), true
	case string:
		return appendCBORText(b, v)
	case int64:
		return appendCBORInt(b, v), true
	case int:
		return appendCBORInt(b, int64(v)), true
	case int32:
		return appendCBORInt(b, int64(v)), true
	case float64:
		switch {
		case math.IsNaN(v) || math.IsInf(v, 0):
			return nil, false
		case v == math.Trunc(v) && math.Abs(v) < maxExactInt: // the JSON reader takes -2^63 as a float
			return appendCBORInt(b, int64(v)), true
		}
		return binary.BigEndian.AppendUint64(append(b, 0xfb), math.Float64bits(v)), true
	case []any:
		if v == nil {
			return append(b, 0xf6), true
		}
		b = appendCBORHead(b, 4, uint64(len(v)))
		for _, e := range v {
			if b, ok = appendCBORValue(b, e, depth+1); !ok {
				return nil, false
			}
		}
		return b, true
	case map[string]any:
		if v == nil {
			return append(b, 0xf6), true
		}
		var small [16]string
		keys := small[:0]
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		b = appendCBORHead(b, 5, uint64(len(v)))
		for _, k := range keys {
			if b, ok = appendCBORText(b, k); !ok {
				return nil, false
			}
			if b, ok = appendCBORValue(b, v[k], depth+1); !ok {
				return nil, false
			}
		}
		return b, true
	}
	return nil, false
}

// appendCBORText appends s as a text string; invalid UTF-8 (which the
// JSON would carry as U+FFFD) is left to the conversion.
func appendCBORText(b []byte, s string) ([]byte, bool) {
	if !utf8.ValidString(s) {
		return nil, false
	}
	return append(appendCBORHead(b, 3, uint64(len(s))), s...), true
}

func appendCBORInt(b []byte, v int64) []byte {
	if v >= 0 {
		return appendCBORHead(b, 0, uint64(v))
	}
	return appendCBORHead(b, 1, uint64(-1-v))
}

func appendCBORHead(b []byte, major byte, arg uint64) []byte {
	m := major << 5
	switch {
	case arg < 24:
		return append(b, m|byte(arg))
	case arg <= math.MaxUint8:
		return append(b, m|24, byte(arg))
	case arg <= math.MaxUint16:
		return binary.BigEndian.AppendUint16(append(b, m|25), uint16(arg))
	case arg <= math.MaxUint32:
		return binary.BigEndian.AppendUint32(append(b, m|26), uint32(arg))
	}
	return binary.BigEndian.AppendUint64(append(b, m|27), arg)
}
