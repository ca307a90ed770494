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
	slots []dynValueSlot // nil until the decode's first value
	spare []dynValueSlot // the slots of the decode before, cleared
}

type dynValueSlot struct {
	s    string // the value, for comparing
	head uint64 // its first eight bytes, as keyWords reads them
	box  any    // s, boxed
}

const (
	dynValueSlots  = 512 // a power of two
	dynValueMaxLen = 32  // longer values are rarely repeated
)

// drop forgets the table's values, as Reset does the chunks, keeping
// its slots, cleared, for the next decode.
func (t *dynValues) drop() {
	if t.slots != nil {
		clear(t.slots)
		t.spare = t.slots
	}
	t.slots = nil
}

// stringValue returns b (read before d.pos, not empty) as a boxed
// string, the box of an earlier equal value when the table has it.
// Through a Table, a new value is the Table's box, kept in the slot (the
// table then spares the Table's hashing of the values it holds).
func (d *Decoder) stringValue(b []byte) any {
	if len(b) > dynValueMaxLen {
		if d.Table != nil {
			return d.Table.StringValue(b)
		}
		return d.dyn.String(d.plainString(b), len(d.buf)-d.pos)
	}
	t := &d.dynValues
	if t.slots == nil {
		// One slot per 128 bytes of input, a power of two from 16 to
		// dynValueSlots.
		t.slots = spareSlots(&t.spare, tableSlots(len(d.buf), 128, dynValueSlots))
	}
	head, tail := keyWords(b)
	slot := &t.slots[mixKey(head, tail, len(b))&uint64(len(t.slots)-1)]
	if slot.s == string(b) && slot.box != nil {
		return slot.box
	}
	var s string
	var v any
	if d.Table != nil {
		v = d.Table.StringValue(b)
		s, _ = v.(string)
	} else {
		s = d.plainString(b)
		v = d.dyn.String(s, len(d.buf)-d.pos)
	}
	*slot = dynValueSlot{s, head, v}
	return v
}

// knownString returns the box of the definite string of 1 to 23 bytes
// at d.pos, consumed, when the table holds it; like nextKey, it skips
// the checks a value read before passed. ok is false, nothing read, for
// any other item.
func (d *Decoder) knownString() (v any, ok bool) {
	t := &d.dynValues
	p := d.pos
	if t.slots == nil || p >= len(d.buf) {
		return nil, false
	}
	c := d.buf[p]
	l := int(c & 0x1f)
	end := p + 1 + l
	if (c>>5 != majorText && c>>5 != majorBytes) || l < 1 || l >= 24 || end > len(d.buf) || end < 8 {
		return nil, false
	}
	head, tail := keyWordsAt(d.buf, p+1, end)
	slot := &t.slots[mixKey(head, tail, l)&uint64(len(t.slots)-1)]
	if len(slot.s) != l || slot.head != head || !sameTail(slot.s, d.buf[p+1:end], tail) {
		return nil, false
	}
	d.pos = end
	return slot.box, true
}
