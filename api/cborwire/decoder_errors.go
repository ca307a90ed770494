package cborwire

import (
	"fmt"

	"github.com/kubewire/kubewire/api/wire"
)

// The Decoder's errors: input that is not CBOR, and CBOR that does not
// fit the Go value it is read into. The first one met is kept; reading
// stops there.

// SyntaxError is input that is not well-formed CBOR.
type SyntaxError struct {
	Offset int64
	Msg    string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("cborwire: malformed CBOR at byte %d: %s", e.Offset, e.Msg)
}

// Is makes every SyntaxError match wire.ErrMalformed.
func (e *SyntaxError) Is(target error) bool { return target == wire.ErrMalformed }

// TypeError is a well-formed item that does not fit the Go value it is
// decoded into.
type TypeError struct {
	Offset int64
	Value  string // what was found: "byte string", "integer 300", "map"...
	Type   string // the Go type
}

func (e *TypeError) Error() string {
	return fmt.Sprintf("cborwire: cannot decode %s at byte %d into Go value of type %s", e.Value, e.Offset, e.Type)
}

// Is makes every TypeError match wire.ErrMalformed.
func (e *TypeError) Is(target error) bool { return target == wire.ErrMalformed }

// short records a syntax error caused by the input ending too soon:
// more bytes could make the item whole (see ItemEnd).
func (d *Decoder) short(msg string) {
	if d.err == nil {
		d.truncated = true
	}
	d.syntax(msg)
}

func (d *Decoder) syntax(msg string) {
	if d.err == nil {
		d.err = &SyntaxError{Offset: int64(d.pos), Msg: msg}
	}
	d.pos = len(d.buf)
}

// Invalid records that the item read from offset at could not be
// decoded into typ because of err.
func (d *Decoder) Invalid(at int, typ string, err error) {
	if d.err == nil {
		d.err = &TypeError{Offset: int64(at), Value: "value (" + err.Error() + ")", Type: typ}
		d.pos = len(d.buf)
	}
}

// kindAt names the kind of the item at d.pos, for errors.
func (d *Decoder) kindAt() string {
	p := d.nextAfterTags(d.pos)
	if p >= len(d.buf) {
		return "end of input"
	}
	switch b := d.buf[p]; {
	case b>>5 == majorUint || b>>5 == majorNegint:
		return "integer"
	case b>>5 == majorBytes:
		return "byte string"
	case b>>5 == majorText:
		return "text string"
	case b>>5 == majorArray:
		return "array"
	case b>>5 == majorMap:
		return "map"
	case b == valFalse || b == valTrue:
		return "bool"
	case b == valNull || b == valUndefined:
		return "null"
	case b == 0xf9 || b == 0xfa || b == 0xfb:
		return "float"
	}
	return "simple value"
}

// Fail records a type error for the item at the current offset, skipping
// it so that syntax errors in it still win. typ names the Go type.
func (d *Decoder) Fail(typ string) {
	at := d.pos
	found := d.kindAt()
	d.Skip()
	if d.err == nil {
		d.err = &TypeError{Offset: int64(at), Value: found, Type: typ}
		d.pos = len(d.buf)
	}
}
