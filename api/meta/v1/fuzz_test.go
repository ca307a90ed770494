package v1

import (
	"errors"
	"testing"

	"github.com/kubewire/kubewire/api/wire"
)

// protoValue is the decode/encode surface shared by the hand-written types.
type protoValue interface {
	UnmarshalProto(*wire.Decoder, []byte) error
	Marshal() ([]byte, error)
}

// FuzzSpecialTypesUnmarshalProto checks that decoding never panics, that
// every error matches wire.ErrMalformed, and that what decodes re-encodes to
// bytes that decode to the same encoding again.
func FuzzSpecialTypesUnmarshalProto(f *testing.F) {
	f.Add(fixtureMicroProto)
	f.Add([]byte{0x08, 0x80, 0x94, 0xeb, 0xdc, 0x03})
	f.Add([]byte{0x0a, 0x02, '{', '}'})
	f.Fuzz(func(t *testing.T, b []byte) {
		news := []func() protoValue{
			func() protoValue { return new(Time) },
			func() protoValue { return new(MicroTime) },
			func() protoValue { return new(Duration) },
			func() protoValue { return new(FieldsV1) },
		}
		for _, newValue := range news {
			v := newValue()
			if err := v.UnmarshalProto(new(wire.Decoder), b); err != nil {
				if !errors.Is(err, wire.ErrMalformed) {
					t.Fatalf("%T: error %v does not match wire.ErrMalformed", v, err)
				}
				continue
			}
			first, _ := v.Marshal()
			w := newValue()
			if err := w.UnmarshalProto(nil, first); err != nil {
				t.Fatalf("%T: re-decode of %x: %v", v, first, err)
			}
			second, _ := w.Marshal()
			if string(first) != string(second) {
				t.Fatalf("%T: re-encode %x, want %x", v, second, first)
			}
		}
	})
}
