package cborwire

// ItemKind is the kind of a CBOR item, as a dynamic reader sees it.
type ItemKind uint8

// The kinds NextKind reports.
const (
	KindInvalid ItemKind = iota // the end of input, or an error
	KindNumber                  // an integer or a float: read with Number
	KindString                  // a byte or text string: read with StringBytes
	KindArray                   // read with OpenArray and NextElem
	KindMap                     // read with OpenMap and NextKey
	KindBool                    // read with Bool
	KindNull                    // null or undefined: read with Null
)

// NextKind skips the tags before the next item and reports its kind.
// At the end of the input it records an error and reports KindInvalid;
// for an item of no other kind (a simple value Any refuses) it reports
// KindInvalid and leaves the error to the read (Skip records it).
func (d *Decoder) NextKind() ItemKind {
	d.skipTags()
	if d.err != nil {
		return KindInvalid
	}
	if d.pos >= len(d.buf) {
		d.short("unexpected end of input")
		return KindInvalid
	}
	switch c := d.buf[d.pos]; c >> 5 {
	case majorUint, majorNegint:
		return KindNumber
	case majorBytes, majorText:
		return KindString
	case majorArray:
		return KindArray
	case majorMap:
		return KindMap
	case majorSimple:
		switch {
		case c == valTrue || c == valFalse:
			return KindBool
		case c == valNull || c == valUndefined:
			return KindNull
		case c == 0xf9 || c == 0xfa || c == 0xfb:
			return KindNumber
		}
	}
	return KindInvalid
}

// Number reads a number as Any does: an integer that fits in an int64
// as one (isInt), others (floats, integers beyond int64) as a float64;
// NaN and infinities are errors. ok is false on an error.
func (d *Decoder) Number() (i int64, f float64, isInt, ok bool) {
	d.skipTags()
	if d.pos < len(d.buf) && d.buf[d.pos]>>5 <= majorNegint {
		v, u, fits, ok := d.integer("int64")
		if !ok {
			return 0, 0, false, false
		}
		if !fits {
			return 0, float64(u), false, true
		}
		return v, 0, true, true
	}
	f, ok = d.float("float64")
	return 0, f, false, ok
}
