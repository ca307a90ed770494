package v1

import (
	"time"

	"github.com/kubewire/kubewire/api/jsonwire"
)

// The hand-written types encode JSON as their MarshalJSON methods do
// (and encoding/json after them), without reflection or a copy, for the
// generated encoders of the types that hold them.

// EncodeJSON appends t as MarshalJSON writes it; a nil t is null.
func (t *Time) EncodeJSON(e *jsonwire.Encoder) error {
	if t == nil {
		e.Null()
		return e.Err()
	}
	encodeTime(e, t.Time, time.RFC3339)
	return e.Err()
}

// EncodeJSON appends t as MarshalJSON writes it; a nil t is null.
func (t *MicroTime) EncodeJSON(e *jsonwire.Encoder) error {
	if t == nil {
		e.Null()
		return e.Err()
	}
	encodeTime(e, t.Time, RFC3339Micro)
	return e.Err()
}

func encodeTime(e *jsonwire.Encoder, t time.Time, layout string) {
	if t.IsZero() {
		e.Null()
		return
	}
	var buf [48]byte
	b := append(buf[:0], '"')
	b = t.UTC().AppendFormat(b, layout)
	e.LiteralBytes(append(b, '"'))
}

// EncodeJSON appends f as MarshalJSON writes it (and encoding/json after
// it: compacted, HTML characters escaped); a nil f is null.
func (f *FieldsV1) EncodeJSON(e *jsonwire.Encoder) error {
	if f == nil || f.size() == 0 {
		e.Null()
		return e.Err()
	}
	if f.compact != nil {
		e.RawJSON(f.compact.Bytes(), f)
		return e.Err()
	}
	e.RawJSON(f.Raw, f)
	return e.Err()
}

// EncodeJSON appends d as MarshalJSON writes it; a nil d is null.
func (d *Duration) EncodeJSON(e *jsonwire.Encoder) error {
	if d == nil {
		e.Null()
		return e.Err()
	}
	e.String(d.Duration.String())
	return e.Err()
}
