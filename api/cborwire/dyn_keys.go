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
	slots []dynKeySlot // nil until the decode's first key
	spare []dynKeySlot // the slots of the decode before, cleared
	arena dynKeyArena
}

// dynKeySlot is an interned key and its first eight bytes (all of them,
// when shorter) as keyWords reads them: a key that matches them and,
// past eight bytes, its last eight, is the same key without a call to
// compare the two.
type dynKeySlot struct {
	s    string
	head uint64
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

// drop forgets the table's keys and its chunk, as Reset does the
// values', keeping the slots (cleared: they must not keep the keys'
// chunks alive) for the next decode, which may be one small object of
// a stream.
func (t *dynKeys) drop() {
	if t.slots != nil {
		clear(t.slots)
		t.spare = t.slots
	}
	t.slots, t.arena = nil, dynKeyArena{}
}

// spareSlots returns n cleared slots, from spare when it holds them.
func spareSlots[S ~[]E, E any](spare *S, n int) S {
	s := *spare
	*spare = nil
	if cap(s) >= n {
		return s[:n]
	}
	return make(S, n)
}

// key returns b as a string, an earlier equal key when the table has
// it; a new key is copied into the table's chunk, or, through a Table,
// interned there (the table then spares the Table's hashing of the
// keys it holds).
func (d *Decoder) key(b []byte) string {
	n := len(b)
	if n == 0 {
		return ""
	}
	if n > dynKeyMaxLen {
		return d.intern(b)
	}
	t := &d.dynKeys
	if t.slots == nil {
		// One slot per 32 bytes of input (a key and its value take
		// more), a power of two from 16 to dynKeySlots.
		t.slots = spareSlots(&t.spare, tableSlots(len(d.buf), 32, dynKeySlots))
	}
	head, tail := keyWords(b)
	slot := &t.slots[mixKey(head, tail, n)&uint64(len(t.slots)-1)]
	if slot.s == string(b) {
		return slot.s
	}
	var s string
	if d.Table != nil {
		s = d.Table.String(b)
	} else {
		s = t.arena.carve(b, len(d.buf)-d.pos)
	}
	*slot = dynKeySlot{s, head}
	return s
}

// nextKey reads the key of entry i of an opened map of n entries (-1:
// an indefinite length) as NextKey does, and returns it as key does.
// A key of 1 to 23 bytes (a one-byte head) that the table holds is
// taken at once: equal to a key read and checked before, it needs no check of
// its own (a key that is not valid UTF-8 equals no key the table holds).
func (d *Decoder) nextKey(i, n int) (string, bool) {
	if d.err != nil {
		return "", false
	}
	if n >= 0 && i >= n {
		d.depth--
		return "", false
	}
	if p := d.pos; d.dynKeys.slots != nil && p < len(d.buf) {
		c := d.buf[p]
		l := int(c & 0x1f)
		if end := p + 1 + l; (c>>5 == majorText || c>>5 == majorBytes) && l >= 1 && l < 24 && end <= len(d.buf) && end >= 8 {
			head, tail := keyWordsAt(d.buf, p+1, end)
			t := &d.dynKeys
			slot := &t.slots[mixKey(head, tail, l)&uint64(len(t.slots)-1)]
			if len(slot.s) == l && slot.head == head && sameTail(slot.s, d.buf[p+1:end], tail) {
				if d.keyJoined != nil {
					d.keyJoined = nil
				}
				d.keyStart, d.keyEnd, d.pos = p+1, end, end
				return slot.s, true
			}
		}
	}
	if !d.NextKey(i, n) {
		return "", false
	}
	return d.key(d.Key()), true
}

// sameTail reports whether s, whose length and first eight bytes equal
// b's, equals b: past eight bytes, by the last eight (tail, b's), past
// sixteen by all of them.
func sameTail(s string, b []byte, tail uint64) bool {
	n := len(b)
	switch {
	case n <= 8:
		return true
	case n <= 16:
		return binary.LittleEndian.Uint64(unsafe.Slice(unsafe.StringData(s[n-8:]), 8)) == tail
	}
	return s == string(b)
}

// keyHash mixes the length and the first and last eight bytes (fewer
// when shorter): keys that differ elsewhere share a slot, which costs a
// miss, never a wrong key.
func keyHash(b []byte) uint64 {
	head, tail := keyWords(b)
	return mixKey(head, tail, len(b))
}

// keyWords returns the first and last eight bytes of b, little-endian;
// under eight bytes, head holds them all and tail is zero.
func keyWords(b []byte) (head, tail uint64) {
	n := len(b)
	if n >= 8 {
		return binary.LittleEndian.Uint64(b), binary.LittleEndian.Uint64(b[n-8:])
	}
	for i, c := range b {
		head |= uint64(c) << (8 * i)
	}
	return head, 0
}

// keyWordsAt is keyWords of buf[start:end], which ends eight bytes or
// more into buf: a key under eight bytes is read in one load, the bytes
// before it shifted out.
func keyWordsAt(buf []byte, start, end int) (head, tail uint64) {
	tail = binary.LittleEndian.Uint64(buf[end-8:])
	if n := end - start; n < 8 {
		return tail >> (8 * (8 - n)), 0
	}
	return binary.LittleEndian.Uint64(buf[start:]), tail
}

// mixKey is keyHash of a key of n bytes from its keyWords.
func mixKey(head, tail uint64, n int) uint64 {
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
