package v1

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/kubewire/kubewire/api/wire"
	"google.golang.org/protobuf/encoding/protowire"
)

var plus2 = time.FixedZone("plus2", 2*60*60)

func TestTimeConstructorsUseUTC(t *testing.T) {
	want := time.Date(2026, 11, 22, 2, 10, 52, 0, time.UTC)
	tests := []struct {
		name string
		got  Time
	}{
		{"NewTime", NewTime(time.Date(2026, 11, 22, 4, 10, 52, 0, plus2))},
		{"Date", Date(2026, 11, 22, 4, 10, 52, 0, plus2)},
		{"Unix", Unix(want.Unix(), 0)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// == rather than Equal: the point is that the values are identical.
			if tt.got.Time != want {
				t.Errorf("got %#v, want %#v", tt.got.Time, want)
			}
		})
	}
	if now := Now(); now.Location() != time.UTC || now.Time != now.Round(0) {
		t.Errorf("Now() = %v, want UTC without a monotonic reading", now.Time)
	}
	if z := NewTime(time.Time{}); !z.IsZero() {
		t.Error("NewTime(zero) is not zero")
	}
}

func TestTimeCompare(t *testing.T) {
	a, b := Unix(100, 0), Unix(200, 0)
	sameAsA := NewTime(time.Unix(100, 0).In(plus2))
	tests := []struct {
		name       string
		x, y       *Time
		before, eq bool
	}{
		{"before", &a, &b, true, false},
		{"after", &b, &a, false, false},
		{"same instant, other zone", &a, &sameAsA, false, true},
		{"nil receiver", nil, &a, false, false},
		{"nil argument", &a, nil, false, false},
		{"both nil", nil, nil, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.x.Before(tt.y); got != tt.before {
				t.Errorf("Before = %v, want %v", got, tt.before)
			}
			if got := tt.x.Equal(tt.y); got != tt.eq {
				t.Errorf("Equal = %v, want %v", got, tt.eq)
			}
		})
	}
	var nilTime *Time
	if !nilTime.IsZero() || !(&Time{}).IsZero() || a.IsZero() {
		t.Error("IsZero: want true for nil and the zero time, false otherwise")
	}
}

func TestTimeRfc3339Copy(t *testing.T) {
	in := NewTime(time.Date(2026, 1, 2, 3, 4, 5, 999_999_999, plus2))
	want := time.Date(2026, 1, 2, 1, 4, 5, 0, time.UTC)
	if got := in.Rfc3339Copy(); got.Time != want {
		t.Errorf("Rfc3339Copy() = %v, want %v", got.Time, want)
	}
}

func TestTimeMarshalJSON(t *testing.T) {
	tests := []struct {
		name string
		in   Time
		want string
	}{
		{"zero", Time{}, `null`},
		{"utc", Date(2026, 11, 22, 2, 10, 52, 0, time.UTC), `"2026-11-22T02:10:52Z"`},
		{"other zone written in utc", Time{time.Date(2026, 11, 22, 4, 10, 52, 0, plus2)}, `"2026-11-22T02:10:52Z"`},
		{"fraction dropped", Date(2026, 11, 22, 2, 10, 52, 900_000_000, time.UTC), `"2026-11-22T02:10:52Z"`},
		{"epoch", Unix(0, 0), `"1970-01-01T00:00:00Z"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := json.Marshal(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, string(got)); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestTimeUnmarshalJSON(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    time.Time
		wantErr bool
	}{
		{"null", `null`, time.Time{}, false},
		{"empty string", `""`, time.Time{}, false},
		{"utc", `"2026-11-22T02:10:52Z"`, time.Date(2026, 11, 22, 2, 10, 52, 0, time.UTC), false},
		{"offset", `"2026-11-22T04:10:52+02:00"`, time.Date(2026, 11, 22, 2, 10, 52, 0, time.UTC), false},
		{"fraction kept", `"2026-11-22T02:10:52.5Z"`, time.Date(2026, 11, 22, 2, 10, 52, 500_000_000, time.UTC), false},
		{"escaped", `"2026-11-22T02:10:52\u005a"`, time.Date(2026, 11, 22, 2, 10, 52, 0, time.UTC), false},
		{"date only", `"2026-11-22"`, time.Time{}, true},
		{"number", `1700000000`, time.Time{}, true},
		{"junk", `"yesterday"`, time.Time{}, true},
		{"unterminated", `"2026`, time.Time{}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Unix(1, 0) // decoding replaces whatever was there
			err := json.Unmarshal([]byte(tt.in), &got)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tt.wantErr)
			}
			if err == nil && got.Time != tt.want {
				t.Errorf("got %#v, want %#v", got.Time, tt.want)
			}
		})
	}
}

func TestTimeJSONInStruct(t *testing.T) {
	type obj struct {
		Created Time  `json:"created"`
		Deleted *Time `json:"deleted,omitempty"`
	}
	in := obj{Created: Unix(1_795_313_452, 0)}
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(`{"created":"2026-11-22T02:10:52Z"}`, string(b)); diff != "" {
		t.Errorf("Marshal mismatch (-want +got):\n%s", diff)
	}
	var back obj
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back != in {
		t.Errorf("round trip = %+v, want %+v", back, in)
	}
}

