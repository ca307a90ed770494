package v1

import (
	"encoding/json"
	"time"

	"github.com/kubewire/kubewire/api/wire"
	"google.golang.org/protobuf/encoding/protowire"
)

// Duration mirrors metav1.Duration: a time.Duration written in JSON as a Go
// duration string such as "1h2m3s", and in protobuf as message {int64
// duration = 1} holding nanoseconds.
//
// JSON null leaves the value unchanged (upstream rejects it). The zero value
// is a zero duration.
type Duration struct {
	time.Duration `protobuf:"varint,1,opt,name=duration,casttype=time.Duration"`
}

// MarshalJSON writes d as a duration string.
func (d Duration) MarshalJSON() ([]byte, error) {
	return json.Marshal(d.Duration.String())
}

// UnmarshalJSON reads a duration string as time.ParseDuration does.
func (d *Duration) UnmarshalJSON(b []byte) error {
	s, null, err := jsonString(b)
	if err != nil || null {
		return err
	}
	pd, err := time.ParseDuration(s)
	if err != nil {
		return err
	}
	d.Duration = pd
	return nil
}

// DeepCopyInto copies d into out.
func (d *Duration) DeepCopyInto(out *Duration) { *out = *d }

// DeepCopy returns a copy of d, nil for nil.
func (d *Duration) DeepCopy() *Duration {
	if d == nil {
		return nil
	}
	out := *d
	return &out
}

// Size returns the encoded size of m in bytes; the field is always written.
func (m *Duration) Size() int { return 1 + protowire.SizeVarint(uint64(m.Duration)) }

// AppendProto appends the protobuf encoding of m to b.
func (m *Duration) AppendProto(b []byte) []byte {
	return protowire.AppendVarint(append(b, 0x08), uint64(m.Duration))
}

// Marshal returns the protobuf encoding of m.
func (m *Duration) Marshal() ([]byte, error) {
	return m.AppendProto(make([]byte, 0, m.Size())), nil
}

// Unmarshal replaces m with the message decoded from b.
func (m *Duration) Unmarshal(b []byte) error {
	*m = Duration{}
	return m.UnmarshalProto(nil, b)
}

// UnmarshalProto merges the message encoded in b into m. Unknown fields are
// skipped.
func (m *Duration) UnmarshalProto(_ *wire.Decoder, b []byte) error {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return wire.Error("Duration", 0, n)
		}
		b = b[n:]
		if num == 1 {
			v, n := wire.ConsumeVarint(typ, b)
			if n < 0 {
				return wire.Error("Duration", num, n)
			}
			m.Duration = time.Duration(v)
			b = b[n:]
			continue
		}
		n = wire.SkipField(num, typ, b)
		if n < 0 {
			return wire.Error("Duration", num, n)
		}
		b = b[n:]
	}
	return nil
}
