package intstr

import (
	"github.com/kubewire/kubewire/api/wire"
	"google.golang.org/protobuf/encoding/protowire"
)

// The protobuf message is {int64 type = 1; int32 intVal = 2; string strVal
// = 3}; as in kube-apiserver's proto2 encoding all three are always written.

// Size returns the encoded size of m in bytes.
func (m *IntOrString) Size() int {
	return 1 + protowire.SizeVarint(uint64(m.Type)) +
		1 + protowire.SizeVarint(uint64(int64(m.IntVal))) +
		1 + protowire.SizeBytes(len(m.StrVal))
}

// AppendProto appends the protobuf encoding of m to b.
func (m *IntOrString) AppendProto(b []byte) []byte {
	b = protowire.AppendVarint(append(b, 0x08), uint64(m.Type))
	// A negative int32 is sign-extended to ten bytes, as proto requires.
	b = protowire.AppendVarint(append(b, 0x10), uint64(int64(m.IntVal)))
	return protowire.AppendString(append(b, 0x1a), m.StrVal)
}

// Marshal returns the protobuf encoding of m.
func (m *IntOrString) Marshal() ([]byte, error) {
	return m.AppendProto(make([]byte, 0, m.Size())), nil
}

// Unmarshal replaces m with the message decoded from b.
func (m *IntOrString) Unmarshal(b []byte) error {
	*m = IntOrString{}
	return m.UnmarshalProto(nil, b)
}

// UnmarshalProto merges the message encoded in b into m. Unknown fields are
// skipped.
func (m *IntOrString) UnmarshalProto(d *wire.Decoder, b []byte) error {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return wire.Error("IntOrString", 0, n)
		}
		b = b[n:]
		switch num {
		case 1, 2:
			v, n := wire.ConsumeVarint(typ, b)
			if n < 0 {
				return wire.Error("IntOrString", num, n)
			}
			if num == 1 {
				m.Type = Type(v)
			} else {
				m.IntVal = int32(v)
			}
			b = b[n:]
		case 3:
			v, n := wire.ConsumeBytes(typ, b)
			if n < 0 {
				return wire.Error("IntOrString", num, n)
			}
			m.StrVal = d.String(v)
			b = b[n:]
		default:
			n := wire.SkipField(num, typ, b)
			if n < 0 {
				return wire.Error("IntOrString", num, n)
			}
			b = b[n:]
		}
	}
	return nil
}
