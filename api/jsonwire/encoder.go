package jsonwire

import (
	"bytes"
	"encoding"
	"encoding/base64"
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"strconv"
	"unsafe"
)

// maxEncodeDepth bounds the nesting of the values an Encoder writes:
// past it the value is probably a cycle, and Encode hands it to
// encoding/json, which tells a cycle from a deep tree.
const maxEncodeDepth = 1000

// errTooDeep is recorded when a value nests past maxEncodeDepth.
var errTooDeep = errors.New("jsonwire: value nested too deep to encode")

// Encoder appends the JSON form of values to a byte slice, for generated
// EncodeJSON methods. What it writes is byte for byte what encoding/json's
// Marshal writes for the same value: strings with <, > and & escaped as
// \u003c, \u003e and \u0026, invalid UTF-8 as \ufffd, floats in
// encoding/json's format, []byte in base64, map keys sorted, the output
// of MarshalJSON methods compacted. Errors are sticky: after the first,
// writes still append but Err returns it, and Encode discards the bytes.
//
// The zero Encoder is ready to use and starts an empty slice. An Encoder
// is not safe for concurrent use.
type Encoder struct {
	buf   []byte
	err   error
	depth int
}

// NewEncoder returns an Encoder appending to buf.
func NewEncoder(buf []byte) *Encoder { return &Encoder{buf: buf} }

// Bytes returns the bytes written so far; they alias the Encoder's
// buffer until the next write.
func (e *Encoder) Bytes() []byte { return e.buf }

// Len returns the number of bytes written.
func (e *Encoder) Len() int { return len(e.buf) }

// Err returns the first error met, or nil.
func (e *Encoder) Err() error { return e.err }

// SetErr records err unless an error is recorded already.
func (e *Encoder) SetErr(err error) {
	if e.err == nil && err != nil {
		e.err = err
	}
}

// Encodable is a type with a generated (or hand-written) JSON encoder,
// which writes exactly what encoding/json's Marshal writes for it.
type Encodable interface {
	EncodeJSON(*Encoder) error
}

// Encode returns the JSON encoding of v, the bytes encoding/json's
// Marshal returns for it. Values nested more than a thousand levels deep
// (a pointer cycle, most likely) are encoded by encoding/json, which
// reports a cycle as an error.
func Encode(v Encodable) ([]byte, error) {
	e := Encoder{buf: make([]byte, 0, 1024)}
	err := v.EncodeJSON(&e)
	if err == nil {
		err = e.err
	}
	if errors.Is(err, errTooDeep) {
		return json.Marshal(v)
	}
	if err != nil {
		return nil, err
	}
	return e.buf, nil
}

// Enter is called before writing the members of a struct or the
// elements of a collection: it reports false, having recorded an error,
// when values nest too deep. Each Enter that reports true is paired with
// a Leave.
func (e *Encoder) Enter() bool {
	e.depth++
	if e.depth > maxEncodeDepth {
		e.depth--
		e.SetErr(errTooDeep)
		return false
	}
	return true
}

// Leave ends what Enter began.
func (e *Encoder) Leave() { e.depth-- }

// Byte appends c, a structural character.
func (e *Encoder) Byte(c byte) { e.buf = append(e.buf, c) }

// Literal appends s as it is: structural characters, or a key already
// quoted and escaped with its colon (`"name":`).
func (e *Encoder) Literal(s string) { e.buf = append(e.buf, s...) }

// Member appends key, `"name":` as Literal takes it, preceded by a comma
// unless nothing was written since the object's '{' at offset start-1.
func (e *Encoder) Member(start int, key string) {
	if len(e.buf) > start {
		e.buf = append(e.buf, ',')
	}
	e.buf = append(e.buf, key...)
}

// Null appends null.
func (e *Encoder) Null() { e.buf = append(e.buf, "null"...) }

// Bool appends true or false.
func (e *Encoder) Bool(v bool) { e.buf = strconv.AppendBool(e.buf, v) }

// Int appends an integer.
func (e *Encoder) Int(v int64) { e.buf = strconv.AppendInt(e.buf, v, 10) }

// Uint appends a non-negative integer.
func (e *Encoder) Uint(v uint64) { e.buf = strconv.AppendUint(e.buf, v, 10) }

// Float64 appends a float64 as encoding/json does: like %g but without
// an exponent from 1e-6 up to 1e21. NaN and infinities are an error.
func (e *Encoder) Float64(v float64) { e.float(v, 64) }

// Float32 appends a float32, like Float64.
func (e *Encoder) Float32(v float32) { e.float(float64(v), 32) }

func (e *Encoder) float(f float64, bits int) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		var v reflect.Value
		if bits == 32 {
			v = reflect.ValueOf(float32(f))
		} else {
			v = reflect.ValueOf(f)
		}
		e.SetErr(&json.UnsupportedValueError{Value: v, Str: strconv.FormatFloat(f, 'g', -1, bits)})
		e.Null()
		return
	}
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 {
		if bits == 64 && (abs < 1e-6 || abs >= 1e21) || bits == 32 && (float32(abs) < 1e-6 || float32(abs) >= 1e21) {
			format = 'e'
		}
	}
	b := strconv.AppendFloat(e.buf, f, format, -1, bits)
	if format == 'e' {
		// e-07 is written e-7.
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	e.buf = b
}

