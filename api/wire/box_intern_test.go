package wire

import (
	"fmt"
	"testing"
	"unsafe"
)

// A boxed string is interned under the hash the box table took: the
// string table then finds it, so a field decoded as a plain string later
// shares its bytes, and the other way round; at the tables' full size
// too, where evictions no longer record ghosts.
func TestBoxedStringsAreInterned(t *testing.T) {
	d := &Decoder{ReadOnly: true}
	data := func(s string) *byte { return unsafe.StringData(s) }
	for i := range 8 * internSlots {
		b := []byte(fmt.Sprintf("a description of rule %06d, long enough to be hashed in words", i))
		boxed, ok := d.StringValue(b).(string)
		if !ok {
			t.Fatalf("StringValue gave %T", d.StringValue(b))
		}
		if plain := d.String(b); data(plain) != data(boxed) {
			t.Fatalf("string %d: the boxed and the interned copies differ", i)
		}
		c := []byte(fmt.Sprintf("another value %06d, interned first, boxed after", i))
		plain := d.String(c)
		if boxed, _ := d.StringValue(c).(string); data(plain) != data(boxed) {
			t.Fatalf("string %d: boxed after interning, not shared", i)
		}
	}
	if len(d.strings.ghosts) < maxStringSets || len(d.boxes.ghosts) < maxBoxSets {
		t.Fatalf("tables did not reach their full size (%d and %d sets)", len(d.strings.ghosts), len(d.boxes.ghosts))
	}
}
