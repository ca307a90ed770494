package cborwire

import "testing"

// shortStringAt agrees with stringAt wherever it answers, on every first
// byte, at every offset and limit of a short input, and answers for
// every string with a one-byte head that fits.
func TestShortStringAtAgreesWithStringAt(t *testing.T) {
	for c := range 256 {
		b := make([]byte, 40)
		for i := range b {
			b[i] = 'a'
		}
		for p := -1; p <= len(b); p++ {
			if p >= 0 && p < len(b) {
				b[p] = byte(c)
			}
			for limit := 0; limit <= len(b); limit++ {
				end, ok := shortStringAt(b, p, limit)
				var wantEnd int
				wantOK := false
				if p >= 0 && p < limit {
					wantEnd, wantOK = stringAt(b, p, limit)
				}
				oneByteHead := c&0xc0 == 0x40 && c&0x1f < 24
				if ok && (!wantOK || end != wantEnd) || !ok && wantOK && oneByteHead {
					t.Fatalf("first byte %#x at %d, limit %d: got %d, %v; stringAt %d, %v", c, p, limit, end, ok, wantEnd, wantOK)
				}
			}
			if p >= 0 && p < len(b) {
				b[p] = 'a'
			}
		}
	}
}
