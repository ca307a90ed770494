package quantity

import (
	"encoding/json"
	"errors"
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"
	"github.com/kubewire/kubewire/api/wire"
)

func TestMarshalJSON(t *testing.T) {
	tests := []struct {
		name string
		in   Quantity
		want string
	}{
		{"zero value", Quantity{}, `"0"`},
		{"milli", MustParse("100m"), `"100m"`},
		{"binary", MustParse("1024Mi"), `"1Gi"`},
		{"kept spelling", MustParse("1.441"), `"1.441"`},
		{"tagged", MustParse("0.5Ki"), `"512"`},
		{"past E", MustParse("1000E"), `"1e21"`},
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

func TestUnmarshalJSON(t *testing.T) {
	tests := []struct {
		in      string
		want    string
		wantErr bool
	}{
		{`"100m"`, "100m", false},
		{`"0.5"`, "500m", false},
		{`" 1"`, "1", false},
		{`"1 "`, "1", false},
		{`1`, "1", false},
		{` -1`, "-1", false},
		{`1.5`, "1500m", false},
		{`1e3`, "1e3", false},
		{`null`, "0", false},
		{`""`, "", true},
		{`"abc"`, "", true},
		{`true`, "", true},
		{`"\u0031"`, "", true}, // not unescaped, as upstream
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			q := MustParse("7")
			err := q.UnmarshalJSON([]byte(tt.in))
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tt.wantErr)
			}
			if err == nil && q.String() != tt.want {
				t.Errorf("got %q, want %q", q.String(), tt.want)
			}
		})
	}
}

func TestJSONInStruct(t *testing.T) {
	type resources struct {
		Limits   map[string]Quantity `json:"limits,omitempty"`
		Requests map[string]Quantity `json:"requests,omitempty"`
		Size     *Quantity           `json:"size,omitempty"`
	}
	const in = `{"limits":{"cpu":"2","memory":"1Gi"},"requests":{"cpu":"100m","memory":"128Mi"},"size":"1.500"}`
	var r resources
	if err := json.Unmarshal([]byte(in), &r); err != nil {
		t.Fatal(err)
	}
	if got := r.Requests["cpu"].MilliValue(); got != 100 {
		t.Errorf("requests.cpu = %d millicores, want 100", got)
	}
	out, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(in, string(out)); diff != "" {
		t.Errorf("round trip mismatch (-want +got):\n%s", diff)
	}
}

func TestProtoMarshal(t *testing.T) {
	tests := []struct {
		name string
		in   Quantity
		want string // the bytes, as a string for readability
	}{
		{"zero value writes 0", Quantity{}, "\x0a\x010"},
		{"zero binary", MustParse("0Ki"), "\x0a\x010"},
		{"milli", MustParse("100m"), "\x0a\x04100m"},
		{"binary", MustParse("128Mi"), "\x0a\x05128Mi"},
		{"canonicalized", MustParse("1000m"), "\x0a\x011"},
		{"kept spelling", MustParse("1.500"), "\x0a\x051.500"},
		{"tag not written", MustParse("0.5Ki"), "\x0a\x03512"},
		{"negative", MustParse("-9.5Gi"), "\x0a\x07-9728Mi"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.in.Marshal()
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff([]byte(tt.want), got); diff != "" {
				t.Errorf("Marshal mismatch (-want +got):\n%s", diff)
			}
			if n := tt.in.Size(); n != len(tt.want) {
				t.Errorf("Size() = %d, want %d", n, len(tt.want))
			}
			var back Quantity
			if err := back.Unmarshal(got); err != nil {
				t.Fatal(err)
			}
			if !back.Equal(tt.in) || back.String() != tt.in.String() {
				t.Errorf("Unmarshal = %q, want %q", back.String(), tt.in.String())
			}
		})
	}
}

func TestProtoLong(t *testing.T) {
	q := MustParse("123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789")
	b, _ := q.Marshal()
	if len(q.String()) != 129 || len(b) != 3+129 || b[1] != 0x81 || b[2] != 0x01 {
		t.Errorf("a 129-byte string must have a two-byte length: % x", b[:3])
	}
}

