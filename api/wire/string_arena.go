package wire

import "unsafe"

// StringArena is CarveString's chunk held as a slice and an offset: a
// carve moves the offset, an int, and stores a pointer only when it
// starts a chunk. A decoder keeps it in its (heap) struct, where storing
// the rest of the chunk as a slice after every string cost a write
// barrier per string while the collector runs. The zero value is ready.
type StringArena struct {
	chunk []byte
	used  int
}

// Carve returns a string holding b, carved from the arena's chunk, which
// it replaces when short, as CarveString does; left is the input still
// to read after b.
func (a *StringArena) Carve(b []byte, left int) string {
	n := len(b)
	if n == 0 {
		return ""
	}
	if n > ArenaMaxString {
		return string(b)
	}
	if len(a.chunk)-a.used < n {
		// The strings still to come are within the input left.
		a.chunk, a.used = make([]byte, max(n, min(ArenaChunk, n+left))), 0
	}
	s := a.chunk[a.used : a.used+n]
	copy(s, b)
	a.used += n
	return unsafe.String(unsafe.SliceData(s), n)
}

// CarveShort carves b (1 to 32 bytes) as Carve does, but copies it as
// one 32-byte block (two vector moves) instead of calling memmove,
// reading past len(b) into b's capacity: what lands past len(b) is in
// the chunk's unused part, which the next carve overwrites. It reports
// false and carves nothing when b is empty or longer, its capacity short
// of 32 bytes, or the chunk has less than 32 left: the caller then calls
// Carve.
func (a *StringArena) CarveShort(b []byte) (string, bool) {
	n := len(b)
	if uint(n-1) >= 32 || len(a.chunk)-a.used < 32 || cap(b) < 32 {
		return "", false
	}
	// Both hold 32 bytes from these pointers (checked above).
	dst := unsafe.Add(unsafe.Pointer(unsafe.SliceData(a.chunk)), a.used)
	src := unsafe.Pointer(unsafe.SliceData(b))
	*(*[16]byte)(dst) = *(*[16]byte)(src)
	*(*[16]byte)(unsafe.Add(dst, 16)) = *(*[16]byte)(unsafe.Add(src, 16))
	a.used += n
	return unsafe.String((*byte)(dst), n), true
}

// Drop forgets the chunk, so that the next carve starts a new one (a
// chunk never holds the strings of two decodes).
func (a *StringArena) Drop() { a.chunk, a.used = nil, 0 }

// Left returns the bytes the current chunk has left.
func (a *StringArena) Left() int { return len(a.chunk) - a.used }
