package intstr

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kubewire/kubewire/api/wire"
)

func TestProtoEncoding(t *testing.T) {
	tests := []struct {
		name string
		in   IntOrString
		want []byte
	}{
		{"zero value", IntOrString{}, []byte{0x08, 0x00, 0x10, 0x00, 0x1a, 0x00}},
		{"int", FromInt32(8080), []byte{0x08, 0x00, 0x10, 0x90, 0x3f, 0x1a, 0x00}},
		{"string", FromString("http"), []byte{0x08, 0x01, 0x10, 0x00, 0x1a, 0x04, 'h', 't', 't', 'p'}},
		{"negative int is ten bytes", FromInt32(-1), []byte{
			0x08, 0x00,
			0x10, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01,
			0x1a, 0x00,
		}},
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
			var back IntOrString
			if err := back.Unmarshal(got); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.in, back); diff != "" {
				t.Errorf("round trip mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestUnmarshalProto(t *testing.T) {
	tests := []struct {
		name string
		in   []byte
		want IntOrString
	}{
		{"empty", nil, IntOrString{}},
		{"only strVal", []byte{0x1a, 0x02, 'h', 'i'}, IntOrString{StrVal: "hi"}},
		{"unknown field skipped", []byte{0x08, 0x01, 0x22, 0x01, 'x', 0x1a, 0x01, 'a'}, FromString("a")},
		{"last value wins", []byte{0x10, 0x01, 0x10, 0x02}, FromInt32(2)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got IntOrString
			if err := got.Unmarshal(tt.in); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestUnmarshalProtoMalformed(t *testing.T) {
	tests := []struct {
		name string
		in   []byte
	}{
		{"truncated tag", []byte{0x80}},
		{"truncated varint", []byte{0x08, 0x80}},
		{"wrong wire type for type", []byte{0x0a, 0x00}},
		{"wrong wire type for strVal", []byte{0x18, 0x01}},
		{"length past end", []byte{0x1a, 0x05, 'a'}},
		{"field zero", []byte{0x00, 0x00}},
		{"bad unknown field", []byte{0x22, 0x09}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got IntOrString
			err := got.Unmarshal(tt.in)
			if !errors.Is(err, wire.ErrMalformed) {
				t.Errorf("Unmarshal(%x) = %v, want an error matching wire.ErrMalformed", tt.in, err)
			}
		})
	}
}

func FuzzUnmarshalProto(f *testing.F) {
	for _, v := range []IntOrString{{}, FromInt32(-1), FromString("http")} {
		b, _ := v.Marshal()
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var v IntOrString
		if err := v.UnmarshalProto(new(wire.Decoder), b); err != nil {
			if !errors.Is(err, wire.ErrMalformed) {
				t.Fatalf("error %v does not match wire.ErrMalformed", err)
			}
			return
		}
		out, err := v.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		var back IntOrString
		if err := back.Unmarshal(out); err != nil {
			t.Fatalf("re-decode: %v", err)
		}
		if back != v {
			t.Fatalf("re-decode = %+v, want %+v", back, v)
		}
	})
}
