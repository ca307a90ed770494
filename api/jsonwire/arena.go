package jsonwire

import "unsafe"

// Strings of a decode without a Table (a Get, a List handed to the
// caller) are carved from chunks, one allocation for the strings of an
// object or several small ones, instead of one allocation per string, as
// on the CBOR path. A chunk is no larger than the input left to read (so
// a small object does not pin a large chunk) and never spans two decodes
// (Reset drops it); decodes through a Table (informer caches, whose
// objects are replaced one by one) intern or allocate strings one by
// one, so that no object pins another's.
const (
	arenaChunk     = 4 << 10 // bytes per chunk at most
	arenaMaxString = 256     // longer strings are allocated on their own
)

// plainString returns a string holding b, which was read before d.pos.
func (d *Decoder) plainString(b []byte) string {
	n := len(b)
	if n == 0 {
		return ""
	}
	if n > arenaMaxString {
		return string(b)
	}
	if len(d.arena) < n {
		// The strings still to come are within the input left.
		d.arena = make([]byte, max(n, min(arenaChunk, n+len(d.buf)-d.pos)))
	}
	copy(d.arena, b)
	s := unsafe.String(unsafe.SliceData(d.arena), n)
	d.arena = d.arena[n:]
	return s
}
