package jsonwire

import (
	"encoding/base64"
	"encoding/json"
	"math"
	"strconv"
	"unsafe"
)

// stringBytes reads a string value and returns its unescaped bytes (valid
// until the next read), or ok false for null. Other values are a type
// error for typ.
func (d *Decoder) stringBytes(typ string) (b []byte, ok bool) {
	switch d.peek() {
	case '"':
		b = d.readString(&d.strBuf)
		return b, d.err == nil
	case 'n':
		d.literal("null")
		return nil, false
	}
	d.Fail(typ)
	return nil, false
}

// intern returns b as a string, through the Table when there is one.
func (d *Decoder) intern(b []byte) string {
	if d.Table == nil {
		return d.plainString(b)
	}
	return d.Table.String(b)
}

// String reads a string into *p, interning it; null leaves *p unchanged.
func String[T ~string](d *Decoder, p *T) {
	if b, ok := d.stringBytes("string"); ok {
		*p = T(d.intern(b))
	}
}

// UniqueString reads a string that is unique per object (a name, a uid)
// into *p without offering it to the Table.
func UniqueString[T ~string](d *Decoder, p *T) {
	if b, ok := d.stringBytes("string"); ok {
		if d.Table == nil {
			*p = T(d.plainString(b))
		} else {
			*p = T(b)
		}
	}
}

// StringBytes reads a string value and returns its unescaped bytes, valid
// until the next read; ok is false for null (and on error).
func (d *Decoder) StringBytes(typ string) (b []byte, ok bool) { return d.stringBytes(typ) }

// InternString returns b as a string through the Table.
func (d *Decoder) InternString(b []byte) string { return d.intern(b) }

// Bool reads true or false into *p; null leaves it unchanged.
func Bool[T ~bool](d *Decoder, p *T) {
	switch d.peek() {
	case 't':
		d.literal("true")
		if d.err == nil {
			*p = true
		}
	case 'f':
		d.literal("false")
		if d.err == nil {
			*p = false
		}
	case 'n':
		d.literal("null")
	default:
		d.Fail("bool")
	}
}

// number reads a number literal, or reports false for null; other values
// are a type error for typ.
func (d *Decoder) number(typ string) (lit []byte, integer bool, at int, ok bool) {
	c := d.peek()
	at = d.pos
	switch {
	case c == '-' || '0' <= c && c <= '9':
		lit, integer = d.readNumber()
		return lit, integer, at, d.err == nil
	case c == 'n':
		d.literal("null")
		return nil, false, at, false
	}
	d.Fail(typ)
	return nil, false, at, false
}

// Int reads an integer into *p; null leaves it unchanged. A fraction, an
// exponent, or a value out of T's range is a type error, as in
// encoding/json.
func Int[T ~int | ~int8 | ~int16 | ~int32 | ~int64](d *Decoder, p *T) {
	bits := int(unsafe.Sizeof(*p)) * 8
	lit, integer, at, ok := d.number("int")
	if !ok {
		return
	}
	v, fits := parseInt(lit)
	if !integer || !fits || bits < 64 && (v < -1<<(bits-1) || v >= 1<<(bits-1)) {
		d.failNumber(at, lit, "int"+strconv.Itoa(bits))
		return
	}
	*p = T(v)
}

// Uint reads a non-negative integer into *p, like Int.
func Uint[T ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64](d *Decoder, p *T) {
	bits := int(unsafe.Sizeof(*p)) * 8
	lit, integer, at, ok := d.number("uint")
	if !ok {
		return
	}
	v, err := strconv.ParseUint(unsafe.String(unsafe.SliceData(lit), len(lit)), 10, bits)
	if !integer || err != nil {
		d.failNumber(at, lit, "uint"+strconv.Itoa(bits))
		return
	}
	*p = T(v)
}

// parseInt parses an integer literal of the grammar readNumber accepts.
func parseInt(lit []byte) (int64, bool) {
	neg := lit[0] == '-'
	digits := lit
	if neg {
		digits = lit[1:]
	}
	if len(digits) > 19 {
		return 0, false
	}
	var u uint64
	for _, c := range digits {
		u = u*10 + uint64(c-'0')
	}
	if neg {
		if u > 1<<63 {
			return 0, false
		}
		return -int64(u), true
	}
	if u > math.MaxInt64 {
		return 0, false
	}
	return int64(u), true
}

// Float reads a number into *p; null leaves it unchanged. A number beyond
// T's range is a type error.
func Float[T ~float32 | ~float64](d *Decoder, p *T) {
	bits := int(unsafe.Sizeof(*p)) * 8
	lit, _, at, ok := d.number("float")
	if !ok {
		return
	}
	f, err := strconv.ParseFloat(unsafe.String(unsafe.SliceData(lit), len(lit)), bits)
	if err != nil {
		d.failNumber(at, lit, "float"+strconv.Itoa(bits))
		return
	}
	*p = T(f)
}

// Bytes reads a base64 string (standard encoding, as encoding/json writes
// []byte) into *p; null sets it to nil.
func Bytes[T ~[]byte](d *Decoder, p *T) {
	if d.Null() {
		*p = nil
		return
	}
	at := d.pos
	b, ok := d.stringBytes("[]byte")
	if !ok {
		return
	}
	out := make([]byte, base64.StdEncoding.DecodedLen(len(b)))
	n, err := base64.StdEncoding.Decode(out, b)
	if err != nil {
		if d.err == nil {
			d.err = &TypeError{Offset: int64(at), Value: "string (not base64)", Type: "[]byte"}
			d.pos = len(d.buf)
		}
		return
	}
	*p = out[:n:n]
}

// ViaUnmarshaler reads one value and hands its bytes to v's
// UnmarshalJSON, for types with hand-written JSON and no DecodeJSON
// method. An error from UnmarshalJSON is a type error.
func ViaUnmarshaler(d *Decoder, v json.Unmarshaler, typ string) {
	d.skipSpace()
	at := d.pos
	raw := d.Raw()
	if d.err != nil {
		return
	}
	if err := v.UnmarshalJSON(raw); err != nil {
		d.Invalid(at, typ, err)
	}
}

// Invalid records that the value read from offset at could not be decoded
// into a typ: err says why. Hand-written DecodeJSON methods call it.
func (d *Decoder) Invalid(at int, typ string, err error) {
	if d.err == nil {
		d.err = &TypeError{Offset: int64(at), Value: "value (" + err.Error() + ")", Type: typ}
		d.pos = len(d.buf)
	}
}
