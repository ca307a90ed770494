package v1

import (
	"encoding/json"
	"errors"
	"time"

	"github.com/kubewire/kubewire/api/wire"
	"google.golang.org/protobuf/encoding/protowire"
)

// Time mirrors metav1.Time: a time.Time that travels at second precision,
// as an RFC 3339 string in JSON and as a Timestamp message in protobuf.
//
// Unlike upstream, which converts every value to the local zone, kubewire
// keeps times in UTC: constructors and decoders return UTC values without a
// monotonic clock reading, so times decoded from JSON, from protobuf and
// built with NewTime compare equal with == and reflect.DeepEqual when they
// denote the same instant. Call In or Local on the embedded time.Time to
// display another zone.
//
// The zero value is the zero time, written as null in JSON and as an empty
// message in protobuf. Time is a plain value: copy it freely.
type Time struct {
	time.Time `protobuf:"-"`
}

// NewTime returns t as a Time in UTC.
func NewTime(t time.Time) Time { return Time{utc(t)} }

// Date returns the Time of time.Date(year, month, ..., loc), in UTC.
func Date(year int, month time.Month, day, hour, min, sec, nsec int, loc *time.Location) Time {
	return Time{time.Date(year, month, day, hour, min, sec, nsec, loc).UTC()}
}

// Now returns the current time in UTC.
func Now() Time { return Time{time.Now().UTC()} }

// Unix returns the Time of time.Unix(sec, nsec), in UTC.
func Unix(sec int64, nsec int64) Time { return Time{time.Unix(sec, nsec).UTC()} }

// utc returns t in UTC, keeping the zero time zero.
func utc(t time.Time) time.Time {
	if t.IsZero() {
		return time.Time{}
	}
	return t.UTC()
}

// IsZero reports whether t is nil or the zero time.
func (t *Time) IsZero() bool {
	return t == nil || t.Time.IsZero()
}

// Before reports whether t is before u; it is false when either is nil.
func (t *Time) Before(u *Time) bool {
	return t != nil && u != nil && t.Time.Before(u.Time)
}

// Equal reports whether t and u are the same instant, or both nil.
func (t *Time) Equal(u *Time) bool {
	if t == nil || u == nil {
		return t == u
	}
	return t.Time.Equal(u.Time)
}

// Rfc3339Copy returns t truncated to whole seconds, the precision its JSON
// form keeps.
func (t Time) Rfc3339Copy() Time {
	return Time{utc(t.Time).Truncate(time.Second)}
}

// DeepCopyInto copies t into out; time.Time is immutable, so a plain copy
// shares nothing that can change.
func (t *Time) DeepCopyInto(out *Time) { *out = *t }

// DeepCopy returns a copy of t, nil for nil.
func (t *Time) DeepCopy() *Time {
	if t == nil {
		return nil
	}
	out := *t
	return &out
}

// MarshalJSON writes t as an RFC 3339 string in UTC at second precision, or
// null for the zero time.
func (t Time) MarshalJSON() ([]byte, error) {
	if t.Time.IsZero() {
		return []byte("null"), nil
	}
	b := make([]byte, 0, len(time.RFC3339)+2)
	b = append(b, '"')
	b = t.Time.UTC().AppendFormat(b, time.RFC3339)
	return append(b, '"'), nil
}

// UnmarshalJSON reads an RFC 3339 string; null and "" give the zero time.
// Fractional seconds in the input are kept.
func (t *Time) UnmarshalJSON(b []byte) error {
	s, null, err := jsonString(b)
	if err != nil {
		return err
	}
	if null || s == "" {
		t.Time = time.Time{}
		return nil
	}
	pt, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return err
	}
	t.Time = pt.UTC()
	return nil
}

// MarshalQueryParameter returns t as a URL query parameter value: RFC 3339
// with nanoseconds in UTC, or "" for the zero time.
func (t Time) MarshalQueryParameter() (string, error) {
	if t.Time.IsZero() {
		return "", nil
	}
	return t.Time.UTC().Format(time.RFC3339Nano), nil
}

