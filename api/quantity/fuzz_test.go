package quantity

import (
	"errors"
	"testing"

	"github.com/kubewire/kubewire/api/wire"
)

// FuzzParseQuantity checks that parsing never panics, that the protobuf
// decoder agrees with ParseQuantity, and that String, JSON and protobuf
// round trips keep the value.
func FuzzParseQuantity(f *testing.F) {
	for _, tt := range parseCases {
		f.Add(tt.In)
	}
	for _, s := range []string{"", "1i", "--1", "1e", "1000e2147483647", "1e-2147483647", "99999999999999999999Ki"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		q, err := ParseQuantity(s)
		var w Quantity
		werr := w.UnmarshalProto(new(wire.Decoder), append([]byte{0x0a}, appendLen(s)...))
		if (err == nil) != (werr == nil) {
			t.Fatalf("ParseQuantity error %v, protobuf error %v", err, werr)
		}
		if err != nil {
			if !errors.Is(werr, wire.ErrMalformed) {
				t.Fatalf("protobuf error %v does not match wire.ErrMalformed", werr)
			}
			return
		}
		if w != q {
			t.Fatalf("protobuf decode %#v, ParseQuantity %#v", w, q)
		}
		back, err := ParseQuantity(q.String())
		if err != nil {
			t.Fatalf("String() %q does not parse: %v", q.String(), err)
		}
		if !back.Equal(q) {
			t.Fatalf("String() %q reparses to %s, want %s", q.String(), exact(back.decimal()), exact(q.decimal()))
		}
		if q.Sign() != q.decimal().sign() || q.IsZero() != (q.Sign() == 0) {
			t.Fatalf("Sign() = %d, IsZero() = %v for %s", q.Sign(), q.IsZero(), exact(q.decimal()))
		}
		j, _ := q.MarshalJSON()
		var fromJSON Quantity
		if err := fromJSON.UnmarshalJSON(j); err != nil || !fromJSON.Equal(q) {
			t.Fatalf("JSON %s round trip = %v, %v", j, fromJSON, err)
		}
		p, _ := q.Marshal()
		var fromProto Quantity
		if err := fromProto.Unmarshal(p); err != nil || !fromProto.Equal(q) {
			t.Fatalf("protobuf %q round trip = %v, %v", p, fromProto, err)
		}
		// Arithmetic must not panic either.
		sum := q
		sum.Add(back)
		sum.Sub(q)
		if !sum.Equal(q) && absExp(q) < maxAlignDigits {
			t.Fatalf("q + q - q = %s, want %s", exact(sum.decimal()), exact(q.decimal()))
		}
		_, _ = q.Value(), q.AsApproximateFloat64()
	})
}

func appendLen(s string) []byte {
	b := []byte(nil)
	n := uint64(len(s))
	for n >= 0x80 {
		b = append(b, byte(n)|0x80)
		n >>= 7
	}
	return append(append(b, byte(n)), s...)
}

func absExp(q Quantity) int64 {
	e := q.decimal().exp
	if e < 0 {
		return -e
	}
	return e
}
