package v1

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/kubewire/kubewire/api/wire"
)

// renewTime of fixtures/.../objects/lease-leader.pb.body and its JSON twin.
var (
	fixtureMicro      = DateMicro(2026, 1, 2, 3, 4, 5, 123_456_000, time.UTC)
	fixtureMicroJSON  = `"2026-01-02T03:04:05.123456Z"`
	fixtureMicroProto = []byte{0x08, 0xa5, 0xeb, 0xdc, 0xca, 0x06, 0x10, 0x80, 0x94, 0xef, 0x3a}
)

func TestMicroTimeConstructorsUseUTC(t *testing.T) {
	want := time.Date(2026, 1, 2, 3, 4, 5, 123_456_789, time.UTC)
	tests := []struct {
		name string
		got  MicroTime
	}{
		{"NewMicroTime", NewMicroTime(want.In(plus2))},
		{"DateMicro", DateMicro(2026, 1, 2, 5, 4, 5, 123_456_789, plus2)},
		{"UnixMicro", UnixMicro(want.Unix(), 123_456_789)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.got.Time != want {
				t.Errorf("got %#v, want %#v", tt.got.Time, want)
			}
		})
	}
	if now := NowMicro(); now.Location() != time.UTC || now.Time != now.Round(0) {
		t.Errorf("NowMicro() = %v, want UTC without a monotonic reading", now.Time)
	}
}

func TestMicroTimeCompare(t *testing.T) {
	a, b := UnixMicro(100, 1000), UnixMicro(100, 2000)
	sec := Unix(100, 0)
	if !a.Before(&b) || b.Before(&a) || a.Before(nil) || (*MicroTime)(nil).Before(&a) {
		t.Error("Before gave a wrong answer")
	}
	if !a.Equal(&a) || a.Equal(&b) || a.Equal(nil) || !(*MicroTime)(nil).Equal(nil) {
		t.Error("Equal gave a wrong answer")
	}
	if a.BeforeTime(&sec) || !(&MicroTime{sec.Time}).EqualTime(&sec) || a.EqualTime(&sec) || a.BeforeTime(nil) {
		t.Error("BeforeTime/EqualTime gave a wrong answer")
	}
	if !(*MicroTime)(nil).IsZero() || !(&MicroTime{}).IsZero() || a.IsZero() {
		t.Error("IsZero gave a wrong answer")
	}
	if got, want := a.String(), a.Time.String(); got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
}

func TestMicroTimeJSON(t *testing.T) {
	tests := []struct {
		name string
		in   MicroTime
		want string
	}{
		{"zero", MicroTime{}, `null`},
		{"fixture", fixtureMicro, fixtureMicroJSON},
		{"nanoseconds truncated", DateMicro(2026, 1, 2, 3, 4, 5, 123_456_999, time.UTC), fixtureMicroJSON},
		{"whole second", DateMicro(2026, 1, 2, 3, 4, 5, 0, time.UTC), `"2026-01-02T03:04:05.000000Z"`},
		{"other zone written in utc", MicroTime{time.Date(2026, 1, 2, 5, 4, 5, 123_456_000, plus2)}, fixtureMicroJSON},
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

func TestMicroTimeUnmarshalJSON(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    time.Time
		wantErr bool
	}{
		{"null", `null`, time.Time{}, false},
		{"empty", `""`, time.Time{}, false},
		{"fixture", fixtureMicroJSON, fixtureMicro.Time, false},
		{"offset", `"2026-01-02T05:04:05.123456+02:00"`, fixtureMicro.Time, false},
		{"six digits are required", `"2026-01-02T03:04:05Z"`, time.Time{}, true},
		{"nine digits are rejected", `"2026-01-02T03:04:05.123456789Z"`, time.Time{}, true},
		{"number", `12`, time.Time{}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := UnixMicro(1, 0)
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

func TestMicroTimeQueryParameter(t *testing.T) {
	s, err := fixtureMicro.MarshalQueryParameter()
	if err != nil || s != "2026-01-02T03:04:05.123456Z" {
		t.Fatalf("MarshalQueryParameter() = %q, %v", s, err)
	}
	var back MicroTime
	if err := back.UnmarshalQueryParameter(s); err != nil || back != fixtureMicro {
		t.Errorf("UnmarshalQueryParameter(%q) = %v, %v; want %v", s, back, err, fixtureMicro)
	}
	if s, _ := (MicroTime{}).MarshalQueryParameter(); s != "" {
		t.Errorf("zero MarshalQueryParameter() = %q", s)
	}
	if err := back.UnmarshalQueryParameter("null"); err != nil || !back.IsZero() {
		t.Errorf("UnmarshalQueryParameter(null) = %v, %v", back, err)
	}
}

func TestMicroTimeProto(t *testing.T) {
	tests := []struct {
		name string
		in   MicroTime
		want []byte
	}{
		{"zero writes nothing", MicroTime{}, []byte{}},
		{"fixture", fixtureMicro, fixtureMicroProto},
		{"nanoseconds truncated to micros", UnixMicro(1, 999_999_999), []byte{0x08, 0x01, 0x10, 0x98, 0x8c, 0xeb, 0xdc, 0x03}},
		{"whole second writes nanos 0", UnixMicro(0, 0), []byte{0x08, 0x00, 0x10, 0x00}},
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
			back := UnixMicro(5, 0)
			if err := back.Unmarshal(got); err != nil {
				t.Fatal(err)
			}
			if want := tt.in.Truncate(time.Microsecond); back.Time != want {
				t.Errorf("Unmarshal = %#v, want %#v", back.Time, want)
			}
		})
	}
}

func TestMicroTimeUnmarshalProto(t *testing.T) {
	tests := []struct {
		name string
		in   []byte
		want time.Time
	}{
		{"empty is zero", nil, time.Time{}},
		{"nanos normalized", []byte{0x08, 0x01, 0x10, 0x80, 0x94, 0xeb, 0xdc, 0x03}, time.Unix(2, 0).UTC()},
		{"nanos truncated", []byte{0x08, 0x01, 0x10, 0xff, 0x93, 0xeb, 0xdc, 0x03}, time.Unix(1, 999_999_000).UTC()},
		{"negative nanos truncated toward zero", []byte{0x08, 0x01, 0x10, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}, time.Unix(1, 0).UTC()},
		{"negative whole micros", []byte{0x08, 0x01, 0x10, 0x98, 0xf8, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}, time.Unix(0, 999_999_000).UTC()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := UnixMicro(9, 0)
			if err := got.UnmarshalProto(nil, tt.in); err != nil {
				t.Fatal(err)
			}
			if got.Time != tt.want {
				t.Errorf("got %#v, want %#v", got.Time, tt.want)
			}
		})
	}
	for _, tt := range malformedTimestamps {
		t.Run("malformed/"+tt.name, func(t *testing.T) {
			var got MicroTime
			if err := got.Unmarshal(tt.in); !errors.Is(err, wire.ErrMalformed) {
				t.Errorf("Unmarshal(%x) = %v, want an error matching wire.ErrMalformed", tt.in, err)
			}
		})
	}
}

func TestMicroTimeDeepCopy(t *testing.T) {
	var out MicroTime
	fixtureMicro.DeepCopyInto(&out)
	if out != fixtureMicro {
		t.Errorf("DeepCopyInto = %v", out)
	}
	if c := fixtureMicro.DeepCopy(); *c != fixtureMicro {
		t.Errorf("DeepCopy = %v", *c)
	}
	if (*MicroTime)(nil).DeepCopy() != nil {
		t.Error("nil DeepCopy() != nil")
	}
}
