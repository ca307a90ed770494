package quantity

import (
	"bytes"

	"github.com/kubewire/kubewire/api/jsonwire"
)

// DecodeJSON reads q as UnmarshalJSON does, parsing each distinct value
// once per Decoder Table (a list's Pods ask for the same few quantities).
func (q *Quantity) DecodeJSON(d *jsonwire.Decoder) error {
	if d.Null() {
		*q = Quantity{}
		return d.Err()
	}
	at := d.Offset()
	raw := d.Raw()
	if d.Err() != nil {
		return d.Err()
	}
	v := raw
	if l := len(v); l >= 2 && v[0] == '"' && v[l-1] == '"' {
		v = v[1 : l-1]
	}
	v = bytes.TrimSpace(v)
	return q.decodeText(d, d.Table, at, v)
}

// EncodeJSON appends q as MarshalJSON writes it; a nil q is null.
func (q *Quantity) EncodeJSON(e *jsonwire.Encoder) error {
	if q == nil {
		e.Null()
		return e.Err()
	}
	e.String(q.String())
	return e.Err()
}
