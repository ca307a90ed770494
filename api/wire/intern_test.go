package wire

import (
	"fmt"
	"testing"
	"unsafe"
)

// sameSet returns n distinct strings whose interning set is the one of
// "creationTimestamp".
func sameSet(t *testing.T, n int) []string {
	t.Helper()
	want := internHash([]byte("creationTimestamp")) & (maxStringSets - 1)
	out := []string{"creationTimestamp"}
	for i := 0; len(out) < n && i < 10_000_000; i++ {
		s := fmt.Sprintf("key-%d", i)
		if internHash([]byte(s))&(maxStringSets-1) == want {
			out = append(out, s)
		}
	}
	if len(out) < n {
		t.Fatalf("found %d strings of one set", len(out))
	}
	return out
}

func data(s string) *byte { return unsafe.StringData(s) }

// TestInternKeepsTwoStringsOfOneSet: two keys of every object that fall
// into one set are both interned, object after object (before, two
// keys of a Crossplane managed resource thrashed and every object held
// copies of both).
func TestInternKeepsTwoStringsOfOneSet(t *testing.T) {
	s := sameSet(t, 2)
	var d Decoder
	a, b := d.String([]byte(s[0])), d.String([]byte(s[1]))
	for i := range 5 {
		if got := d.String([]byte(s[0])); data(got) != data(a) {
			t.Fatalf("round %d: %q copied again", i, s[0])
		}
		if got := d.String([]byte(s[1])); data(got) != data(b) {
			t.Fatalf("round %d: %q copied again", i, s[1])
		}
	}
}

// TestInternRepeatedSurvivesUniques: a string seen on every object stays
// interned while one unique string per object passes through its set.
func TestInternRepeatedSurvivesUniques(t *testing.T) {
	s := sameSet(t, 12)
	var d Decoder
	key := d.String([]byte(s[0]))
	for i, unique := range s[1:] {
		d.String([]byte(unique))
		if got := d.String([]byte(s[0])); data(got) != data(key) {
			t.Fatalf("after %d unique strings: %q copied again", i+1, s[0])
		}
	}
}

// internHash gives a string the same hash whatever follows it in its
// slice's capacity (a short string is read as one masked word when the
// capacity holds it, byte by byte when not), and every byte counts:
// changing any one byte, or swapping the first two words, changes it.
func TestInternHashReadsEveryByteAndNoMore(t *testing.T) {
	for n := 0; n <= 80; n++ {
		s := make([]byte, n)
		for i := range s {
			s[i] = byte('a' + i%26)
		}
		want := internHash(s[:n:n])
		roomy := append(make([]byte, 0, n+16), s...)
		for i := n; i < n+16; i++ {
			roomy[:n+16][i] = 0xff
		}
		if got := internHash(roomy); got != want {
			t.Errorf("%d bytes: %x with bytes past the length, %x without", n, got, want)
		}
		for i := 0; i < n; i++ {
			c := append([]byte(nil), s...)
			c[i] ^= 0x01
			if internHash(c) == want {
				t.Errorf("%d bytes: changing byte %d keeps the hash", n, i)
			}
		}
		if n >= 16 {
			c := append([]byte(nil), s...)
			copy(c[:8], s[8:16])
			copy(c[8:16], s[:8])
			if internHash(c) == want {
				t.Errorf("%d bytes: swapping the first two words keeps the hash", n)
			}
		}
	}
}