// UnmarshalQueryParameter reads a URL query parameter value written by
// MarshalQueryParameter; "" and "null" give the zero time.
func (t *Time) UnmarshalQueryParameter(s string) error {
	if s == "" || s == "null" {
		t.Time = time.Time{}
		return nil
	}
	pt, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return err
	}
	t.Time = pt.UTC()
	return nil
}

// The protobuf form is message Timestamp {int64 seconds = 1; int32 nanos =
// 2}. Like kube-apiserver, Time writes nothing for the zero time, writes
// nanos as 0 and reads whole seconds only: its JSON form has no fraction,
// and the two encodings must agree.

// Size returns the encoded size of m in bytes: 0 for the zero time.
func (m *Time) Size() int {
	if m.IsZero() {
		return 0
	}
	return timestampSize(m.Time.Unix(), 0)
}

// AppendProto appends the protobuf encoding of m to b.
func (m *Time) AppendProto(b []byte) []byte {
	if m.IsZero() {
		return b
	}
	return appendTimestamp(b, m.Time.Unix(), 0)
}

// Marshal returns the protobuf encoding of m.
func (m *Time) Marshal() ([]byte, error) { return m.AppendProto(make([]byte, 0, m.Size())), nil }

// Unmarshal replaces m with the message decoded from b.
func (m *Time) Unmarshal(b []byte) error {
	*m = Time{}
	return m.UnmarshalProto(nil, b)
}

// UnmarshalProto sets m from the Timestamp message in b, dropping its
// nanoseconds; an empty message is the zero time.
func (m *Time) UnmarshalProto(_ *wire.Decoder, b []byte) error {
	if len(b) == 0 {
		m.Time = time.Time{}
		return nil
	}
	sec, _, err := consumeTimestamp("Time", b)
	if err != nil {
		return err
	}
	m.Time = time.Unix(sec, 0).UTC()
	return nil
}

// timestampSize is the size of a Timestamp message; both fields are
// written, as kube-apiserver's proto2 encoding does.
func timestampSize(sec int64, nsec int32) int {
	return 1 + protowire.SizeVarint(uint64(sec)) + 1 + protowire.SizeVarint(uint64(int64(nsec)))
}

func appendTimestamp(b []byte, sec int64, nsec int32) []byte {
	b = protowire.AppendVarint(append(b, 0x08), uint64(sec))
	return protowire.AppendVarint(append(b, 0x10), uint64(int64(nsec)))
}

// consumeTimestamp decodes a Timestamp message; absent fields are 0 and
// unknown fields are skipped.
func consumeTimestamp(msg string, b []byte) (sec int64, nsec int32, err error) {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return 0, 0, wire.Error(msg, 0, n)
		}
		b = b[n:]
		switch num {
		case 1, 2:
			v, n := wire.ConsumeVarint(typ, b)
			if n < 0 {
				return 0, 0, wire.Error(msg, num, n)
			}
			if num == 1 {
				sec = int64(v)
			} else {
				nsec = int32(v)
			}
			b = b[n:]
		default:
			n := wire.SkipField(num, typ, b)
			if n < 0 {
				return 0, 0, wire.Error(msg, num, n)
			}
			b = b[n:]
		}
	}
	return sec, nsec, nil
}

// jsonString returns the string a JSON value holds, or null == true for a
// JSON null. Strings without escapes are read without encoding/json, since
// timestamps are in every object and never need it.
func jsonString(b []byte) (s string, null bool, err error) {
	if string(b) == "null" {
		return "", true, nil
	}
	if len(b) >= 2 && b[0] == '"' && b[len(b)-1] == '"' {
		inner := b[1 : len(b)-1]
		plain := true
		for _, c := range inner {
			if c == '\\' || c == '"' || c < 0x20 {
				plain = false
				break
			}
		}
		if plain {
			return string(inner), false, nil
		}
	}
	if len(b) == 0 || b[0] != '"' {
		return "", false, errors.New("meta/v1: time must be a JSON string or null")
	}
	err = json.Unmarshal(b, &s)
	return s, false, err
}
