package cborwire

import "unsafe"

// New returns a pointer to a zero T for a pointer field to a small
// struct (a managedFields entry's Time and FieldsV1), carved from the
// decode's chunk of Ts as NewString carves strings: one allocation for
// many fields. A kept pointer pins its chunk, at most maxChunkBytes.
// Decodes through a ReadOnly Table allocate each T: such a value may be
// shared by the cache's later objects, and its chunk would keep the
// values of objects long gone. Larger Ts are allocated each.
func New[T any](d *Decoder) *T {
	var zero T
	size := unsafe.Sizeof(zero)
	if size == 0 || size > maxChunkedSize || (d.Table != nil && d.Table.ReadOnly) {
		return new(T)
	}
	c := d.chunks.of(any((*T)(nil)))
	if c == nil {
		return new(T)
	}
	if c.used == c.n {
		n := nextChunk(c.n, int(size), len(d.buf)-d.pos)
		chunk := make([]T, n)
		c.base, c.used, c.n = unsafe.Pointer(unsafe.SliceData(chunk)), 0, n
	}
	p := (*T)(unsafe.Add(c.base, uintptr(c.used)*size))
	c.used++
	return p
}

const (
	maxChunkedSize = 64  // bytes of a T that New carves from chunks
	maxChunkBytes  = 512 // bytes of a chunk at most
	chunkTypes     = 4   // the types New keeps a chunk of at once
)

// typedChunk is the current chunk of one type: its first element (an
// unsafe.Pointer, as a slice of an unknown type cannot be held) and its
// length, and the next element to hand out.
type typedChunk struct {
	typ     any // (*T)(nil), naming the chunk's element type
	base    unsafe.Pointer
	used, n int
}

// typedChunks holds the chunks New carves from, for the first
// chunkTypes types a decode asks for; others are allocated each (taking
// a type's place would start it over at a small chunk, and a decode
// alternating more types than slots would allocate a chunk per value).
type typedChunks struct {
	c [chunkTypes]typedChunk
}

// of returns the chunk of the type typ names, or nil when every slot
// holds another type.
func (s *typedChunks) of(typ any) *typedChunk {
	for i := range s.c {
		switch s.c[i].typ {
		case typ:
			return &s.c[i]
		case nil:
			s.c[i].typ = typ
			return &s.c[i]
		}
	}
	return nil
}

func (s *typedChunks) drop() { *s = typedChunks{} }

// nextChunk is the length of the chunk of size-byte values that follows
// one of have: twice as long, up to maxChunkBytes, bounded by the input
// left (each value takes a byte at least).
func nextChunk(have, size, left int) int {
	n := firstSlots
	if have > 0 {
		n = 2 * have
	}
	return max(min(n, maxChunkBytes/size, left), 1)
}
