package main

import "unsafe"

// builder makes a deep copy of a decoded map[string]any tree the
// cheapest way this command knows, as a floor under any decoder of that
// output: maps made at their final size, the backing arrays of short
// []any and the headers their interfaces point at carved from chunks
// (one allocation per chunk, not per value), and leaves (strings,
// numbers, booleans) taken as they are, boxes included, as DeepCopy takes
// them. A decoder must also make its strings and leaf boxes; this floor
// makes neither.
type builder struct {
	elems  []any
	slices [][]any
}

const (
	elemChunk  = 64
	sliceChunk = 32
	elemMax    = 16
)

type eface struct{ typ, data unsafe.Pointer }

func (b *builder) value(v any) any {
	switch v := v.(type) {
	case map[string]any:
		return b.object(v)
	case []any:
		var out []any
		switch n := len(v); {
		case n == 0 || n > elemMax:
			out = make([]any, n)
		default:
			if len(b.elems) < n {
				b.elems = make([]any, elemChunk)
			}
			out = b.elems[:n:n]
			b.elems = b.elems[n:]
		}
		for i, e := range v {
			out[i] = b.value(e)
		}
		if len(b.slices) == 0 {
			b.slices = make([][]any, sliceChunk)
		}
		p := &b.slices[0]
		b.slices = b.slices[1:]
		*p = out
		var boxed any = []any(nil)
		(*eface)(unsafe.Pointer(&boxed)).data = unsafe.Pointer(p)
		return boxed
	}
	return v
}

func (b *builder) object(m map[string]any) map[string]any {
	if m == nil {
		return nil
	}
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = b.value(v)
	}
	return out
}

// A tape is a decoded tree flattened in decode order, so that replaying
// it builds the tree with no parsing and no map iteration: the floor of
// a decoder that reads its input in one pass.
type tapeOp struct {
	kind byte // 'm' map, 'a' array, 'l' leaf
	n    int
	key  string // the entry's key, in a map
	leaf any
}

func record(tape []tapeOp, key string, v any) []tapeOp {
	switch v := v.(type) {
	case map[string]any:
		tape = append(tape, tapeOp{kind: 'm', n: len(v), key: key})
		for k, e := range v {
			tape = record(tape, k, e)
		}
		return tape
	case []any:
		tape = append(tape, tapeOp{kind: 'a', n: len(v), key: key})
		for _, e := range v {
			tape = record(tape, "", e)
		}
		return tape
	}
	return append(tape, tapeOp{kind: 'l', key: key, leaf: v})
}

// replay builds the value at tape[*pos] as builder.value builds a copy.
func (b *builder) replay(tape []tapeOp, pos *int) any {
	op := &tape[*pos]
	*pos++
	switch op.kind {
	case 'm':
		return b.replayMap(tape, pos, op.n)
	case 'a':
		var out []any
		switch n := op.n; {
		case n == 0 || n > elemMax:
			out = make([]any, n)
		default:
			if len(b.elems) < n {
				b.elems = make([]any, elemChunk)
			}
			out = b.elems[:n:n]
			b.elems = b.elems[n:]
		}
		for i := range out {
			out[i] = b.replay(tape, pos)
		}
		if len(b.slices) == 0 {
			b.slices = make([][]any, sliceChunk)
		}
		p := &b.slices[0]
		b.slices = b.slices[1:]
		*p = out
		var boxed any = []any(nil)
		(*eface)(unsafe.Pointer(&boxed)).data = unsafe.Pointer(p)
		return boxed
	}
	return op.leaf
}

func (b *builder) replayMap(tape []tapeOp, pos *int, n int) map[string]any {
	m := make(map[string]any, n)
	for range n {
		k := tape[*pos].key
		m[k] = b.replay(tape, pos)
	}
	return m
}
