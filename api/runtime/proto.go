package runtime

import (
	"bytes"

	"github.com/kubewire/kubewire/api/wire"
	"google.golang.org/protobuf/encoding/protowire"
)

// Size returns the encoded size of m in bytes.
func (m *TypeMeta) Size() int {
	return 1 + protowire.SizeBytes(len(m.APIVersion)) + 1 + protowire.SizeBytes(len(m.Kind)) + m.UnknownFields.Len()
}

// AppendProto appends the protobuf encoding of m to b.
func (m *TypeMeta) AppendProto(b []byte) []byte {
	b = protowire.AppendString(append(b, 0x0a), m.APIVersion)
	b = protowire.AppendString(append(b, 0x12), m.Kind)
	return m.UnknownFields.AppendTo(b)
}

// Marshal returns the protobuf encoding of m.
func (m *TypeMeta) Marshal() ([]byte, error) { return m.AppendProto(make([]byte, 0, m.Size())), nil }

// Unmarshal replaces m with the message decoded from b.
func (m *TypeMeta) Unmarshal(b []byte) error {
	*m = TypeMeta{}
	return m.UnmarshalProto(new(wire.Decoder), b)
}

// UnmarshalProto merges the message encoded in b into m.
func (m *TypeMeta) UnmarshalProto(d *wire.Decoder, b []byte) error {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return wire.Error("TypeMeta", 0, n)
		}
		field := b
		b = b[n:]
		switch num {
		case 1, 2:
			v, n := wire.ConsumeBytes(typ, b)
			if n < 0 {
				return wire.Error("TypeMeta", num, n)
			}
			if num == 1 {
				m.APIVersion = d.String(v)
			} else {
				m.Kind = d.String(v)
			}
			b = b[n:]
		default:
			n := wire.SkipField(num, typ, b)
			if n < 0 {
				return wire.Error("TypeMeta", num, n)
			}
			m.UnknownFields.Append(field[:len(field)-len(b)+n])
			b = b[n:]
		}
	}
	return nil
}

// Size returns the encoded size of m in bytes.
func (m *Unknown) Size() int {
	n := 1 + protowire.SizeBytes(m.TypeMeta.Size())
	if m.Raw != nil {
		n += 1 + protowire.SizeBytes(len(m.Raw))
	}
	n += 1 + protowire.SizeBytes(len(m.ContentEncoding))
	n += 1 + protowire.SizeBytes(len(m.ContentType))
	return n + m.UnknownFields.Len()
}

// AppendProto appends the protobuf encoding of m to b.
func (m *Unknown) AppendProto(b []byte) []byte {
	b = protowire.AppendVarint(append(b, 0x0a), uint64(m.TypeMeta.Size()))
	b = m.TypeMeta.AppendProto(b)
	if m.Raw != nil {
		b = protowire.AppendBytes(append(b, 0x12), m.Raw)
	}
	b = protowire.AppendString(append(b, 0x1a), m.ContentEncoding)
	b = protowire.AppendString(append(b, 0x22), m.ContentType)
	return m.UnknownFields.AppendTo(b)
}

// Marshal returns the protobuf encoding of m.
func (m *Unknown) Marshal() ([]byte, error) { return m.AppendProto(make([]byte, 0, m.Size())), nil }

// Unmarshal replaces m with the message decoded from b. Raw aliases
// nothing in b: it is a copy.
func (m *Unknown) Unmarshal(b []byte) error {
	*m = Unknown{}
	return m.UnmarshalProto(nil, b)
}

// UnmarshalProto merges the message encoded in b into m.
func (m *Unknown) UnmarshalProto(d *wire.Decoder, b []byte) error {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return wire.Error("Unknown", 0, n)
		}
		field := b
		b = b[n:]
		switch num {
		case 1, 2, 3, 4:
			v, n := wire.ConsumeBytes(typ, b)
			if n < 0 {
				return wire.Error("Unknown", num, n)
			}
			switch num {
			case 1:
				if err := m.TypeMeta.UnmarshalProto(d, v); err != nil {
					return err
				}
			case 2:
				m.Raw = d.Bytes(v)
			case 3:
				m.ContentEncoding = d.String(v)
			case 4:
				m.ContentType = d.String(v)
			}
			b = b[n:]
		default:
			n := wire.SkipField(num, typ, b)
			if n < 0 {
				return wire.Error("Unknown", num, n)
			}
			m.UnknownFields.Append(field[:len(field)-len(b)+n])
			b = b[n:]
		}
	}
	return nil
}

// Size returns the encoded size of m in bytes.
func (m *RawExtension) Size() int {
	n := m.UnknownFields.Len()
	if m.Raw != nil {
		n += 1 + protowire.SizeBytes(len(m.Raw))
	}
	return n
}

// AppendProto appends the protobuf encoding of m to b.
func (m *RawExtension) AppendProto(b []byte) []byte {
	if m.Raw != nil {
		b = protowire.AppendBytes(append(b, 0x0a), m.Raw)
	}
	return m.UnknownFields.AppendTo(b)
}

// Marshal returns the protobuf encoding of m.
func (m *RawExtension) Marshal() ([]byte, error) {
	return m.AppendProto(make([]byte, 0, m.Size())), nil
}

// Unmarshal replaces m with the message decoded from b.
func (m *RawExtension) Unmarshal(b []byte) error {
	*m = RawExtension{}
	return m.UnmarshalProto(nil, b)
}

// UnmarshalProto merges the message encoded in b into m.
func (m *RawExtension) UnmarshalProto(d *wire.Decoder, b []byte) error {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return wire.Error("RawExtension", 0, n)
		}
		field := b
		b = b[n:]
		if num == 1 {
			v, n := wire.ConsumeBytes(typ, b)
			if n < 0 {
				return wire.Error("RawExtension", num, n)
			}
			m.Raw = d.Bytes(v)
			b = b[n:]
			continue
		}
		n = wire.SkipField(num, typ, b)
		if n < 0 {
			return wire.Error("RawExtension", num, n)
		}
		m.UnknownFields.Append(field[:len(field)-len(b)+n])
		b = b[n:]
	}
	return nil
}

// DeepCopyInto copies m into out; they share nothing.
func (m *TypeMeta) DeepCopyInto(out *TypeMeta) {
	*out = *m
	out.UnknownFields = m.UnknownFields.DeepCopy()
}

// DeepCopy returns a copy of m that shares nothing with it.
func (m *TypeMeta) DeepCopy() *TypeMeta {
	if m == nil {
		return nil
	}
	out := new(TypeMeta)
	m.DeepCopyInto(out)
	return out
}

// DeepCopyInto copies m into out; they share nothing.
func (m *Unknown) DeepCopyInto(out *Unknown) {
	*out = *m
	m.TypeMeta.DeepCopyInto(&out.TypeMeta)
	out.Raw = bytes.Clone(m.Raw)
	out.UnknownFields = m.UnknownFields.DeepCopy()
}

// DeepCopy returns a copy of m that shares nothing with it.
func (m *Unknown) DeepCopy() *Unknown {
	if m == nil {
		return nil
	}
	out := new(Unknown)
	m.DeepCopyInto(out)
	return out
}

// DeepCopyInto copies m into out; they share nothing.
func (m *RawExtension) DeepCopyInto(out *RawExtension) {
	out.Raw = bytes.Clone(m.Raw)
	out.UnknownFields = m.UnknownFields.DeepCopy()
}

// DeepCopy returns a copy of m that shares nothing with it.
func (m *RawExtension) DeepCopy() *RawExtension {
	if m == nil {
		return nil
	}
	out := new(RawExtension)
	m.DeepCopyInto(out)
	return out
}
