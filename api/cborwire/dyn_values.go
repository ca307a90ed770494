package cborwire

// dynValues shares the boxes of short string values within a plain
// dynamic decode: the objects of a list repeat the same values (kinds,
// namespaces, label values, condition types and statuses, managers),
// which would otherwise be copied and boxed once per occurrence. As
// dynKeys, it is a direct-mapped table (a slot per hash, the last value
// wins), dropped at Reset, so values shared are those of one decode,
// whose objects already share chunks; an interface is immutable, so a
// shared box is never written through.
type dynValues struct {
	slots []dynValueSlot
}

type dynValueSlot struct {
	s   string // the value, for comparing
	box any    // s, boxed
}

const (
	dynValueSlots  = 512 // a power of two
	dynValueMaxLen = 32  // longer values are rarely repeated
)

// drop forgets the table, as Reset does the chunks.
func (t *dynValues) drop() { *t = dynValues{} }

// stringValue returns b (read before d.pos, not empty) as a boxed
// string, the box of an earlier equal value when the table has it.
func (d *Decoder) stringValue(b []byte) any {
	if len(b) > dynValueMaxLen {
		return d.dyn.String(d.plainString(b), len(d.buf)-d.pos)
	}
	t := &d.dynValues
	if t.slots == nil {
		// One slot per 128 bytes of input, a power of two from 16 to
		// dynValueSlots.
		t.slots = make([]dynValueSlot, tableSlots(len(d.buf), 128, dynValueSlots))
	}
	slot := &t.slots[keyHash(b)&uint64(len(t.slots)-1)]
	if slot.s == string(b) && slot.box != nil {
		return slot.box
	}
	s := d.plainString(b)
	v := d.dyn.String(s, len(d.buf)-d.pos)
	*slot = dynValueSlot{s, v}
	return v
}
