package cborwire

import "unsafe"

// plainString returns a string holding b, read before d.pos, carved from
// the decode's chunk (see wire.StringArena).
func (d *Decoder) plainString(b []byte) string {
	return d.arena.Carve(b, len(d.buf)-d.pos)
}

// shortString reads the common string: definite, under 256 bytes, all
// ASCII, carved from the decode's chunk or interned through the Table
// as intern would. It keeps to one small frame, where stringBytes then
// intern cost about 160 instructions a string in calls, spills and
// checks. Anything else (null, a tag, a longer or indefinite string,
// other UTF-8, an error) reports false and reads nothing: the caller
// takes its general path.
func (d *Decoder) shortString() (string, bool) {
	p, buf := d.pos, d.buf
	if p >= len(buf) || d.err != nil {
		return "", false
	}
	c := buf[p]
	if c&0xc0 != 0x40 { // major types 2 and 3: byte and text strings
		return "", false
	}
	n, h := int(c&0x1f), 1
	if n >= 24 {
		if n != 24 || p+1 >= len(buf) {
			return "", false
		}
		n, h = int(buf[p+1]), 2
	}
	end := p + h + n
	if end > len(buf) {
		return "", false
	}
	b := buf[p+h : end]
	if !shortASCII(b) && !ascii(b) {
		return "", false
	}
	d.pos = end
	if d.Table != nil {
		return d.Table.String(b), true
	}
	if s, ok := d.arena.CarveShort(b); ok {
		return s, true
	}
	return d.arena.Carve(b, len(buf)-end), true
}

// Slots of a chunk of pointed-to scalars: the first chunk of a decode
// holds firstSlots, each next one twice the last, up to maxSlots. A
// decode of one object with three pointer fields takes one small chunk,
// a list of a thousand takes chunks of maxSlots; what one chunk holds
// beyond the values used is at most the size of the chunks before it.
const (
	firstSlots = 4
	maxSlots   = 32
)

// scalarSlots hands out the targets of pointer fields to scalars (a
// *string, *bool, *int32, *float64) from chunks, one allocation per
// chunk instead of one per field: the values of a decode live as long as
// the objects that hold them. A kept pointer pins its chunk (at most
// maxSlots strings, 512 bytes). Chunks never hold the values of two
// decodes (drop). Positions are indexes, so that handing out a slot
// stores no pointer in the Decoder.
type scalarSlots struct {
	strs  []string
	words []uint64 // bools, integers and floats, one 8-byte slot each
	nStr  int
	nWord int
}

func (s *scalarSlots) drop() { *s = scalarSlots{} }

// nextSlots is the length of the chunk that follows one of have slots,
// bounded by the input left: each value takes a byte at least.
func nextSlots(have, left int) int {
	n := firstSlots
	if have > 0 {
		n = min(2*have, maxSlots)
	}
	return max(min(n, left), 1)
}

// NewString returns a pointer to a zero T for a pointer field, carved
// from the decode's chunk of strings (see scalarSlots).
func NewString[T ~string](d *Decoder) *T {
	s := &d.slots
	if s.nStr == len(s.strs) {
		s.strs, s.nStr = make([]string, nextSlots(len(s.strs), len(d.buf)-d.pos)), 0
	}
	p := &s.strs[s.nStr]
	s.nStr++
	return (*T)(unsafe.Pointer(p))
}

// NewScalar returns a pointer to a zero T for a pointer field, carved
// from the decode's chunk of 8-byte slots (see scalarSlots); the chunk
// holds no pointers, so the collector does not scan it.
func NewScalar[T ~bool | ~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr | ~float32 | ~float64](d *Decoder) *T {
	s := &d.slots
	if s.nWord == len(s.words) {
		s.words, s.nWord = make([]uint64, nextSlots(len(s.words), len(d.buf)-d.pos)), 0
	}
	p := &s.words[s.nWord]
	s.nWord++
	return (*T)(unsafe.Pointer(p))
}
