// Package boxes puts decoded values into interfaces with fewer
// allocations. Converting a string, an int64 beyond 255, a float64 or a
// []any to an any copies the value to the heap, one small allocation per
// value; for a dynamic object of short strings and numbers that is a
// third of its allocations. An Arena instead copies the values into
// typed chunks, one allocation for many values, and points each
// interface's data word at its slot. It also carves the elements of
// short arrays from one chunk.
//
// Go never writes through an interface's data word (a type assertion
// copies the value out, reflect treats it as unaddressable), and a
// carved array has no spare capacity, so every value stays independent
// of its neighbours: only the chunk's memory is shared, which a kept
// value pins until it is dropped.
//
// # Lifetime
//
// An Arena belongs to one decoder and lives as long as the decoder's
// input: the decoder calls Drop when it is given new input (its Reset),
// so that a chunk never holds the values of two decodes. Within one
// decode the values of many objects (the items of a list) share chunks.
// A decode whose values are kept and replaced one at a time (through an
// interning table, for an informer's cache) must not use an Arena:
// there, one kept value would pin a chunk of values long replaced.
package boxes

import (
	"math"
	"unsafe"
)

// Chunk lengths, in values. A kind's first chunk in a decode holds
// firstChunk values and each next one twice the last, up to the kind's
// limit; no chunk is longer than the values the rest of the input can
// hold, so that a short input allocates little.
const (
	firstChunk    = 8
	maxScalars    = 128 // strings, integers, floats, slice headers
	maxElems      = 256 // array elements
	MaxCarvedElem = 16  // longer arrays get their own allocation
)

// The fewest bytes one boxed value takes in the input, in JSON or CBOR
// (a CBOR negative integer of one byte; a CBOR half float; an empty
// CBOR string is not boxed, a one-byte one takes two). They bound a
// chunk's length by the input left.
const (
	minStringBytes = 2
	minIntBytes    = 1
	minFloatBytes  = 3
	minSliceBytes  = 1
	minElemBytes   = 1
)

// Arena hands out boxes from chunks. The zero Arena is ready; see the
// package doc for how long its chunks live. Positions are indexes, not
// re-sliced chunks, so that handing out a box stores no pointer in the
// Arena (a write barrier while the collector runs).
type Arena struct {
	strs   chunk[string]
	ints   chunk[int64]
	floats chunk[float64]
	slices chunk[[]any]
	elems  chunk[any]
}

// chunk is the current chunk of one kind and where its free part starts.
type chunk[T any] struct {
	vals []T
	used int
	next int // the length of the next chunk (0: firstChunk)
}

// slot returns the next free slot, starting a chunk when none is left.
// left is the input not yet read, minBytes the fewest bytes a value
// takes in it, limit the longest chunk.
func (c *chunk[T]) slot(left, minBytes, limit int) *T {
	if c.used == len(c.vals) {
		c.start(1, left, minBytes, limit)
	}
	p := &c.vals[c.used]
	c.used++
	return p
}

// carve returns n (at least 1) consecutive free slots, as slot does.
func (c *chunk[T]) carve(n, left, minBytes, limit int) []T {
	if len(c.vals)-c.used < n {
		c.start(n, left, minBytes, limit)
	}
	s := c.vals[c.used : c.used+n : c.used+n]
	c.used += n
	return s
}

// start makes a new chunk of at least n values.
func (c *chunk[T]) start(n, left, minBytes, limit int) {
	size := max(c.next, firstChunk)
	c.next = min(2*size, limit)
	size = max(n, min(size, left/minBytes+1))
	c.vals, c.used = make([]T, size), 0
}

// eface is the layout of an any: its type word and its data word.
type eface struct {
	typ, data unsafe.Pointer
}

// pointAt returns like (a value of T that boxes without allocating:
// a constant) with its data word set to p.
func pointAt[T any](like any, p *T) any {
	(*eface)(unsafe.Pointer(&like)).data = unsafe.Pointer(p)
	return like
}

// String returns s in an any; "" boxes without allocating, others are
// copied into a chunk. left is the count of input bytes not yet read.
func (a *Arena) String(s string, left int) any {
	if s == "" {
		return ""
	}
	p := a.strs.slot(left, minStringBytes, maxScalars)
	*p = s
	return pointAt[string]("", p)
}

// Int returns v in an any; 0-255 box without allocating in Go, others
// are copied into a chunk.
func (a *Arena) Int(v int64, left int) any {
	if uint64(v) < 256 {
		return v
	}
	p := a.ints.slot(left, minIntBytes, maxScalars)
	*p = v
	return pointAt[int64](int64(0), p)
}

// Float returns f in an any; positive zero boxes without allocating,
// others (negative zero included) are copied into a chunk.
func (a *Arena) Float(f float64, left int) any {
	if f == 0 && !math.Signbit(f) {
		return float64(0)
	}
	p := a.floats.slot(left, minFloatBytes, maxScalars)
	*p = f
	return pointAt[float64](float64(0), p)
}

// Slice returns s in an any, its header copied into a chunk.
func (a *Arena) Slice(s []any, left int) any {
	p := a.slices.slot(left, minSliceBytes, maxScalars)
	*p = s
	return pointAt[[]any]([]any(nil), p)
}

// Elems returns a zeroed []any of length and capacity n, carved from a
// chunk when 1 <= n <= MaxCarvedElem; a longer one, or an empty one
// (never nil, as an empty array decodes), gets its own. Its capacity is
// its length, so an append by its owner moves it rather than writing
// over a neighbour. left bounds the chunk as for String (every element
// takes a byte).
func (a *Arena) Elems(n, left int) []any {
	if n == 0 || n > MaxCarvedElem {
		return make([]any, n)
	}
	return a.elems.carve(n, left, minElemBytes, maxElems)
}

// Drop forgets the chunks: the next value starts new ones, and the
// values handed out so far keep theirs alive only while they are kept.
func (a *Arena) Drop() { *a = Arena{} }

// Chunks reports how many chunks the Arena holds, one at most per kind.
func (a *Arena) Chunks() int {
	n := 0
	for _, held := range []bool{a.strs.vals != nil, a.ints.vals != nil, a.floats.vals != nil, a.slices.vals != nil, a.elems.vals != nil} {
		if held {
			n++
		}
	}
	return n
}
