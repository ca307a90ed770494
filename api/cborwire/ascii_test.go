package cborwire

import (
	"bytes"
	"testing"
)

// ascii finds a byte of 0x80 or above at any offset of any length,
// the bytes its last, overlapping word reads twice included.
func TestASCII(t *testing.T) {
	for n := 0; n <= 40; n++ {
		b := bytes.Repeat([]byte{'a'}, n)
		if !ascii(b) {
			t.Fatalf("%d ASCII bytes: not ASCII", n)
		}
		for i := range n {
			for _, c := range []byte{0x80, 0xc3, 0xff} {
				b[i] = c
				if ascii(b) {
					t.Fatalf("%q: ASCII", b)
				}
			}
			b[i] = 'a'
		}
	}
}
