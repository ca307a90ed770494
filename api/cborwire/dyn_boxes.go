package cborwire

import "unsafe"

// dynBoxes hands out the boxes a plain dynamic decode puts in its
// interfaces. Converting a string, an int64 or a []any to an any costs a
// heap allocation per value (the interface points at a copy of the
// header or number); here the copies are carved from small typed chunks
// instead, one allocation per chunk. A box is written once and never
// changed (an interface's value is immutable), so boxes of different
// objects may share a chunk, as their strings share a StringArena chunk.
//
// Positions are indexes, not re-sliced chunks, so that handing out a box
// stores no pointer in the Decoder (a write barrier while the collector
// runs).
type dynBoxes struct {
	strs   []string
	ints   []int64
	floats []float64
	slices [][]any
	elems  []any // the backing arrays of small []any values
	nStr   int
	nInt   int
	nFloat int
	nSlice int
	nElem  int
}

// Chunk sizes, in values. A chunk is also never larger than the values
// the rest of the input can hold, so a short input allocates little.
const (
	dynStrChunk   = 64 // 1 KiB
	dynIntChunk   = 32 // 256 B
	dynFloatChunk = 16
	dynSliceChunk = 32 // 768 B
	dynElemChunk  = 64 // 1 KiB
	dynElemMax    = 16 // longer arrays get their own backing array
)

// eface is the layout of an any.
type eface struct {
	typ  unsafe.Pointer
	data unsafe.Pointer
}

// boxAt returns an any of like's dynamic type whose value is *p. like
// must hold a value of type *p's type that needs no allocation (a
// constant), so that only its type word is taken.
func boxAt[T any](like any, p *T) any {
	(*eface)(unsafe.Pointer(&like)).data = unsafe.Pointer(p)
	return like
}

// chunkLen is the length of a new chunk: at most max, and at most the
// values that left bytes can encode at minBytes each.
func chunkLen(left, minBytes, max int) int {
	return min(max, left/minBytes+1)
}

// boxString returns s in an any, its header copied into a chunk.
func (d *Decoder) boxString(s string) any {
	b := &d.dyn
	if b.nStr == len(b.strs) {
		// a non-empty string takes two bytes at least
		b.strs, b.nStr = make([]string, chunkLen(len(d.buf)-d.pos, 2, dynStrChunk)), 0
	}
	p := &b.strs[b.nStr]
	b.nStr++
	*p = s
	return boxAt[string]("", p)
}

// boxInt returns v in an any; values under 256 are boxed by the runtime
// without allocating, the others are copied into a chunk.
func (d *Decoder) boxInt(v int64) any {
	if uint64(v) < 256 {
		return v
	}
	b := &d.dyn
	if b.nInt == len(b.ints) {
		// an integer of 24 or more takes two bytes at least
		b.ints, b.nInt = make([]int64, chunkLen(len(d.buf)-d.pos, 2, dynIntChunk)), 0
	}
	p := &b.ints[b.nInt]
	b.nInt++
	*p = v
	return boxAt[int64](int64(0), p)
}

// boxFloat returns f in an any, copied into a chunk.
func (d *Decoder) boxFloat(f float64) any {
	b := &d.dyn
	if b.nFloat == len(b.floats) {
		// a float takes three bytes at least
		b.floats, b.nFloat = make([]float64, chunkLen(len(d.buf)-d.pos, 3, dynFloatChunk)), 0
	}
	p := &b.floats[b.nFloat]
	b.nFloat++
	*p = f
	return boxAt[float64](float64(0), p)
}

// boxSlice returns s in an any, its header copied into a chunk.
func (d *Decoder) boxSlice(s []any) any {
	b := &d.dyn
	if b.nSlice == len(b.slices) {
		// an array takes a byte at least
		b.slices, b.nSlice = make([][]any, chunkLen(len(d.buf)-d.pos, 1, dynSliceChunk)), 0
	}
	p := &b.slices[b.nSlice]
	b.nSlice++
	*p = s
	return boxAt[[]any]([]any(nil), p)
}

// elemSlice returns a zeroed []any of length and capacity n (n is at
// most the bytes left: every element takes one), carved from a chunk
// when n is small. Its capacity is its length, so an append by its
// owner moves it rather than writing over a neighbour.
func (d *Decoder) elemSlice(n int) []any {
	if n == 0 || n > dynElemMax {
		return make([]any, n)
	}
	b := &d.dyn
	if len(b.elems)-b.nElem < n {
		b.elems, b.nElem = make([]any, max(n, chunkLen(len(d.buf)-d.pos, 1, dynElemChunk))), 0
	}
	s := b.elems[b.nElem : b.nElem+n : b.nElem+n]
	b.nElem += n
	return s
}

// drop forgets the chunks: the next decode starts new ones.
func (b *dynBoxes) drop() { *b = dynBoxes{} }
