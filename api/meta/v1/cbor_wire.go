package v1

import (
	"time"
	"unsafe"

	"github.com/kubewire/kubewire/api/cborwire"
)

// The hand-written types decode CBOR as their DecodeJSON methods decode
// the same value in JSON, for the generated CBOR decoders of the types
// that hold them (custom resources served as CBOR).

// DecodeCBOR reads t as DecodeJSON does.
func (t *Time) DecodeCBOR(d *cborwire.Decoder) error {
	return decodeTimeCBOR(d, &t.Time, time.RFC3339, "metav1.Time")
}

// DecodeCBOR reads t as DecodeJSON does.
func (t *MicroTime) DecodeCBOR(d *cborwire.Decoder) error {
	return decodeTimeCBOR(d, &t.Time, RFC3339Micro, "metav1.MicroTime")
}

func decodeTimeCBOR(d *cborwire.Decoder, t *time.Time, layout, typ string) error {
	if d.Null() {
		*t = time.Time{}
		return d.Err()
	}
	at := d.Offset()
	b, ok := d.StringBytes(typ)
	if !ok {
		return d.Err()
	}
	if len(b) == 0 {
		*t = time.Time{}
		return nil
	}
	if layout == time.RFC3339 {
		if pt, ok := parseSecondsUTC(b); ok {
			*t = pt
			return nil
		}
	}
	pt, err := time.Parse(layout, unsafe.String(unsafe.SliceData(b), len(b)))
	if err != nil {
		d.Invalid(at, typ, err)
		return d.Err()
	}
	*t = pt.UTC()
	return nil
}

// DecodeCBOR reads a duration string as UnmarshalJSON does; null leaves
// d unchanged.
func (x *Duration) DecodeCBOR(d *cborwire.Decoder) error {
	at := d.Offset()
	b, ok := d.StringBytes("metav1.Duration")
	if !ok {
		return d.Err()
	}
	pd, err := time.ParseDuration(string(b))
	if err != nil {
		d.Invalid(at, "metav1.Duration", err)
		return d.Err()
	}
	x.Duration = pd
	return nil
}

// DecodeCBOR reads f: the map kube-apiserver sends for a custom
// resource's managedFields entry becomes the JSON the JSON path keeps
// (keys in sorted order, whatever order they came in), shared or held
// compactly through a ReadOnly table as there (see FieldsV1). A string
// is taken as the JSON itself; null leaves f unchanged.
func (f *FieldsV1) DecodeCBOR(d *cborwire.Decoder) error {
	if d.Null() {
		return d.Err()
	}
	// Equal entries and subtrees of this decode are transcoded once (a
	// ReadOnly Table shares whole equal entries through the generated
	// ReusePtr before this is called; their subtrees repeat as well).
	js, ok := d.TranscodeJSONMemo()
	if !ok {
		return d.Err()
	}
	f.setDecoded(d.Table, js)
	return nil
}
