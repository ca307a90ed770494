package wire

import "bytes"

// UnknownFields keeps the raw bytes of protobuf fields a message does not
// know (written by a newer server), so that a decode followed by an encode
// gives them back instead of silently dropping them. It is one pointer wide
// so that messages without unknown fields pay only that.
//
// The zero value holds nothing. UnknownFields compares by content through
// its Equal method, which go-cmp uses; encoding/json skips it.
type UnknownFields struct {
	raw *[]byte
}

// Append adds the raw bytes of one field (tag and value).
func (u *UnknownFields) Append(field []byte) {
	if u.raw == nil {
		b := make([]byte, 0, len(field))
		u.raw = &b
	}
	*u.raw = append(*u.raw, field...)
}

// Raw returns the kept bytes, nil when there are none. The caller must not
// modify them.
func (u UnknownFields) Raw() []byte {
	if u.raw == nil {
		return nil
	}
	return *u.raw
}

// Len is the number of kept bytes.
func (u UnknownFields) Len() int { return len(u.Raw()) }

// Equal reports whether u and v keep the same bytes.
func (u UnknownFields) Equal(v UnknownFields) bool { return bytes.Equal(u.Raw(), v.Raw()) }

// DeepCopy returns a copy that shares nothing with u.
func (u UnknownFields) DeepCopy() UnknownFields {
	if u.raw == nil {
		return UnknownFields{}
	}
	b := bytes.Clone(*u.raw)
	return UnknownFields{raw: &b}
}

// AppendTo appends the kept bytes to b.
func (u UnknownFields) AppendTo(b []byte) []byte { return append(b, u.Raw()...) }