func TestUnmarshalProto(t *testing.T) {
	tests := []struct {
		name   string
		in     string
		want   string
		format Format
	}{
		{"empty message is zero", "", "0", ""},
		{"canonical", "\x0a\x04100m", "100m", DecimalSI},
		{"canonicalized", "\x0a\x051000m", "1", DecimalSI},
		{"kept spelling", "\x0a\x051.500", "1.500", DecimalSI},
		{"format kept", "\x0a\x050.5Ki", "512", BinarySI},
		{"unknown fields skipped", "\x10\x01\x12\x01x\x0a\x011", "1", DecimalSI},
		{"last string wins", "\x0a\x011\x0a\x012", "2", DecimalSI},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := MustParse("7")
			if err := q.Unmarshal([]byte(tt.in)); err != nil {
				t.Fatal(err)
			}
			if q.String() != tt.want || q.GetFormat() != tt.format {
				t.Errorf("got %q in %q, want %q in %q", q.String(), q.GetFormat(), tt.want, tt.format)
			}
		})
	}
	// UnmarshalProto merges: a message without the field leaves q alone.
	q := MustParse("7")
	if err := q.UnmarshalProto(nil, nil); err != nil || q.String() != "7" {
		t.Errorf("empty merge = %q, %v", q.String(), err)
	}
}

func TestUnmarshalProtoMalformed(t *testing.T) {
	tests := []struct {
		name string
		in   string
	}{
		{"truncated tag", "\x80"},
		{"string as varint", "\x08\x01\x08\x01"},
		{"field one as varint", "\x08\x01"},
		{"length past end", "\x0a\x05100"},
		{"empty string", "\x0a\x00"},
		{"not a quantity", "\x0a\x03abc"},
		{"unknown suffix", "\x0a\x021i"},
		{"bad unknown field", "\x12\x05"},
		{"field zero", "\x00"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var q Quantity
			err := q.Unmarshal([]byte(tt.in))
			if !errors.Is(err, wire.ErrMalformed) {
				t.Errorf("Unmarshal(%q) = %v, want an error matching wire.ErrMalformed", tt.in, err)
			}
		})
	}
}

// TestUnmarshalProtoShares checks the memory promise: equal values decoded
// through one Decoder share one string, and decoding allocates nothing once
// the string is known, whether the wire spelling is kept or rewritten.
func TestUnmarshalProtoShares(t *testing.T) {
	for _, s := range []string{"100m", "128Mi", "1000m", "0.5Ki"} {
		t.Run(s, func(t *testing.T) {
			msg := append([]byte{0x0a, byte(len(s))}, s...)
			d := new(wire.Decoder)
			var a, b Quantity
			if err := a.UnmarshalProto(d, msg); err != nil {
				t.Fatal(err)
			}
			if err := b.UnmarshalProto(d, append([]byte(nil), msg...)); err != nil {
				t.Fatal(err)
			}
			if unsafe.StringData(a.s) != unsafe.StringData(b.s) {
				t.Error("equal values do not share their string")
			}
			msg[2] = '9' // the decoded value must not alias its input
			if a.String() != MustParse(s).String() {
				t.Errorf("value changed with its input: %q", a.String())
			}
			msg[2] = s[0]
			if n := testing.AllocsPerRun(100, func() { _ = b.UnmarshalProto(d, msg) }); n != 0 {
				t.Errorf("decode allocates %v times, want 0", n)
			}
			if n := testing.AllocsPerRun(100, func() { _ = b.MilliValue() + int64(b.Cmp(a)) }); n != 0 {
				t.Errorf("MilliValue and Cmp allocate %v times, want 0", n)
			}
		})
	}
}

func BenchmarkUnmarshalProto(b *testing.B) {
	d := new(wire.Decoder)
	msg := []byte("\x0a\x04100m")
	var q Quantity
	for b.Loop() {
		_ = q.UnmarshalProto(d, msg)
	}
}

func BenchmarkMilliValue(b *testing.B) {
	q := MustParse("128Mi")
	for b.Loop() {
		_ = q.MilliValue()
	}
}
