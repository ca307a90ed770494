package jsonwire

import (
	"github.com/kubewire/kubewire/api/internal/boxes"
	"github.com/kubewire/kubewire/api/wire"
)

// DefaultMaxDepth bounds the nesting of arrays and objects, as
// encoding/json does.
const DefaultMaxDepth = 10000

// Decoder reads one JSON value from a byte slice, token by token, for
// generated decoders. Errors are sticky: after the first, every read is a
// no-op and Err returns it, so generated code checks once per object.
//
// A Decoder is not safe for concurrent use. Strings it returns through
// the String helpers come from Table (when set), which may hand the same
// string to many objects; byte slices never alias the input.
type Decoder struct {
	// Table interns strings and shares byte slices (and, when ReadOnly,
	// equal maps) across the decodes it serves; nil interns nothing.
	Table *wire.Decoder

	buf   []byte
	pos   int
	err   error
	depth int

	key    []byte // the current object key, unescaped
	keyBuf []byte // backing for keys with escapes
	strBuf []byte // backing for strings with escapes
	stack  []any
	pairs  []pair
	strs   []string
	floats bool        // Any gives float64 for every number
	arena  []byte      // plainString: what is left of the current chunk
	boxes  boxes.Arena // Any without a Table: chunks of boxes, dropped at Reset
	// memo holds the element counts of the arrays the last counting
	// scan met, for Count; countStack is its scratch.
	memo       countMemo
	countStack []int
	// counted is one past the offset of the array or object a Reuse
	// function scanned (0: none), and count its elements, for Count.
	counted, count int
}

// NewDecoder returns a Decoder reading data, interning through table
// (which may be nil).
func NewDecoder(data []byte, table *wire.Decoder) *Decoder {
	return &Decoder{buf: data, Table: table}
}

// Reset makes d read data, keeping its scratch buffers and tables.
func (d *Decoder) Reset(data []byte) {
	d.buf, d.pos, d.err, d.depth, d.counted = data, 0, nil, 0, 0
	d.arena = nil // a chunk never holds the strings of two decodes
	d.boxes.Drop()
	d.memo.counts, d.memo.next, d.memo.end = d.memo.counts[:0], 0, 0
}

// Err returns the first error met, or nil.
func (d *Decoder) Err() error { return d.err }

// Offset returns the byte offset of the next unread byte.
func (d *Decoder) Offset() int { return d.pos }

// End checks that only whitespace follows the value read and returns
// Err.
func (d *Decoder) End() error {
	if d.err != nil {
		return d.err
	}
	d.skipSpace()
	if d.pos < len(d.buf) {
		d.syntax("data after the top-level value")
	}
	return d.err
}

func (d *Decoder) syntax(msg string) {
	if d.err == nil {
		d.err = &SyntaxError{Offset: int64(d.pos), Msg: msg}
	}
	d.pos = len(d.buf) // no further progress
}

func (d *Decoder) syntaxAt(at int, msg string) {
	d.pos = at
	d.syntax(msg)
}

// Fail records a type error at the value starting at the current offset,
// skipping the value so that syntax errors in it still win, as in
// encoding/json (which validates the whole input first). typ names the Go
// type.
func (d *Decoder) Fail(typ string) {
	d.skipSpace()
	at := d.pos
	found := d.kindAt()
	d.Skip()
	if d.err == nil {
		d.err = &TypeError{Offset: int64(at), Value: found, Type: typ}
		d.pos = len(d.buf)
	}
}

func (d *Decoder) failNumber(at int, lit []byte, typ string) {
	if d.err == nil {
		d.err = &TypeError{Offset: int64(at), Value: "number " + string(lit), Type: typ}
		d.pos = len(d.buf)
	}
}

// kindAt names the kind of the value at d.pos, for errors.
func (d *Decoder) kindAt() string {
	if d.pos >= len(d.buf) {
		return "end of input"
	}
	switch c := d.buf[d.pos]; {
	case c == '{':
		return "object"
	case c == '[':
		return "array"
	case c == '"':
		return "string"
	case c == 't' || c == 'f':
		return "bool"
	case c == 'n':
		return "null"
	}
	return "number"
}

func (d *Decoder) skipSpace() {
	for d.pos < len(d.buf) {
		switch d.buf[d.pos] {
		case ' ', '\n', '\r', '\t':
			d.pos++
		default:
			return
		}
	}
}