// Base64 appends b as a base64 string (standard encoding, padded), or
// null for a nil slice.
func (e *Encoder) Base64(b []byte) {
	if b == nil {
		e.Null()
		return
	}
	e.buf = append(e.buf, '"')
	e.buf = base64.StdEncoding.AppendEncode(e.buf, b)
	e.buf = append(e.buf, '"')
}

// EncodeBytes appends a slice of a byte type as Base64 does.
func EncodeBytes[S ~[]E, E ~byte](e *Encoder, s S) {
	if s == nil {
		e.Null()
		return
	}
	e.Base64(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), len(s)))
}

// Marshal appends what encoding/json's Marshal writes for v: the
// fallback for values without a generated encoder.
func (e *Encoder) Marshal(v any) {
	b, err := json.Marshal(v)
	if err != nil {
		e.SetErr(err)
		e.Null()
		return
	}
	e.buf = append(e.buf, b...)
}

// Marshaler appends the output of v's MarshalJSON, compacted and with <,
// >, & and U+2028, U+2029 escaped in strings, as encoding/json does; a
// nil pointer in v is null. An error from MarshalJSON, or output that is
// not JSON, is a *json.MarshalerError.
func (e *Encoder) Marshaler(v json.Marshaler) {
	if v == nil || isNilPointer(v) {
		e.Null()
		return
	}
	b, err := v.MarshalJSON()
	if err == nil {
		err = e.appendJSON(b)
	}
	if err != nil {
		e.SetErr(&json.MarshalerError{Type: reflect.TypeOf(v), Err: err})
		e.Null()
	}
}

// TextMarshaler appends the output of v's MarshalText as a JSON string;
// a nil pointer in v is null. An error from MarshalText is a
// *json.MarshalerError.
func (e *Encoder) TextMarshaler(v encoding.TextMarshaler) {
	if v == nil || isNilPointer(v) {
		e.Null()
		return
	}
	b, err := v.MarshalText()
	if err != nil {
		e.SetErr(&json.MarshalerError{Type: reflect.TypeOf(v), Err: err})
		e.Null()
		return
	}
	e.String(string(b))
}

// RawJSON appends b, a JSON value, as Marshaler appends the output of
// MarshalJSON. Hand-written encoders of types that hold raw JSON (FieldsV1,
// RawExtension) use it; typ names the type in errors.
func (e *Encoder) RawJSON(b []byte, typ any) {
	if err := e.appendJSON(b); err != nil {
		e.SetErr(&json.MarshalerError{Type: reflect.TypeOf(typ), Err: err})
		e.Null()
	}
}

// appendJSON validates b and appends it compacted and HTML-escaped.
func (e *Encoder) appendJSON(b []byte) error {
	d := Decoder{buf: b}
	d.Skip()
	if err := d.End(); err != nil {
		return compactError(b)
	}
	for _, c := range b {
		switch c {
		case ' ', '\t', '\n', '\r', '<', '>', '&', 0xE2:
			return e.appendJSONSlow(b)
		}
	}
	e.buf = append(e.buf, b...)
	return nil
}

// appendJSONSlow is appendJSON for input with spaces or characters to
// escape.
func (e *Encoder) appendJSONSlow(b []byte) error {
	var compact bytes.Buffer
	if err := json.Compact(&compact, b); err != nil {
		return err
	}
	src := compact.Bytes()
	start := 0
	for i, c := range src {
		if c == '<' || c == '>' || c == '&' {
			e.buf = append(e.buf, src[start:i]...)
			e.buf = append(e.buf, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			start = i + 1
		}
		if c == 0xE2 && i+2 < len(src) && src[i+1] == 0x80 && src[i+2]&^1 == 0xA8 {
			e.buf = append(e.buf, src[start:i]...)
			e.buf = append(e.buf, '\\', 'u', '2', '0', '2', hexDigits[src[i+2]&0xF])
			start = i + 3
		}
	}
	e.buf = append(e.buf, src[start:]...)
	return nil
}

// compactError returns the error encoding/json gives for invalid
// MarshalJSON output.
func compactError(b []byte) error {
	var sink bytes.Buffer
	if err := json.Compact(&sink, b); err != nil {
		return err
	}
	return errors.New("jsonwire: invalid JSON")
}

// isNilPointer reports whether v holds a nil pointer, for which
// encoding/json writes null rather than call a method.
func isNilPointer(v any) bool {
	rv := reflect.ValueOf(v)
	return rv.Kind() == reflect.Pointer && rv.IsNil()
}

// LiteralBytes appends b as it is: JSON that the caller vouches for,
// compact and escaped as encoding/json would write it.
func (e *Encoder) LiteralBytes(b []byte) { e.buf = append(e.buf, b...) }
