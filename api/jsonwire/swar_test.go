package jsonwire

import (
	"math/rand/v2"
	"testing"
)

// plainRun and quoteOrEscape find what a loop over every byte finds, from
// every offset of inputs made of the bytes at the edges of each test
// (0x1f and 0x20, '"' and its neighbours, '\\', 0x7f and 0x80, 0 and
// 0xff), so that a borrow between bytes or a byte class the word tests
// miss shows.
func TestWordScansMatchByteLoops(t *testing.T) {
	edges := []byte{0, 0x01, 0x1f, 0x20, 0x21, '"', '#', '[', '\\', ']', 'a', 0x7f, 0x80, 0x81, 0xa2, 0xdc, 0xff}
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		b := make([]byte, r.IntN(40))
		for i := range b {
			b[i] = edges[r.IntN(len(edges))]
			if r.IntN(3) > 0 {
				b[i] = 'a' + byte(r.IntN(26)) // runs of plain bytes
			}
		}
		for start := 0; start <= len(b); start++ {
			want := start
			for want < len(b) && plain[b[want]] {
				want++
			}
			if got := plainRun(b, start); got != want {
				t.Fatalf("plainRun(%q, %d) = %d, want %d", b, start, got, want)
			}
			want = start
			for want < len(b) && b[want] != '"' && b[want] != '\\' {
				want++
			}
			if got := quoteOrEscape(b, start); got != want {
				t.Fatalf("quoteOrEscape(%q, %d) = %d, want %d", b, start, got, want)
			}
		}
	}
}
