package quantity

import (
	"errors"
	"testing"

	"github.com/kubewire/kubewire/api/cborwire"
	"github.com/kubewire/kubewire/api/jsonwire"
	"github.com/kubewire/kubewire/api/wire"
)

// decodeViaJSON decodes one CBOR item as the generated decoders did
// before Quantity had a CBOR decoder: transcoded to JSON, then
// DecodeJSON.
func decodeViaJSON(b []byte, into Quantity, table *wire.Decoder) (Quantity, error) {
	js, err := cborwire.ToJSON(b)
	if err != nil {
		return into, err
	}
	err = jsonwire.Decode(js, &into, table)
	return into, err
}

var cborCases = []struct {
	name string
	in   []byte
	want string // String() of the value, when ok
	ok   bool
}{
	{"text", []byte{0x63, '1', 'G', 'i'}, "1Gi", true},
	{"milli", []byte{0x64, '1', '0', '0', 'm'}, "100m", true},
	{"kept as written", []byte{0x64, '1', '5', '0', '0'}, "1500", true},
	{"decimal", []byte{0x65, '1', '.', '5', '0', '0'}, "1.500", true},
	{"byte string", []byte{0x42, '2', 'M'}, "2M", true},
	{"spaces trimmed", []byte{0x65, ' ', '1', 'G', 'i', ' '}, "1Gi", true},
	{"indefinite text", []byte{0x7f, 0x61, '1', 0x62, 'G', 'i', 0xff}, "1Gi", true},
	{"no-break space trimmed", []byte{0x65, 0xc2, 0xa0, '1', 'G', 'i'}, "1Gi", true},
	{"newline kept, as JSON escapes it", []byte{0x63, '0', '0', '\n'}, "", false},
	{"line separator kept", []byte{0x66, '1', 'G', 'i', 0xe2, 0x80, 0xa8}, "", false},
	{"integer", []byte{0x02}, "2", true},
	{"negative integer", []byte{0x38, 0x63}, "-100", true},
	{"large integer", []byte{0x1b, 0x00, 0x00, 0x00, 0xe8, 0xd4, 0xa5, 0x10, 0x00}, "1T", true},
	{"uint64 max", []byte{0x1b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, "18446744073709551615", true},
	{"int64 min", []byte{0x3b, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, "-9223372036854775808", true},
	{"float", []byte{0xf9, 0x3e, 0x00}, "1500m", true},
	{"self-described tag", []byte{0xd9, 0xd9, 0xf7, 0x63, '1', 'G', 'i'}, "1Gi", true},
	{"null is zero", []byte{0xf6}, "0", true},
	{"empty text", []byte{0x60}, "", false},
	{"not a quantity", []byte{0x63, 'a', 'b', 'c'}, "", false},
	{"bad suffix", []byte{0x63, '1', 'Q', 'i'}, "", false},
	{"bool", []byte{0xf4}, "", false},
	{"map", []byte{0xa0}, "", false},
	{"array", []byte{0x80}, "", false},
	{"truncated", []byte{0x65, '1', 'G'}, "", false},
	{"data after", []byte{0x01, 0x01}, "", false},
	{"empty", []byte{}, "", false},
}

// DecodeCBOR gives the values DecodeJSON gives for the same item
// transcoded, and fails where it fails, with an error matching
// wire.ErrMalformed; with a Table and without.
func TestDecodeCBORAsJSON(t *testing.T) {
	for _, tt := range cborCases {
		for _, table := range []*wire.Decoder{nil, {}} {
			t.Run(tt.name, func(t *testing.T) {
				got := MustParse("7")
				err := cborwire.Decode(tt.in, &got, table)
				if (err == nil) != tt.ok {
					t.Fatalf("DecodeCBOR(% x) = %v, %v; want ok %v", tt.in, got.String(), err, tt.ok)
				}
				if err != nil {
					if !errors.Is(err, wire.ErrMalformed) {
						t.Errorf("error %v does not match wire.ErrMalformed", err)
					}
				} else if got.String() != tt.want {
					t.Errorf("DecodeCBOR(% x) = %v, want %v", tt.in, got.String(), tt.want)
				}
				viaJSON, jerr := decodeViaJSON(tt.in, MustParse("7"), table)
				if (jerr == nil) != (err == nil) {
					t.Fatalf("through JSON: %v, %v; natively: %v, %v", viaJSON.String(), jerr, got.String(), err)
				}
				if err == nil && viaJSON != got {
					t.Errorf("through JSON %#v, natively %#v", viaJSON, got)
				}
			})
		}
	}
}

// A Table's memo is shared by the JSON and CBOR decoders: a value the
// one parsed is not parsed again by the other, and gives the same
// Quantity.
func TestDecodeCBORSharesTheMemo(t *testing.T) {
	table := &wire.Decoder{}
	var fromJSON, fromCBOR Quantity
	if err := jsonwire.Decode([]byte(`"1.500"`), &fromJSON, table); err != nil {
		t.Fatal(err)
	}
	if err := cborwire.Decode([]byte{0x65, '1', '.', '5', '0', '0'}, &fromCBOR, table); err != nil {
		t.Fatal(err)
	}
	if fromCBOR != fromJSON || fromCBOR.String() != "1.500" {
		t.Fatalf("JSON %#v, CBOR %#v", fromJSON, fromCBOR)
	}
	if m, ok := table.Memo("Quantity", []byte("1.500")); !ok || m.(Quantity) != fromCBOR {
		t.Fatalf("memo holds %v, %v", m, ok)
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
		got := MustParse("7")
		err := cborwire.Decode(b, &got, nil)
		if err != nil && !errors.Is(err, wire.ErrMalformed) {
			t.Fatalf("error %v does not match wire.ErrMalformed", err)
		}
		viaJSON, jerr := decodeViaJSON(b, MustParse("7"), nil)
		if (jerr == nil) != (err == nil) {
			t.Fatalf("% x: through JSON %v, %v; natively %v, %v", b, viaJSON.String(), jerr, got.String(), err)
		}
		if err == nil && viaJSON != got {
			t.Fatalf("% x: through JSON %#v, natively %#v", b, viaJSON, got)
		}
	})
}
