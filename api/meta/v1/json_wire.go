package v1

import (
	"bytes"
	"encoding/json"
	"time"
	"unsafe"

	"github.com/kubewire/kubewire/api/jsonwire"
)

// The hand-written types decode JSON as their UnmarshalJSON methods do,
// without reflection, for the generated decoders of the types that hold
// them.

// DecodeJSON reads t as UnmarshalJSON does.
func (t *Time) DecodeJSON(d *jsonwire.Decoder) error {
	return decodeTime(d, &t.Time, time.RFC3339, "metav1.Time")
}

// DecodeJSON reads t as UnmarshalJSON does.
func (t *MicroTime) DecodeJSON(d *jsonwire.Decoder) error {
	return decodeTime(d, &t.Time, RFC3339Micro, "metav1.MicroTime")
}

func decodeTime(d *jsonwire.Decoder, t *time.Time, layout, typ string) error {
	if d.Null() {
		*t = time.Time{}
		return d.Err()
	}
	at := d.Offset()
	b, ok := d.StringBytes(typ)
	if !ok {
		return d.Err()
	}
	if len(b) == 0 || string(b) == "null" && layout == RFC3339Micro {
		*t = time.Time{}
		return nil
	}
	if layout == time.RFC3339 {
		if pt, ok := parseSecondsUTC(b); ok { // the form servers write, without time.Parse's cost
			*t = pt
			return nil
		}
	}
	// The error, if any, is rendered at once: b may alias the input.
	pt, err := time.Parse(layout, unsafe.String(unsafe.SliceData(b), len(b)))
	if err != nil {
		d.Invalid(at, typ, err)
		return d.Err()
	}
	*t = pt.UTC()
	return nil
}

// DecodeJSON reads f as UnmarshalJSON does; equal values decoded through
// the Decoder's Table share one backing array (managedFields repeat
// across the objects of a list or a watch), and a ReadOnly Table keeps
// values that differ from an earlier one in a few places compactly, as
// on the protobuf path (see FieldsV1).
func (f *FieldsV1) DecodeJSON(d *jsonwire.Decoder) error {
	at := d.Offset()
	raw, compact := d.RawCompact()
	if d.Err() != nil {
		return d.Err()
	}
	if string(raw) == "null" {
		return nil
	}
	if !compact {
		var buf bytes.Buffer
		if err := json.Compact(&buf, raw); err != nil {
			d.Invalid(at, "metav1.FieldsV1", err)
			return d.Err()
		}
		raw = buf.Bytes()
	}
	f.setDecoded(d.Table, raw)
	return nil
}
