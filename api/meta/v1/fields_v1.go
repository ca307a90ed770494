package v1

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/kubewire/kubewire/api/wire"
	"google.golang.org/protobuf/encoding/protowire"
)

// FieldsV1 mirrors metav1.FieldsV1: the set of fields a managedFields entry
// owns, kept as the raw JSON object the server sent (the format is defined
// by sigs.k8s.io/structured-merge-diff).
//
// Read it with GetRawBytes or String, not through Raw: in objects decoded
// read-only (an informer's cache, a wire.Decoder with ReadOnly), an entry
// that differs from an earlier one in a few places (the kubelet's names
// each Pod's IPs, a controller's names the owner's uid) is held as those
// differences from the earlier one, a few tens of bytes instead of
// kilobytes, and Raw is nil; GetRawBytes rebuilds it. DeepCopy gives a
// FieldsV1 with Raw set. Every method, the encoders included, works with
// either form.
//
// Raw decoded through a shared wire.Decoder is shared by every object
// whose entry has the same bytes, because managedFields repeat across the
// objects of a list. Never modify Raw in place: assign a new slice, use
// SetRawBytes, or DeepCopy first.
type FieldsV1 struct {
	Raw []byte `json:"-" protobuf:"bytes,1,opt,name=Raw"`
	// compact holds the value instead of Raw (see above).
	compact *wire.Delta
}

// NewFieldsV1 returns a FieldsV1 holding raw.
func NewFieldsV1(raw string) *FieldsV1 { return &FieldsV1{Raw: []byte(raw)} }

// String returns the value as a string.
func (f FieldsV1) String() string {
	if f.compact != nil {
		return string(f.compact.Bytes())
	}
	return string(f.Raw)
}

// Equal reports whether f and f2 hold the same bytes.
func (f FieldsV1) Equal(f2 FieldsV1) bool {
	switch {
	case f.compact != nil && f2.compact == nil:
		return f.compact.Equal(f2.Raw)
	case f.compact == nil && f2.compact != nil:
		return f2.compact.Equal(f.Raw)
	case f.compact != nil:
		return f.compact == f2.compact || f2.compact.Equal(f.compact.Bytes())
	}
	return bytes.Equal(f.Raw, f2.Raw)
}

// GetRawBytes returns the value, nil for a nil f. The bytes may be shared
// with other objects: do not modify them. A value held compactly is
// rebuilt into a new slice at each call.
func (f *FieldsV1) GetRawBytes() []byte {
	if f == nil {
		return nil
	}
	if f.compact != nil {
		return f.compact.Bytes()
	}
	return f.Raw
}

// GetRawString returns the value as a string, "" for a nil f.
func (f *FieldsV1) GetRawString() string {
	if f == nil {
		return ""
	}
	return f.String()
}

// SetRawBytes sets the value to a copy of b; it does nothing on a nil f.
func (f *FieldsV1) SetRawBytes(b []byte) {
	if f != nil {
		f.Raw, f.compact = bytes.Clone(b), nil
	}
}

// SetRawString sets the value to the bytes of s; it does nothing on a nil
// f.
func (f *FieldsV1) SetRawString(s string) {
	if f != nil {
		f.Raw, f.compact = []byte(s), nil
	}
}

// DeepCopyInto copies f into out; out.Raw is a new slice holding the
// value, whatever form f holds it in.
func (f *FieldsV1) DeepCopyInto(out *FieldsV1) {
	if f.compact != nil {
		out.Raw, out.compact = f.compact.Bytes(), nil
		return
	}
	out.Raw, out.compact = bytes.Clone(f.Raw), nil
}

// DeepCopy returns a copy of f that shares nothing with it, nil for nil.
func (f *FieldsV1) DeepCopy() *FieldsV1 {
	if f == nil {
		return nil
	}
	out := new(FieldsV1)
	f.DeepCopyInto(out)
	return out
}

// size is the length of the value.
func (f *FieldsV1) size() int {
	if f.compact != nil {
		return f.compact.Len()
	}
	return len(f.Raw)
}

// appendValue appends the value to b.
func (f *FieldsV1) appendValue(b []byte) []byte {
	if f.compact != nil {
		return f.compact.AppendTo(b)
	}
	return append(b, f.Raw...)
}

// setDecoded stores a value decoded through d: compactly when d allows.
func (f *FieldsV1) setDecoded(d *wire.Decoder, v []byte) {
	f.Raw, f.compact = d.CompactBytes(v)
}

// MarshalJSON writes Raw as it is, or null when it is empty. Upstream
// converts a Raw holding CBOR to JSON here; kubewire never decodes CBOR, so
// its Raw is always JSON.
func (f FieldsV1) MarshalJSON() ([]byte, error) {
	if f.size() == 0 {
		return []byte("null"), nil
	}
	if f.compact != nil {
		return f.compact.Bytes(), nil
	}
	return f.Raw, nil
}

// UnmarshalJSON keeps a copy of the raw JSON value; null leaves f unchanged,
// as upstream does.
func (f *FieldsV1) UnmarshalJSON(b []byte) error {
	if f == nil {
		return errors.New("meta/v1: FieldsV1.UnmarshalJSON on nil pointer")
	}
	if string(b) == "null" {
		return nil
	}
	// A new slice: the old one may be shared with other objects. Pretty
	// printed input (kube-apiserver indents for curl) is compacted, so the
	// cache holds the same bytes whichever way the object arrived.
	f.compact = nil
	if bytes.ContainsAny(b, " \t\r\n") {
		var buf bytes.Buffer
		if err := json.Compact(&buf, b); err != nil {
			return fmt.Errorf("meta/v1: FieldsV1: %w", err)
		}
		f.Raw = buf.Bytes()
		return nil
	}
	f.Raw = bytes.Clone(b)
	return nil
}

// Size returns the encoded size of m in bytes. Raw is written only when it
// is not empty, as kube-apiserver v1.36 does.
func (m *FieldsV1) Size() int {
	if m.size() == 0 {
		return 0
	}
	return 1 + protowire.SizeBytes(m.size())
}

// AppendProto appends the protobuf encoding of m to b.
func (m *FieldsV1) AppendProto(b []byte) []byte {
	if m.size() == 0 {
		return b
	}
	b = protowire.AppendVarint(append(b, 0x0a), uint64(m.size()))
	return m.appendValue(b)
}

// Marshal returns the protobuf encoding of m.
func (m *FieldsV1) Marshal() ([]byte, error) {
	return m.AppendProto(make([]byte, 0, m.Size())), nil
}

// Unmarshal replaces m with the message decoded from b. Raw does not alias b.
func (m *FieldsV1) Unmarshal(b []byte) error {
	*m = FieldsV1{}
	return m.UnmarshalProto(nil, b)
}

// UnmarshalProto merges the message encoded in b into m. Raw is shared with
// equal values decoded through d, or held compactly when d is ReadOnly
// (see FieldsV1); it never aliases b.
func (m *FieldsV1) UnmarshalProto(d *wire.Decoder, b []byte) error {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return wire.Error("FieldsV1", 0, n)
		}
		b = b[n:]
		if num == 1 {
			v, n := wire.ConsumeBytes(typ, b)
			if n < 0 {
				return wire.Error("FieldsV1", num, n)
			}
			m.setDecoded(d, v)
			b = b[n:]
			continue
		}
		n = wire.SkipField(num, typ, b)
		if n < 0 {
			return wire.Error("FieldsV1", num, n)
		}
		b = b[n:]
	}
	return nil
}
