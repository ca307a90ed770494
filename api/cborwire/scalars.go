package cborwire

import (
	"bytes"
	"encoding/binary"
	"math"
	"unicode/utf8"
)

// stringBytes reads a byte or text string (a definite one without
// copying, an indefinite one joined into scratch) and returns its bytes,
// valid until the next read; ok is false for null and on error (other
// items are a type error for typ).
func (d *Decoder) stringBytes(typ string) (b []byte, ok bool) {
	// The common case: a definite byte or text string shorter than 64 KiB
	// (a one-, two- or three-byte head), valid UTF-8 as it is.
	if p := d.pos; p < len(d.buf) && d.err == nil {
		if c := d.buf[p]; c>>5 == majorBytes || c>>5 == majorText {
			n, h := int(c&0x1f), 1
			switch {
			case n < 24:
			case n == 24 && p+1 < len(d.buf):
				n, h = int(d.buf[p+1]), 2
			case n == 25 && p+2 < len(d.buf):
				n, h = int(binary.BigEndian.Uint16(d.buf[p+1:])), 3
			default:
				n = -1
			}
			if end := p + h + n; n >= 0 && end <= len(d.buf) {
				b = d.buf[p+h : end]
				if shortASCII(b) || ascii(b) || utf8.Valid(b) {
					d.pos = end
					return b, true
				}
			}
		}
	}
	d.skipTags()
	if d.err != nil || d.pos >= len(d.buf) {
		if d.err == nil {
			d.short("unexpected end of input")
		}
		return nil, false
	}
	c := d.buf[d.pos]
	if c == valNull || c == valUndefined {
		d.pos++
		return nil, false
	}
	major := c >> 5
	if major != majorBytes && major != majorText {
		d.Fail(typ)
		return nil, false
	}
	start := d.pos
	_, arg, indefinite, ok := d.head()
	if !ok {
		return nil, false
	}
	if !indefinite {
		if arg > uint64(len(d.buf)-d.pos) {
			d.pos = start
			d.short("string longer than the input")
			return nil, false
		}
		b = d.buf[d.pos : d.pos+int(arg)]
		d.pos += int(arg)
		if !utf8.Valid(b) {
			if major == majorText {
				d.pos = start
				d.syntax("text string is not valid UTF-8")
				return nil, false
			}
			b = d.validUTF8(b)
		}
		return b, true
	}
	// Chunks of the same major type, definite, up to a break.
	out := d.strBuf[:0]
	for {
		if d.pos >= len(d.buf) {
			d.short("unexpected end of input in an indefinite string")
			return nil, false
		}
		if d.buf[d.pos] == valBreak {
			d.pos++
			break
		}
		if d.buf[d.pos]>>5 != major {
			d.syntax("chunk of another type in an indefinite string")
			return nil, false
		}
		_, n, indef, ok := d.head()
		if !ok {
			return nil, false
		}
		if indef || n > uint64(len(d.buf)-d.pos) {
			d.syntax("bad chunk in an indefinite string")
			return nil, false
		}
		out = append(out, d.buf[d.pos:d.pos+int(n)]...)
		d.pos += int(n)
	}
	d.strBuf = out
	if !utf8.Valid(out) {
		if major == majorText {
			d.syntax("text string is not valid UTF-8")
			return nil, false
		}
		out = d.validUTF8(bytes.Clone(out))
	}
	return out, true
}

// ascii reports whether b is all ASCII (valid UTF-8 as it is): two
// words at a time, then a word if eight bytes are left, the last word
// of b overlapping them; under 8 bytes byte by byte.
func ascii(b []byte) bool {
	n := len(b)
	if n >= 8 {
		or := binary.LittleEndian.Uint64(b[n-8:])
		for ; len(b) >= 16; b = b[16:] {
			or |= binary.LittleEndian.Uint64(b) | binary.LittleEndian.Uint64(b[8:])
		}
		if len(b) >= 8 {
			or |= binary.LittleEndian.Uint64(b)
		}
		return or&0x8080808080808080 == 0
	}
	var or byte
	for _, c := range b {
		or |= c
	}
	return or < 0x80
}

