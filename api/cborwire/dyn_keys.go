package cborwire

import (
	"encoding/binary"
	"unsafe"
)

// dynKeys interns the map keys of a plain dynamic decode: the objects of
// a list repeat the same few hundred keys, which would otherwise be
// copied once per occurrence. A key is looked up in a small
// direct-mapped table (a slot per hash, the last key wins) and, on a
// miss, copied into a chunk of its own, apart from the values' strings,
// so that keys kept by later objects pin no chunk of values.
type dynKeys struct {
	slots []string
	arena dynKeyArena
}

const (
	dynKeySlots  = 512 // a power of two
	dynKeyMaxLen = 64  // longer keys are not interned
)

// dynKeyArena is the chunk keys are copied into.
type dynKeyArena struct {
	chunk []byte
	used  int
}

// drop forgets the table and its chunk, as Reset does the values'.
func (t *dynKeys) drop() { *t = dynKeys{} }

// key returns b as a string, an earlier equal key when the table has it.
func (d *Decoder) key(b []byte) string {
	n := len(b)
	if n == 0 {
		return ""
	}
	if n > dynKeyMaxLen {
		return d.plainString(b)
	}
	t := &d.dynKeys
	if t.slots == nil {
		// One slot per 32 bytes of input (a key and its value take
		// more), a power of two from 16 to dynKeySlots.
		t.slots = make([]string, tableSlots(len(d.buf), 32, dynKeySlots))
	}
	slot := &t.slots[keyHash(b)&uint64(len(t.slots)-1)]
	if *slot == string(b) {
		return *slot
	}
	s := t.arena.carve(b, len(d.buf)-d.pos)
	*slot = s
	return s
}

// keyHash mixes the length and the first and last eight bytes (fewer
// when shorter): keys that differ elsewhere share a slot, which costs a
// miss, never a wrong key.
func keyHash(b []byte) uint64 {
	n := len(b)
	var head, tail uint64
	if n >= 8 {
		head = binary.LittleEndian.Uint64(b)
		tail = binary.LittleEndian.Uint64(b[n-8:])
	} else {
		for i, c := range b {
			head |= uint64(c) << (8 * i)
		}
	}
	h := (head ^ uint64(n)*0x9e3779b97f4a7c15) * 0xff51afd7ed558ccd
	h ^= tail * 0xc4ceb9fe1a85ec53
	return h ^ h>>31
}

// carve copies b into the chunk, starting one (at most 1 KiB, and no
// larger than the input left) when b does not fit.
func (a *dynKeyArena) carve(b []byte, left int) string {
	n := len(b)
	if len(a.chunk)-a.used < n {
		a.chunk, a.used = make([]byte, max(n, min(1<<10, n+left))), 0
	}
	s := a.chunk[a.used : a.used+n]
	copy(s, b)
	a.used += n
	return unsafe.String(unsafe.SliceData(s), n)
}

// tableSlots sizes a per-decode table for input of n bytes: one slot per
// perSlot bytes, a power of two from 16 to most (a power of two too).
func tableSlots(n, perSlot, most int) int {
	size := 16
	for size < most && size*perSlot < n {
		size *= 2
	}
	return size
}
