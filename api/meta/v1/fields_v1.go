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
// Raw decoded from protobuf through a shared wire.Decoder is shared by every
// object whose entry has the same bytes, because managedFields repeat across
// the objects of a list. Never modify Raw in place: assign a new slice, use
// SetRawBytes, or DeepCopy first.
type FieldsV1 struct {
	Raw []byte `json:"-" protobuf:"bytes,1,opt,name=Raw"`
}

// NewFieldsV1 returns a FieldsV1 holding raw.
func NewFieldsV1(raw string) *FieldsV1 { return &FieldsV1{Raw: []byte(raw)} }

// String returns Raw as a string.
func (f FieldsV1) String() string { return string(f.Raw) }

// Equal reports whether f and f2 hold the same bytes.
func (f FieldsV1) Equal(f2 FieldsV1) bool { return bytes.Equal(f.Raw, f2.Raw) }

// GetRawBytes returns Raw, nil for a nil f. The bytes may be shared with
// other objects: do not modify them.
func (f *FieldsV1) GetRawBytes() []byte {
	if f == nil {
		return nil
	}
	return f.Raw
}

// GetRawString returns Raw as a string, "" for a nil f.
func (f *FieldsV1) GetRawString() string {
	if f == nil {
		return ""
	}
	return string(f.Raw)
}

// SetRawBytes sets Raw to a copy of b; it does nothing on a nil f.
func (f *FieldsV1) SetRawBytes(b []byte) {
	if f != nil {
		f.Raw = bytes.Clone(b)
	}
}

// SetRawString sets Raw to the bytes of s; it does nothing on a nil f.
func (f *FieldsV1) SetRawString(s string) {
	if f != nil {
		f.Raw = []byte(s)
	}
}

// DeepCopyInto copies f into out; out.Raw is a new slice.
func (f *FieldsV1) DeepCopyInto(out *FieldsV1) {
	out.Raw = bytes.Clone(f.Raw)
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

// MarshalJSON writes Raw as it is, or null when it is empty. Upstream
// converts a Raw holding CBOR to JSON here; kubewire never decodes CBOR, so
// its Raw is always JSON.
func (f FieldsV1) MarshalJSON() ([]byte, error) {
	if len(f.Raw) == 0 {
		return []byte("null"), nil
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
	if len(m.Raw) == 0 {
		return 0
	}
	return 1 + protowire.SizeBytes(len(m.Raw))
}

// AppendProto appends the protobuf encoding of m to b.
func (m *FieldsV1) AppendProto(b []byte) []byte {
	if len(m.Raw) == 0 {
		return b
	}
	return protowire.AppendBytes(append(b, 0x0a), m.Raw)
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
// equal values decoded through d (see FieldsV1); it never aliases b.
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
			m.Raw = d.SharedBytes(v)
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
