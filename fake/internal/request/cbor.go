package request

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/kubewire/kubewire/api/cborwire"
	"github.com/kubewire/kubewire/api/jsonwire"
)

// The CBOR (KEP-4222) a kube-apiserver v1.36 with the
// CBORServingAndStorage feature gate writes, served when the fake's
// CBOR option is on (see WithCBORGate).

// CBOR major types and the self-described tag's head.
const (
	cborUint   = 0
	cborNeg    = 1
	cborBytes  = 2
	cborArray  = 4
	cborMap    = 5
	cborSimple = 7
)

var selfDescribed = []byte{0xd9, 0xd9, 0xf7}

// maxCBORDepth bounds the nesting the encoder follows, as the JSON
// decoder that produced the value bounds it.
const maxCBORDepth = 10000

// JSONToCBOR returns the CBOR of a JSON document as kube-apiserver
// writes a response: the self-described tag, strings and map keys as
// byte strings, map members in a random order (its encoder shuffles
// them, so a client must not rely on any order), integers as integers
// and floats in the shortest width that holds them exactly.
func JSONToCBOR(js []byte) ([]byte, error) {
	return AppendJSONAsCBOR(nil, js)
}

// AppendJSONAsCBOR appends JSONToCBOR(js) to b.
func AppendJSONAsCBOR(b, js []byte) ([]byte, error) {
	var c cborTranscoder
	return c.appendValue(append(b, selfDescribed...), js)
}

// cborTranscoder turns JSON documents into kube-apiserver's CBOR,
// keeping its scratch (the JSON decoder, the map keys being shuffled)
// from one document to the next. The zero value is ready to use.
type cborTranscoder struct {
	d    *jsonwire.Decoder
	keys []string // a stack: the keys of the maps being written
}

// appendValue appends the CBOR of js without the self-described tag,
// as a value nested in another is written.
func (c *cborTranscoder) appendValue(b, js []byte) ([]byte, error) {
	if c.d == nil {
		c.d = jsonwire.NewDecoder(js, nil)
	} else {
		c.d.Reset(js)
	}
	v := c.d.Any()
	if err := c.d.End(); err != nil {
		return nil, err
	}
	return c.appendCBOR(b, v, 0)
}

func (c *cborTranscoder) appendCBOR(b []byte, v any, depth int) ([]byte, error) {
	if depth > maxCBORDepth {
		return nil, errors.New("value nested too deeply")
	}
	var err error
	switch v := v.(type) {
	case nil:
		return append(b, 0xf6), nil
	case bool:
		if v {
			return append(b, 0xf5), nil
		}
		return append(b, 0xf4), nil
	case string:
		return append(cborwire.AppendHead(b, cborBytes, uint64(len(v))), v...), nil
	case int64:
		if v < 0 {
			return cborwire.AppendHead(b, cborNeg, uint64(-(v + 1))), nil
		}
		return cborwire.AppendHead(b, cborUint, uint64(v)), nil
	case float64:
		return appendCBORFloat(b, v)
	case []any:
		b = cborwire.AppendHead(b, cborArray, uint64(len(v)))
		for _, e := range v {
			if b, err = c.appendCBOR(b, e, depth+1); err != nil {
				return nil, err
			}
		}
		return b, nil
	case map[string]any:
		start := len(c.keys)
		for k := range v {
			c.keys = append(c.keys, k)
		}
		keys := c.keys[start:]
		rand.Shuffle(len(keys), func(i, j int) { keys[i], keys[j] = keys[j], keys[i] })
		b = cborwire.AppendHead(b, cborMap, uint64(len(v)))
		for i := start; i < start+len(v); i++ {
			k := c.keys[i] // c.keys may grow under the nested maps
			b = append(cborwire.AppendHead(b, cborBytes, uint64(len(k))), k...)
			if b, err = c.appendCBOR(b, v[k], depth+1); err != nil {
				return nil, err
			}
		}
		c.keys = c.keys[:start]
		return b, nil
	}
	return nil, fmt.Errorf("cannot encode %T as CBOR", v)
}

// appendCBORFloat writes f as a half, single or double, the narrowest
// that holds it exactly.
func appendCBORFloat(b []byte, f float64) ([]byte, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return nil, fmt.Errorf("cannot encode %v as CBOR", f)
	}
	f32 := float32(f)
	if float64(f32) != f {
		return binary.BigEndian.AppendUint64(append(b, cborSimple<<5|27), math.Float64bits(f)), nil
	}
	if h, ok := exactHalf(f32); ok {
		return binary.BigEndian.AppendUint16(append(b, cborSimple<<5|25), h), nil
	}
	return binary.BigEndian.AppendUint32(append(b, cborSimple<<5|26), math.Float32bits(f32)), nil
}

// exactHalf returns the IEEE 754 half-precision bits of f when a half
// holds f exactly.
func exactHalf(f float32) (uint16, bool) {
	bits := math.Float32bits(f)
	sign := uint16(bits>>16) & 0x8000
	exp := int(bits>>23&0xff) - 127
	mant := bits & 0x7fffff
	var h uint16
	switch {
	case bits&0x7fffffff == 0:
		return sign, true
	case exp >= -14 && exp <= 15:
		h = sign | uint16(exp+15)<<10 | uint16(mant>>13)
	case exp < -14 && exp >= -24:
		h = sign | uint16((mant|0x800000)>>(13-14-exp))
	default:
		return 0, false
	}
	return h, halfValue(h) == f
}

// halfValue is the value of half-precision bits h.
func halfValue(h uint16) float32 {
	mag := float32(0)
	exp := int(h >> 10 & 0x1f)
	mant := float64(h & 0x3ff)
	if exp == 0 {
		mag = float32(math.Ldexp(mant, -24))
	} else {
		mag = float32(math.Ldexp(1024+mant, exp-25))
	}
	if h&0x8000 != 0 {
		return -mag
	}
	return mag
}

// AppendCBOREvent appends a watch event of an application/cbor-seq
// stream as kube-apiserver writes it: a self-described map of "type" and
// "object" (in a random order), the object, given as JSON, self-described
// again inside it.
func AppendCBOREvent(b []byte, typ string, objectJSON []byte) ([]byte, error) {
	b = cborwire.AppendHead(append(b, selfDescribed...), cborMap, 2)
	typeFirst := rand.IntN(2) == 0
	if typeFirst {
		b = appendCBORBytesPair(b, "type", typ)
	}
	b = append(cborwire.AppendHead(b, cborBytes, uint64(len("object"))), "object"...)
	b, err := AppendJSONAsCBOR(b, objectJSON)
	if err != nil {
		return nil, err
	}
	if !typeFirst {
		b = appendCBORBytesPair(b, "type", typ)
	}
	return b, nil
}

func appendCBORBytesPair(b []byte, key, value string) []byte {
	b = append(cborwire.AppendHead(b, cborBytes, uint64(len(key))), key...)
	return append(cborwire.AppendHead(b, cborBytes, uint64(len(value))), value...)
}