func TestTimeQueryParameter(t *testing.T) {
	in := Date(2026, 11, 22, 2, 10, 52, 123, time.UTC)
	s, err := in.MarshalQueryParameter()
	if err != nil {
		t.Fatal(err)
	}
	if s != "2026-11-22T02:10:52.000000123Z" {
		t.Errorf("MarshalQueryParameter() = %q", s)
	}
	var back Time
	if err := back.UnmarshalQueryParameter(s); err != nil {
		t.Fatal(err)
	}
	if back != in {
		t.Errorf("round trip = %v, want %v", back, in)
	}
	if s, _ := (Time{}).MarshalQueryParameter(); s != "" {
		t.Errorf("zero MarshalQueryParameter() = %q, want empty", s)
	}
	for _, in := range []string{"", "null"} {
		back = Unix(2, 0)
		if err := back.UnmarshalQueryParameter(in); err != nil || !back.IsZero() {
			t.Errorf("UnmarshalQueryParameter(%q) = %v, %v; want zero time", in, back, err)
		}
	}
	if err := back.UnmarshalQueryParameter("soon"); err == nil {
		t.Error("UnmarshalQueryParameter(soon) succeeded")
	}
}

func TestTimeProto(t *testing.T) {
	tests := []struct {
		name string
		in   Time
		want []byte
	}{
		{"zero writes nothing", Time{}, []byte{}},
		// creationTimestamp of fixtures/.../objects/lease-leader.pb.body.
		{"fixture", Date(2026, 11, 22, 2, 10, 52, 0, time.UTC), []byte{0x08, 0xac, 0x9e, 0x89, 0xd8, 0x06, 0x10, 0x00}},
		{"nanos are not written", Date(2026, 11, 22, 2, 10, 52, 999, time.UTC), []byte{0x08, 0xac, 0x9e, 0x89, 0xd8, 0x06, 0x10, 0x00}},
		{"epoch", Unix(0, 0), []byte{0x08, 0x00, 0x10, 0x00}},
		{"before epoch", Unix(-1, 0), []byte{0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01, 0x10, 0x00}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.in.Marshal()
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Marshal mismatch (-want +got):\n%s", diff)
			}
			if n := tt.in.Size(); n != len(tt.want) {
				t.Errorf("Size() = %d, want %d", n, len(tt.want))
			}
			back := Unix(5, 0)
			if err := back.Unmarshal(got); err != nil {
				t.Fatal(err)
			}
			if want := tt.in.Rfc3339Copy(); back != want {
				t.Errorf("Unmarshal = %#v, want %#v", back.Time, want.Time)
			}
		})
	}
	var nilTime *Time
	if nilTime.Size() != 0 {
		t.Error("nil Size() != 0")
	}
}

func TestTimeUnmarshalProto(t *testing.T) {
	tests := []struct {
		name string
		in   []byte
		want time.Time
	}{
		{"empty is zero", nil, time.Time{}},
		{"seconds only", []byte{0x08, 0x01}, time.Unix(1, 0).UTC()},
		{"nanos dropped", []byte{0x08, 0x01, 0x10, 0x05}, time.Unix(1, 0).UTC()},
		{"nanos only is the epoch", []byte{0x10, 0x05}, time.Unix(0, 0).UTC()},
		{"unknown field skipped", []byte{0x1a, 0x01, 'x', 0x08, 0x02}, time.Unix(2, 0).UTC()},
		{"year one is zero", protowire.AppendVarint([]byte{0x08}, uint64(time.Time{}.Unix())), time.Time{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Unix(9, 0)
			if err := got.UnmarshalProto(new(wire.Decoder), tt.in); err != nil {
				t.Fatal(err)
			}
			if got.Time != tt.want {
				t.Errorf("got %#v, want %#v", got.Time, tt.want)
			}
		})
	}
}

// malformedTimestamps are invalid encodings of a Timestamp message.
var malformedTimestamps = []struct {
	name string
	in   []byte
}{
	{"truncated tag", []byte{0x80}},
	{"truncated varint", []byte{0x08, 0xff}},
	{"seconds as bytes", []byte{0x0a, 0x00}},
	{"nanos as fixed32", []byte{0x15, 0, 0, 0, 0}},
	{"bad unknown field", []byte{0x1a, 0x05}},
	{"field zero", []byte{0x00}},
}

func TestTimeUnmarshalProtoMalformed(t *testing.T) {
	for _, tt := range malformedTimestamps {
		t.Run(tt.name, func(t *testing.T) {
			var got Time
			if err := got.Unmarshal(tt.in); !errors.Is(err, wire.ErrMalformed) {
				t.Errorf("Unmarshal(%x) = %v, want an error matching wire.ErrMalformed", tt.in, err)
			}
		})
	}
}

func TestTimeDeepCopy(t *testing.T) {
	in := Unix(7, 0)
	var out Time
	in.DeepCopyInto(&out)
	if out != in {
		t.Errorf("DeepCopyInto = %v, want %v", out, in)
	}
	if c := in.DeepCopy(); c == &in || *c != in {
		t.Errorf("DeepCopy = %v at %p, want a copy of %v", *c, c, in)
	}
	var nilTime *Time
	if nilTime.DeepCopy() != nil {
		t.Error("nil DeepCopy() != nil")
	}
}
