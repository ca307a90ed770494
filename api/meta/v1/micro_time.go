package v1

import (
	"time"

	"github.com/kubewire/kubewire/api/wire"
)

// MicroTime mirrors metav1.MicroTime: a Time with microsecond precision,
// written in JSON in the RFC3339Micro layout (six fractional digits) and in
// protobuf as a Timestamp whose nanoseconds are whole microseconds.
//
// Like Time, and unlike upstream, values are kept in UTC so that equal
// instants compare equal. The zero value is the zero time. MicroTime is a
// plain value: copy it freely.
type MicroTime struct {
	time.Time `protobuf:"-"`
}

// NewMicroTime returns t as a MicroTime in UTC.
func NewMicroTime(t time.Time) MicroTime { return MicroTime{utc(t)} }

// DateMicro returns the MicroTime of time.Date(year, month, ..., loc), in UTC.
func DateMicro(year int, month time.Month, day, hour, min, sec, nsec int, loc *time.Location) MicroTime {
	return MicroTime{time.Date(year, month, day, hour, min, sec, nsec, loc).UTC()}
}

// NowMicro returns the current time in UTC.
func NowMicro() MicroTime { return MicroTime{time.Now().UTC()} }

// UnixMicro returns the MicroTime of time.Unix(sec, nsec), in UTC.
func UnixMicro(sec int64, nsec int64) MicroTime { return MicroTime{time.Unix(sec, nsec).UTC()} }

// String returns the time as time.Time.String formats it.
func (t MicroTime) String() string { return t.Time.String() }

// IsZero reports whether t is nil or the zero time.
func (t *MicroTime) IsZero() bool {
	return t == nil || t.Time.IsZero()
}

// Before reports whether t is before u; it is false when either is nil.
func (t *MicroTime) Before(u *MicroTime) bool {
	return t != nil && u != nil && t.Time.Before(u.Time)
}

// Equal reports whether t and u are the same instant, or both nil.
func (t *MicroTime) Equal(u *MicroTime) bool {
	if t == nil || u == nil {
		return t == u
	}
	return t.Time.Equal(u.Time)
}

// BeforeTime reports whether t is before the second-precision u; it is
// false when either is nil.
func (t *MicroTime) BeforeTime(u *Time) bool {
	return t != nil && u != nil && t.Time.Before(u.Time)
}

// EqualTime reports whether t and the second-precision u are the same
// instant, or both nil.
func (t *MicroTime) EqualTime(u *Time) bool {
	if t == nil || u == nil {
		return t == nil && u == nil
	}
	return t.Time.Equal(u.Time)
}

// DeepCopyInto copies t into out.
func (t *MicroTime) DeepCopyInto(out *MicroTime) { *out = *t }

// DeepCopy returns a copy of t, nil for nil.
func (t *MicroTime) DeepCopy() *MicroTime {
	if t == nil {
		return nil
	}
	out := *t
	return &out
}

// MarshalJSON writes t in RFC3339Micro layout in UTC, or null for the zero
// time. Digits past the microsecond are dropped, not rounded.
func (t MicroTime) MarshalJSON() ([]byte, error) {
	if t.Time.IsZero() {
		return []byte("null"), nil
	}
	b := make([]byte, 0, len(RFC3339Micro)+2)
	b = append(b, '"')
	b = t.Time.UTC().AppendFormat(b, RFC3339Micro)
	return append(b, '"'), nil
}

// UnmarshalJSON reads a string in RFC3339Micro layout (six fractional
// digits are required, as upstream requires them); null and "" give the
// zero time.
func (t *MicroTime) UnmarshalJSON(b []byte) error {
	s, _, err := jsonString(b)
	if err != nil {
		return err
	}
	return t.UnmarshalQueryParameter(s)
}

// MarshalQueryParameter returns t as a URL query parameter value in
// RFC3339Micro layout, or "" for the zero time.
func (t MicroTime) MarshalQueryParameter() (string, error) {
	if t.Time.IsZero() {
		return "", nil
	}
	return t.Time.UTC().Format(RFC3339Micro), nil
}

// UnmarshalQueryParameter reads a URL query parameter value in RFC3339Micro
// layout; "" and "null" give the zero time.
func (t *MicroTime) UnmarshalQueryParameter(s string) error {
	if s == "" || s == "null" {
		t.Time = time.Time{}
		return nil
	}
	pt, err := time.Parse(RFC3339Micro, s)
	if err != nil {
		return err
	}
	t.Time = pt.UTC()
	return nil
}

// The protobuf form is the Timestamp message Time uses. Like kube-apiserver,
// MicroTime writes and reads nanoseconds truncated to whole microseconds,
// so that protobuf and JSON carry the same value.

// Size returns the encoded size of m in bytes: 0 for the zero time.
func (m *MicroTime) Size() int {
	if m.IsZero() {
		return 0
	}
	return timestampSize(m.Time.Unix(), microNanos(m.Time.Nanosecond()))
}

// AppendProto appends the protobuf encoding of m to b.
func (m *MicroTime) AppendProto(b []byte) []byte {
	if m.IsZero() {
		return b
	}
	return appendTimestamp(b, m.Time.Unix(), microNanos(m.Time.Nanosecond()))
}

// Marshal returns the protobuf encoding of m.
func (m *MicroTime) Marshal() ([]byte, error) {
	return m.AppendProto(make([]byte, 0, m.Size())), nil
}

// Unmarshal replaces m with the message decoded from b.
func (m *MicroTime) Unmarshal(b []byte) error {
	*m = MicroTime{}
	return m.UnmarshalProto(nil, b)
}

// UnmarshalProto sets m from the Timestamp message in b; an empty message is
// the zero time. Nanoseconds are truncated toward zero to microseconds, then
// normalized as time.Unix does.
func (m *MicroTime) UnmarshalProto(_ *wire.Decoder, b []byte) error {
	if len(b) == 0 {
		m.Time = time.Time{}
		return nil
	}
	sec, nsec, err := consumeTimestamp("MicroTime", b)
	if err != nil {
		return err
	}
	m.Time = time.Unix(sec, int64(microNanos(int(nsec)))).UTC()
	return nil
}

// microNanos truncates nanoseconds toward zero to whole microseconds.
func microNanos(nsec int) int32 { return int32(nsec - nsec%1000) }