// peek skips whitespace and returns the next byte, 0 at the end.
func (d *Decoder) peek() byte {
	d.skipSpace()
	if d.pos < len(d.buf) {
		return d.buf[d.pos]
	}
	return 0
}

// Null consumes a null literal and reports true, or reports false and
// consumes nothing.
func (d *Decoder) Null() bool {
	if d.peek() != 'n' {
		return false
	}
	d.literal("null")
	return d.err == nil
}

func (d *Decoder) literal(lit string) {
	if len(d.buf)-d.pos < len(lit) || string(d.buf[d.pos:d.pos+len(lit)]) != lit {
		if d.pos+1 < len(d.buf) || len(d.buf)-d.pos >= len(lit) {
			d.syntax("invalid literal")
		} else {
			d.syntax("unexpected end of input")
		}
		return
	}
	d.pos += len(lit)
}

func (d *Decoder) enter() bool {
	d.depth++
	if d.depth > DefaultMaxDepth {
		d.syntax("exceeded max depth")
		return false
	}
	return true
}

// OpenObject starts reading an object into a value of Go type typ: it
// consumes '{' and reports true, consumes null and reports false (the
// caller leaves its value unchanged), or records a type error and
// reports false. Read the members with NextField.
func (d *Decoder) OpenObject(typ string) bool {
	switch d.peek() {
	case '{':
		if !d.enter() {
			return false
		}
		d.pos++
		return true
	case 'n':
		d.literal("null")
		return false
	}
	d.Fail(typ)
	return false
}

// NextField moves to member i (counting from 0) of the object opened by
// OpenObject: it reports true with Key set, positioned at the member's
// value, which the caller must read or Skip; or it consumes the closing
// '}' (or meets an error) and reports false.
func (d *Decoder) NextField(i int) bool {
	if d.err != nil {
		return false
	}
	c := d.peek()
	if c == '}' {
		d.pos++
		d.depth--
		return false
	}
	if i > 0 {
		if c != ',' {
			d.expected("',' or '}' after object member")
			return false
		}
		d.pos++
		c = d.peek()
	}
	if c != '"' {
		d.expected("object key")
		return false
	}
	d.key = d.readString(&d.keyBuf)
	if d.err != nil {
		return false
	}
	if d.peek() != ':' {
		d.expected("':' after object key")
		return false
	}
	d.pos++
	d.skipSpace()
	return true
}

func (d *Decoder) expected(what string) {
	if d.pos >= len(d.buf) {
		d.syntax("unexpected end of input, want " + what)
		return
	}
	d.syntax("invalid character, want " + what)
}

// Key returns the current member's key, unescaped. It is valid until the
// next read.
func (d *Decoder) Key() []byte { return d.key }

// OpenArray starts reading an array, like OpenObject. Read the elements
// with NextElem.
func (d *Decoder) OpenArray(typ string) bool {
	switch d.peek() {
	case '[':
		if !d.enter() {
			return false
		}
		d.pos++
		return true
	case 'n':
		d.literal("null")
		return false
	}
	d.Fail(typ)
	return false
}

// NextElem moves to element i of the array opened by OpenArray, like
// NextField.
func (d *Decoder) NextElem(i int) bool {
	if d.err != nil {
		return false
	}
	c := d.peek()
	if c == ']' {
		d.pos++
		d.depth--
		return false
	}
	if i > 0 {
		if c != ',' {
			d.expected("',' or ']' after array element")
			return false
		}
		d.pos++
		d.skipSpace()
	}
	return true
}

// Decodable is a type with a generated (or hand-written) JSON decoder.
type Decodable interface {
	DecodeJSON(*Decoder) error
}

// Decode decodes data, one JSON value with optional whitespace around it,
// into v, interning through table (which may be nil).
func Decode(data []byte, v Decodable, table *wire.Decoder) error {
	d := Decoder{buf: data, Table: table}
	d.SetErr(v.DecodeJSON(&d))
	return d.End()
}

// SetErr records err as the Decoder's error unless one is recorded
// already; later reads are no-ops. Hand-written DecodeJSON methods use it
// for errors of their own, so that callers who check only Err see them.
func (d *Decoder) SetErr(err error) {
	if d.err == nil && err != nil {
		d.err = err
		d.pos = len(d.buf)
	}
}
