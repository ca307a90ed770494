package cborwire

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"
)

// AppendSelfDescribed appends the head of the self-described tag.
func AppendSelfDescribed(b []byte) []byte { return append(b, 0xd9, 0xd9, 0xf7) }

// AppendValue appends the CBOR of v, a value of the form Unstructured
// holds (map[string]any, []any, string, bool, nil, int64, float64 and
// the other Go integer and float types), with map keys sorted.
func AppendValue(b []byte, v any) ([]byte, error) {
	return appendValue(b, v, 0)
}

func appendValue(b []byte, v any, depth int) ([]byte, error) {
	if depth > DefaultMaxDepth {
		return nil, fmt.Errorf("cborwire: value nested deeper than %d levels", DefaultMaxDepth)
	}
	var err error
	switch v := v.(type) {
	case nil:
		return append(b, valNull), nil
	case bool:
		if v {
			return append(b, valTrue), nil
		}
		return append(b, valFalse), nil
	case string:
		return append(appendHead(b, majorText, uint64(len(v))), v...), nil
	case int64:
		return appendInt(b, v), nil
	case int:
		return appendInt(b, int64(v)), nil
	case int32:
		return appendInt(b, int64(v)), nil
	case uint64:
		return appendHead(b, majorUint, v), nil
	case float64:
		return appendFloat(b, v)
	case float32:
		return appendFloat(b, float64(v))
	case []any:
		b = appendHead(b, majorArray, uint64(len(v)))
		for _, e := range v {
			if b, err = appendValue(b, e, depth+1); err != nil {
				return nil, err
			}
		}
		return b, nil
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		b = appendHead(b, majorMap, uint64(len(v)))
		for _, k := range keys {
			b = append(appendHead(b, majorText, uint64(len(k))), k...)
			if b, err = appendValue(b, v[k], depth+1); err != nil {
				return nil, err
			}
		}
		return b, nil
	}
	return nil, fmt.Errorf("cborwire: cannot encode %T", v)
}

func appendInt(b []byte, v int64) []byte {
	if v >= 0 {
		return appendHead(b, majorUint, uint64(v))
	}
	return appendHead(b, majorNegint, uint64(-1-v))
}

func appendFloat(b []byte, f float64) ([]byte, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return nil, fmt.Errorf("cborwire: cannot encode %v", f)
	}
	return binary.BigEndian.AppendUint64(append(b, 0xfb), math.Float64bits(f)), nil
}

func appendHead(b []byte, major byte, arg uint64) []byte {
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
