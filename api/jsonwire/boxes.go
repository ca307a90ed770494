package jsonwire

import (
	"math"
	"unsafe"
)

// Boxing from chunks. An any holding a string, an int64 beyond 255, a
// float64 or a []any points at a copy of the value on the heap: one small
// allocation per value, which for a dynamic object of short strings and
// numbers is a third of its allocations. A decode without a Table (a Get,
// a List handed to the caller) boxes them instead into chunks, one
// allocation for the boxes of many values, and carves small arrays'
// elements from a chunk too. Go never writes through an interface's data
// word (a type assertion copies the value out, and reflect treats it as
// unaddressable), and a carved array has no spare capacity, so every value
// stays independent of its neighbours. As with plainString, a chunk is
// dropped at Reset and never spans two decodes; decodes through a Table
// (informer caches, whose objects are replaced one by one) box one by one,
// so that no cached object pins another's.
const (
	firstBoxChunk = 8   // boxes in a decode's first chunk of a kind
	maxBoxChunk   = 128 // boxes per chunk at most; chunks double up to it
	maxCarvedLen  = 16  // longer arrays get their own allocation
	maxElemChunk  = 256 // array elements per chunk at most
)

// boxArena holds what is left of the decode's current chunks.
type boxArena struct {
	strs   []string
	ints   []int64
	floats []float64
	arrays [][]any
	elems  []any
	// next is the length of each kind's next chunk.
	nextStrs, nextInts, nextFloats, nextArrays, nextElems int
}

// eface is the layout of an any: its type word and its data word.
type eface struct {
	typ, data unsafe.Pointer
}

// pointAt returns v (a zero value of the wanted type, which boxes without
// allocating) with its data word set to p.
func pointAt(v any, p unsafe.Pointer) any {
	(*eface)(unsafe.Pointer(&v)).data = p
	return v
}

// chunkLen is the length of a new chunk: double the last one, at most
// limit, and no more than the values the input left can hold (each takes
// at least minBytes of it).
func chunkLen(next *int, limit, left, minBytes int) int {
	n := max(*next, firstBoxChunk)
	*next = min(2*n, limit)
	return max(1, min(n, left/minBytes+1))
}

// boxString returns s in an any whose data word points into a chunk.
func (a *boxArena) boxString(s string, left int) any {
	if s == "" {
		return ""
	}
	if len(a.strs) == 0 {
		a.strs = make([]string, chunkLen(&a.nextStrs, maxBoxChunk, left, 4)) // ,"x"
	}
	p := &a.strs[0]
	*p = s
	a.strs = a.strs[1:]
	return pointAt("", unsafe.Pointer(p))
}

// boxInt returns v in an any; 0-255 box without allocating in Go.
func (a *boxArena) boxInt(v int64, left int) any {
	if 0 <= v && v < 256 {
		return v
	}
	if len(a.ints) == 0 {
		a.ints = make([]int64, chunkLen(&a.nextInts, maxBoxChunk, left, 4)) // ,256
	}
	p := &a.ints[0]
	*p = v
	a.ints = a.ints[1:]
	return pointAt(int64(0), unsafe.Pointer(p))
}

// boxFloat returns v in an any whose data word points into a chunk.
func (a *boxArena) boxFloat(v float64, left int) any {
	if v == 0 && !math.Signbit(v) {
		return float64(0)
	}
	if len(a.floats) == 0 {
		a.floats = make([]float64, chunkLen(&a.nextFloats, maxBoxChunk, left, 4)) // ,1.5
	}
	p := &a.floats[0]
	*p = v
	a.floats = a.floats[1:]
	return pointAt(float64(0), unsafe.Pointer(p))
}

// array returns a copy of elems, carved from a chunk when short, boxed
// from a chunk.
func (a *boxArena) array(elems []any, left int) any {
	var out []any
	switch n := len(elems); {
	case n == 0:
		out = []any{} // an empty array, not nil, as in encoding/json
	case n <= maxCarvedLen:
		if len(a.elems) < n {
			a.elems = make([]any, max(n, chunkLen(&a.nextElems, maxElemChunk, left, 2))) // ,1
		}
		out = a.elems[:n:n]
		a.elems = a.elems[n:]
	default:
		out = make([]any, n)
	}
	copy(out, elems)
	if len(a.arrays) == 0 {
		a.arrays = make([][]any, chunkLen(&a.nextArrays, maxBoxChunk, left, 3)) // ,[]
	}
	p := &a.arrays[0]
	*p = out
	a.arrays = a.arrays[1:]
	return pointAt([]any(nil), unsafe.Pointer(p))
}
