package intstr

import (
	"errors"
	"testing"
	"unsafe"

	"github.com/kubewire/kubewire/api/cborwire"
	"github.com/kubewire/kubewire/api/jsonwire"
	"github.com/kubewire/kubewire/api/wire"
)

// decodeViaJSON decodes one CBOR item as the generated decoders did
// before IntOrString had a CBOR decoder: transcoded to JSON, then
// DecodeJSON.
func decodeViaJSON(b []byte, into IntOrString) (IntOrString, error) {
	js, err := cborwire.ToJSON(b)
	if err != nil {
		return into, err
	}
	err = jsonwire.Decode(js, &into, nil)
	return into, err
}

var cborCases = []struct {
	name string
	in   []byte
	want IntOrString // when ok
	ok   bool
}{
	{"zero", []byte{0x00}, FromInt32(0), true},
	{"small int", []byte{0x18, 80}, FromInt32(80), true},
	{"negative", []byte{0x20}, FromInt32(-1), true},
	{"int32 max", []byte{0x1a, 0x7f, 0xff, 0xff, 0xff}, FromInt32(1<<31 - 1), true},
	{"int32 min", []byte{0x3a, 0x7f, 0xff, 0xff, 0xff}, FromInt32(-1 << 31), true},
	{"over int32", []byte{0x1a, 0x80, 0x00, 0x00, 0x00}, IntOrString{}, false},
	{"under int32", []byte{0x3a, 0x80, 0x00, 0x00, 0x00}, IntOrString{}, false},
	{"uint64 max", []byte{0x1b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, IntOrString{}, false},
	{"text", []byte{0x64, 'h', 't', 't', 'p'}, FromString("http"), true},
	{"byte string", []byte{0x43, '2', '5', '%'}, FromString("25%"), true},
	{"empty text", []byte{0x60}, FromString(""), true},
	{"indefinite text", []byte{0x7f, 0x62, '2', '5', 0x61, '%', 0xff}, FromString("25%"), true},
	{"numeric text stays a string", []byte{0x62, '8', '0'}, FromString("80"), true},
	{"self-described tag", []byte{0xd9, 0xd9, 0xf7, 0x18, 80}, FromInt32(80), true},
	{"null leaves it", []byte{0xf6}, FromString("prior"), true},
	{"undefined leaves it", []byte{0xf7}, FromString("prior"), true},
	{"integral float", []byte{0xf9, 0x42, 0x00}, FromInt32(3), true},
	{"fractional float", []byte{0xf9, 0x3e, 0x00}, IntOrString{}, false},
	{"bool", []byte{0xf5}, IntOrString{}, false},
	{"map", []byte{0xa1, 0x61, 'a', 0x01}, IntOrString{}, false},
	{"array", []byte{0x81, 0x01}, IntOrString{}, false},
	{"truncated int", []byte{0x19, 0x01}, IntOrString{}, false},
	{"truncated text", []byte{0x65, 'h', 't'}, IntOrString{}, false},
	{"tag only", []byte{0xc1}, IntOrString{}, false},
	{"empty", []byte{}, IntOrString{}, false},
	{"data after", []byte{0x01, 0x02}, IntOrString{}, false},
}

// DecodeCBOR gives the values DecodeJSON gives for the same item
// transcoded, and fails where it fails, with an error matching
// wire.ErrMalformed.
func TestDecodeCBORAsJSON(t *testing.T) {
	for _, tt := range cborCases {
		t.Run(tt.name, func(t *testing.T) {
			got := FromString("prior")
			err := cborwire.Decode(tt.in, &got, nil)
			if (err == nil) != tt.ok {
				t.Fatalf("DecodeCBOR(% x) = %+v, %v; want ok %v", tt.in, got, err, tt.ok)
			}
			if err != nil {
				if !errors.Is(err, wire.ErrMalformed) {
					t.Errorf("error %v does not match wire.ErrMalformed", err)
				}
			} else if got != tt.want {
				t.Errorf("DecodeCBOR(% x) = %+v, want %+v", tt.in, got, tt.want)
			}
			viaJSON, jerr := decodeViaJSON(tt.in, FromString("prior"))
			if (jerr == nil) != (err == nil) {
				t.Fatalf("through JSON: %+v, %v; natively: %+v, %v", viaJSON, jerr, got, err)
			}
			if err == nil && viaJSON != got {
				t.Errorf("through JSON %+v, natively %+v", viaJSON, got)
			}
		})
	}
}

// A string is interned through the Decoder's Table.
func TestDecodeCBORInterns(t *testing.T) {
	table := &wire.Decoder{}
	var a, b IntOrString
	for _, v := range []*IntOrString{&a, &b} {
		if err := cborwire.Decode([]byte{0x63, '2', '5', '%'}, v, table); err != nil {
			t.Fatal(err)
		}
	}
	if a != FromString("25%") || b != a {
		t.Fatalf("decoded %+v and %+v", a, b)
	}
	if unsafeData(a.StrVal) != unsafeData(b.StrVal) {
		t.Error("the same string decoded twice through one Table is two copies")
	}
}

// FuzzDecodeCBOR checks that DecodeCBOR never panics and agrees with
// DecodeJSON on the transcoded item: same value, and an error exactly
// when that path has one.
func FuzzDecodeCBOR(f *testing.F) {
	for _, tt := range cborCases {
		f.Add(tt.in)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		got := FromString("prior")
		err := cborwire.Decode(b, &got, nil)
		if err != nil && !errors.Is(err, wire.ErrMalformed) {
			t.Fatalf("error %v does not match wire.ErrMalformed", err)
		}
		viaJSON, jerr := decodeViaJSON(b, FromString("prior"))
		if (jerr == nil) != (err == nil) {
			t.Fatalf("% x: through JSON %+v, %v; natively %+v, %v", b, viaJSON, jerr, got, err)
		}
		if err == nil && viaJSON != got {
			t.Fatalf("% x: through JSON %+v, natively %+v", b, viaJSON, got)
		}
	})
}

func unsafeData(s string) *byte { return unsafe.StringData(s) }