// shortASCII reports whether b is under 8 bytes, all ASCII, reading one
// word masked to b's length, which b's capacity must hold (a slice of
// the input mostly does): false leaves the question to ascii.
func shortASCII(b []byte) bool {
	n := len(b)
	return n < 8 && cap(b) >= 8 && binary.LittleEndian.Uint64(b[:8])&(1<<(8*n)-1)&0x8080808080808080 == 0
}

// validUTF8 returns b with each byte that is not part of valid UTF-8
// replaced by U+FFFD, in the string scratch buffer: a byte string holds
// a Go string of kube-apiserver's, and the JSON path replaces such bytes
// (as encoding/json does), so both paths give the same string.
func (d *Decoder) validUTF8(b []byte) []byte {
	out := d.strBuf[:0]
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		if r == utf8.RuneError && size == 1 {
			out = utf8.AppendRune(out, utf8.RuneError)
		} else {
			out = append(out, b[:size]...)
		}
		b = b[size:]
	}
	d.strBuf = out
	return out
}

// integer reads an integer item: its value as an int64 when it fits
// (ok64), else as a uint64 (a major-0 value over MaxInt64). ok is false
// for null; other items are a type error for typ.
func (d *Decoder) integer(typ string) (v int64, u uint64, fits, ok bool) {
	if d.Null() || d.err != nil {
		return 0, 0, false, false
	}
	at := d.pos
	if d.pos >= len(d.buf) {
		d.short("unexpected end of input")
		return 0, 0, false, false
	}
	switch d.buf[d.pos] >> 5 {
	case majorUint:
		_, arg, _, ok := d.head()
		if !ok {
			return 0, 0, false, false
		}
		if arg > math.MaxInt64 {
			return 0, arg, false, true
		}
		return int64(arg), arg, true, true
	case majorNegint:
		_, arg, _, ok := d.head()
		if !ok {
			return 0, 0, false, false
		}
		if arg > math.MaxInt64 {
			d.err = &TypeError{Offset: int64(at), Value: "integer below -2^63", Type: typ}
			d.pos = len(d.buf)
			return 0, 0, false, false
		}
		return -1 - int64(arg), 0, true, true
	}
	d.Fail(typ)
	return 0, 0, false, false
}

// float reads a float item of any width, or an integer as a float; ok is
// false for null.
func (d *Decoder) float(typ string) (f float64, ok bool) {
	if d.Null() || d.err != nil {
		return 0, false
	}
	if d.pos >= len(d.buf) {
		d.short("unexpected end of input")
		return 0, false
	}
	switch c := d.buf[d.pos]; {
	case c == 0xf9:
		if !d.need(3) {
			return 0, false
		}
		f = float64(halfToFloat32(binary.BigEndian.Uint16(d.buf[d.pos+1:])))
		d.pos += 3
	case c == 0xfa:
		if !d.need(5) {
			return 0, false
		}
		f = float64(math.Float32frombits(binary.BigEndian.Uint32(d.buf[d.pos+1:])))
		d.pos += 5
	case c == 0xfb:
		if !d.need(9) {
			return 0, false
		}
		f = math.Float64frombits(binary.BigEndian.Uint64(d.buf[d.pos+1:]))
		d.pos += 9
	case c>>5 == majorUint || c>>5 == majorNegint:
		v, u, fits, ok := d.integer(typ)
		if !ok {
			return 0, false
		}
		if fits {
			return float64(v), true
		}
		return float64(u), true
	default:
		d.Fail(typ)
		return 0, false
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		d.pos -= 3 // an approximate offset
		d.syntax("NaN and infinities are not allowed")
		return 0, false
	}
	return f, true
}

// halfToFloat32 converts an IEEE 754 half-precision value.
func halfToFloat32(h uint16) float32 {
	sign := uint32(h>>15) << 31
	exp := uint32(h>>10) & 0x1f
	frac := uint32(h & 0x3ff)
	switch exp {
	case 0:
		if frac == 0 {
			return math.Float32frombits(sign)
		}
		// Subnormal: normalize.
		e := uint32(127 - 15 + 1)
		for frac&0x400 == 0 {
			frac <<= 1
			e--
		}
		frac &= 0x3ff
		return math.Float32frombits(sign | e<<23 | frac<<13)
	case 0x1f:
		return math.Float32frombits(sign | 0xff<<23 | frac<<13)
	}
	return math.Float32frombits(sign | (exp+127-15)<<23 | frac<<13)
}
