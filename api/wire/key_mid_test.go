package wire

import (
	"bytes"
	"testing"
)

// Spans of 17 to maxMidKey bytes (midKey) get one key per content: equal
// bytes equal keys; spans that differ in one byte anywhere, or in length
// by one across the short and maphash boundaries, do not share a key;
// and two tables key the same bytes differently (their seeds are their
// own).
func TestKeyOfMidSpans(t *testing.T) {
	d := &Decoder{ReadOnly: true}
	seen := map[JSONKey]string{}
	add := func(b []byte) {
		k := d.KeyOf(b)
		if again := d.KeyOf(bytes.Clone(b)); again != k {
			t.Fatalf("%q: keys %v and %v for equal bytes", b, k, again)
		}
		if other, ok := seen[k]; ok && other != string(b) {
			t.Fatalf("%q and %q share key %v", b, other, k)
		}
		seen[k] = string(b)
	}
	base := bytes.Repeat([]byte("f:metadata.annotations/"), 6)[:maxMidKey+2]
	for n := 15; n <= len(base); n++ {
		add(base[:n])
		for i := 0; i < n; i++ {
			for _, c := range []byte{0, 'x', 0x80, 0xff} {
				b := bytes.Clone(base[:n])
				if b[i] == c {
					continue
				}
				b[i] = c
				add(b)
			}
		}
	}
	// Zero words and all-ones words (what would cancel a public
	// constant) still key apart by length and position.
	for n := 17; n <= maxMidKey; n++ {
		add(make([]byte, n))
		add(bytes.Repeat([]byte{0xff}, n))
	}
	other := &Decoder{ReadOnly: true}
	if b := base[:40]; other.KeyOf(b) == d.KeyOf(b) {
		t.Errorf("two tables gave %q the same key", b)
	}
}
