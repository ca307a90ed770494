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
