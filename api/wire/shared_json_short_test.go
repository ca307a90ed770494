package wire

import (
	"testing"
)

// Short spans (up to 16 bytes, keyed without maphash) get one key per
// content: equal bytes equal keys, and no two of every span of up to 16
// bytes over a small alphabet, nor of the spans that differ in one byte
// from a longer pattern, share a key.
func TestKeyOfShortSpans(t *testing.T) {
	d := &Decoder{ReadOnly: true}
	seen := map[JSONKey]string{}
	add := func(b []byte) {
		k := d.KeyOf(b)
		if again := d.KeyOf(append([]byte(nil), b...)); again != k {
			t.Fatalf("%q: keys %v and %v for equal bytes", b, k, again)
		}
		if other, ok := seen[k]; ok && other != string(b) {
			t.Fatalf("%q and %q share key %v", b, other, k)
		}
		seen[k] = string(b)
	}
	var gen func(prefix []byte, n int)
	gen = func(prefix []byte, n int) {
		add(prefix)
		if n == 0 {
			return
		}
		for _, c := range []byte{0, 'a', 0xff} {
			gen(append(prefix[:len(prefix):len(prefix)], c), n-1)
		}
	}
	gen(nil, 7) // every span of up to 7 bytes over three bytes
	base := []byte("f:app.kubernetes")
	for n := 8; n <= len(base); n++ {
		for i := 0; i < n; i++ {
			for _, c := range []byte{0, 'x', 0x80} {
				b := append([]byte(nil), base[:n]...)
				b[i] = c
				add(b)
			}
		}
	}
	// A key of up to 16 bytes and one past it differ too.
	add([]byte("0123456789abcdef"))
	add([]byte("0123456789abcdefg"))
	if got := (&Decoder{}).KeyOf([]byte("x")); got != (JSONKey{}) {
		t.Errorf("KeyOf without ReadOnly = %v, want the zero key", got)
	}
}
