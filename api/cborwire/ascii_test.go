package cborwire

import (
	"bytes"
	"testing"
)

// ascii finds a byte of 0x80 or above at any offset of any length,
// the bytes its last, overlapping word reads twice included, and none
// past the length in the slice's capacity, which its masked word reads.
func TestASCII(t *testing.T) {
	for n := 0; n <= 80; n++ {
		b := append(bytes.Repeat([]byte{'a'}, n), 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff)[:n]
		if !ascii(b) || n < 8 && !shortASCII(b) {
			t.Fatalf("%d ASCII bytes: not ASCII", n)
		}
		for i := range n {
			for _, c := range []byte{0x80, 0xc3, 0xff} {
				b[i] = c
				if ascii(b) || shortASCII(b) {
					t.Fatalf("%q: ASCII", b)
				}
			}
			b[i] = 'a'
		}
	}
}
