package cborwire

import (
	"encoding/base64"
	"encoding/json"
	"math"
	"unsafe"

	"github.com/kubewire/kubewire/api/jsonwire"
)

// intern returns b as a string, through the Table when there is one.
func (d *Decoder) intern(b []byte) string {
	if d.Table == nil {
		return d.plainString(b)
	}
	return d.Table.String(b)
}

// String reads a string into *p, interning it; null leaves *p unchanged.
func String[T ~string](d *Decoder, p *T) {
	if s, ok := d.shortString(); ok {
		*p = T(s)
		return
	}
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

// StringBytes reads a string and returns its bytes, valid until the next
// read; ok is false for null (and on error).
func (d *Decoder) StringBytes(typ string) (b []byte, ok bool) { return d.stringBytes(typ) }

// InternString returns b as a string through the Table.
func (d *Decoder) InternString(b []byte) string { return d.intern(b) }

// Bool reads true or false into *p; null leaves it unchanged.
func Bool[T ~bool](d *Decoder, p *T) {
	d.skipTags()
	if d.err != nil || d.pos >= len(d.buf) {
		if d.err == nil {
			d.short("unexpected end of input")
		}
		return
	}
	switch d.buf[d.pos] {
	case valTrue:
		*p = true
		d.pos++
	case valFalse:
		*p = false
		d.pos++
	case valNull, valUndefined:
		d.pos++
	default:
		d.Fail("bool")
	}
}

// Int reads an integer into *p; null leaves it unchanged. A float with
// an integral value is taken, as JSON's 1.0 is not (kube-apiserver
// writes integers as integers).
func Int[T ~int | ~int8 | ~int16 | ~int32 | ~int64](d *Decoder, p *T) {
	bits := int(unsafe.Sizeof(*p)) * 8
	at := d.pos
	v, _, fits, ok := d.integer(intType(bits, false))
	if !ok {
		return
	}
	if !fits || bits < 64 && (v < -1<<(bits-1) || v >= 1<<(bits-1)) {
		d.failAt(at, "integer out of range", intType(bits, false))
		return
	}
	*p = T(v)
}

// intType names an integer type of a width, for errors: a constant, as
// a name built per call would be an allocation per integer read.
func intType(bits int, unsigned bool) string {
	switch {
	case unsigned && bits == 8:
		return "uint8"
	case unsigned && bits == 16:
		return "uint16"
	case unsigned && bits == 32:
		return "uint32"
	case unsigned:
		return "uint64"
	case bits == 8:
		return "int8"
	case bits == 16:
		return "int16"
	case bits == 32:
		return "int32"
	}
	return "int64"
}

// Uint reads a non-negative integer into *p; null leaves it unchanged.
func Uint[T ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr](d *Decoder, p *T) {
	bits := int(unsafe.Sizeof(*p)) * 8
	at := d.pos
	v, u, fits, ok := d.integer(intType(bits, true))
	if !ok {
		return
	}
	if fits {
		if v < 0 {
			d.failAt(at, "negative integer", intType(bits, true))
			return
		}
		u = uint64(v)
	}
	if bits < 64 && u >= 1<<bits {
		d.failAt(at, "integer out of range", intType(bits, true))
		return
	}
	*p = T(u)
}

// Float reads a float or an integer into *p; null leaves it unchanged.
func Float[T ~float32 | ~float64](d *Decoder, p *T) {
	at := d.pos
	f, ok := d.float("float64")
	if !ok {
		return
	}
	if unsafe.Sizeof(*p) == 4 && math.Abs(f) > math.MaxFloat32 {
		d.failAt(at, "float out of range", "float32")
		return
	}
	*p = T(f)
}

func (d *Decoder) failAt(at int, what, typ string) {
	if d.err == nil {
		d.err = &TypeError{Offset: int64(at), Value: what, Type: typ}
		d.pos = len(d.buf)
	}
}

// Tags of byte strings meaning "encode as base64url, base64, base16
// when converting to JSON": the bytes are the value itself.
const (
	tagBase64URL = 21
	tagBase64    = 22
	tagBase16    = 23
)

// Bytes reads a []byte into *p. Custom resources are stored as JSON, so
// kube-apiserver sends such a field as a string holding base64, which is
// decoded as the JSON path does; a byte string tagged with an expected
// later encoding (what kube-apiserver writes for a Go []byte) is the
// bytes themselves. null sets *p to nil.
func Bytes[T ~[]byte](d *Decoder, p *T) {
	if d.Null() {
		*p = nil
		return
	}
	at := d.pos
	tagged := false
	if d.pos < len(d.buf) && d.buf[d.pos]>>5 == majorTag {
		save := d.pos
		_, tag, _, ok := d.head()
		if !ok {
			return
		}
		tagged = tag == tagBase64URL || tag == tagBase64 || tag == tagBase16
		if !tagged {
			d.pos = save
		}
	}
	b, ok := d.stringBytes("[]byte")
	if !ok {
		return
	}
	if tagged {
		*p = append(T{}, b...)
		return
	}
	out := make([]byte, base64.StdEncoding.DecodedLen(len(b)))
	n, err := base64.StdEncoding.Decode(out, b)
	if err != nil {
		d.Invalid(at, "[]byte", err)
		return
	}
	*p = out[:n]
}

// ViaJSON reads one item into v through its JSON decoder: the item is
// transcoded to JSON (map keys in sorted order, so that equal values
// give equal bytes whatever the order kube-apiserver shuffled them into)
// and decoded with the same Table. Types without a CBOR decoder of
// their own (a quantity, a type of another package) are read this way.
func ViaJSON(d *Decoder, v jsonwire.Decodable, typ string) {
	at := d.pos
	js, ok := d.transcodeItem()
	if !ok {
		return
	}
	jd := jsonwire.NewDecoder(js, d.Table)
	jd.SetErr(v.DecodeJSON(jd))
	if err := jd.End(); err != nil {
		d.Invalid(at, typ, err)
	}
}

// ViaUnmarshaler reads one item into v through its UnmarshalJSON method,
// after transcoding it to JSON.
func ViaUnmarshaler(d *Decoder, v json.Unmarshaler, typ string) {
	at := d.pos
	js, ok := d.transcodeItem()
	if !ok {
		return
	}
	if err := v.UnmarshalJSON(js); err != nil {
		d.Invalid(at, typ, err)
	}
}
