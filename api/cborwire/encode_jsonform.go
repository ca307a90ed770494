package cborwire

import (
	"encoding/binary"
	"math"
	"slices"
	"unicode/utf8"
)

// maxExactInt is 2^63: integral float64 values below it in magnitude
// are written by the JSON encoder as integer literals that fit int64.
const maxExactInt = 1 << 63

// AppendJSONForm appends the CBOR of v, a value of the form Unstructured
// holds, byte for byte as FromJSON would write v's JSON: map keys
// sorted, text strings, integral numbers that fit int64 as integers,
// other numbers as float64, nil maps and slices as null. It reports
// false, having appended nothing usable, when v holds a value whose JSON
// form it does not mirror exactly (invalid UTF-8, a float32, a uint64
// past int64, NaN, another Go type, nesting past DefaultMaxDepth); the
// caller then converts the JSON instead.
func AppendJSONForm(b []byte, v any) ([]byte, bool) {
	return appendJSONForm(b, v, 1)
}

// AppendMapHead appends the head of a definite-length map of n members.
func AppendMapHead(b []byte, n int) []byte {
	return appendHead(b, majorMap, uint64(n))
}

func appendJSONForm(b []byte, v any, depth int) ([]byte, bool) {
	if depth > DefaultMaxDepth {
		return nil, false
	}
	ok := true
	switch v := v.(type) {
	case nil:
		return append(b, valNull), true
	case bool:
		if v {
			return append(b, valTrue), true
		}
		return append(b, valFalse), true
	case string:
		if !utf8.ValidString(v) { // the JSON would carry U+FFFD
			return nil, false
		}
		return append(appendHead(b, majorText, uint64(len(v))), v...), true
	case int64:
		return appendInt(b, v), true
	case int:
		return appendInt(b, int64(v)), true
	case int32:
		return appendInt(b, int64(v)), true
	case float64:
		switch {
		case math.IsNaN(v) || math.IsInf(v, 0):
			return nil, false
		case v == math.Trunc(v) && math.Abs(v) < maxExactInt: // the JSON reader takes -2^63 as a float
			return appendInt(b, int64(v)), true
		}
		return binary.BigEndian.AppendUint64(append(b, 0xfb), math.Float64bits(v)), true
	case []any:
		if v == nil {
			return append(b, valNull), true
		}
		b = appendHead(b, majorArray, uint64(len(v)))
		for _, e := range v {
			if b, ok = appendJSONForm(b, e, depth+1); !ok {
				return nil, false
			}
		}
		return b, true
	case map[string]any:
		if v == nil {
			return append(b, valNull), true
		}
		var small [16]string
		keys := small[:0]
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		b = appendHead(b, majorMap, uint64(len(v)))
		for _, k := range keys {
			if b, ok = appendJSONForm(b, k, depth+1); !ok {
				return nil, false
			}
			if b, ok = appendJSONForm(b, v[k], depth+1); !ok {
				return nil, false
			}
		}
		return b, true
	}
	return nil, false
}
