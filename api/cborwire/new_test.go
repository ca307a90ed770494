package cborwire

import (
	"testing"
	"unsafe"

	"github.com/kubewire/kubewire/api/wire"
)

type small1 struct{ a, b *int }
type small2 struct{ s string }
type small3 struct{ x [3]uint64 }
type small4 struct{ p *byte }
type small5 struct{ q *string }
type large struct{ x [16]uint64 }

// New carves a plain decode's small values from chunks (a handful of
// allocations for many values, each zero and its own), for the first
// four types it is asked for; a fifth type, larger types and decodes
// through a ReadOnly Table allocate each value.
func TestNewCarvesSmallValues(t *testing.T) {
	input := make([]byte, 4096)
	const n = 64
	count := func(table *wire.Decoder, each func(d *Decoder)) float64 {
		d := NewDecoder(input, table)
		return testing.AllocsPerRun(10, func() {
			d.Reset(input)
			for range n {
				each(d)
			}
		})
	}
	if a := count(nil, func(d *Decoder) { New[small1](d) }); a > 6 {
		t.Errorf("%d values of one small type: %v allocations, want at most 6", n, a)
	}
	if a := count(nil, func(d *Decoder) { New[large](d) }); a != n {
		t.Errorf("%d values of a %d-byte type: %v allocations, want %d", n, unsafe.Sizeof(large{}), a, n)
	}
	if a := count(&wire.Decoder{ReadOnly: true}, func(d *Decoder) { New[small1](d) }); a != n {
		t.Errorf("%d values through a ReadOnly Table: %v allocations, want %d", n, a, n)
	}
	five := count(nil, func(d *Decoder) {
		New[small1](d)
		New[small2](d)
		New[small3](d)
		New[small4](d)
		New[small5](d)
	})
	if five < n || five > n+4*6 {
		t.Errorf("%d values of each of five types: %v allocations, want the fifth's %d and a few chunks", n, five, n)
	}

	d := NewDecoder(input, nil)
	seen := map[*small3]bool{}
	for range 3 * n {
		p := New[small3](d)
		if *p != (small3{}) || seen[p] {
			t.Fatalf("New returned a used value %v", *p)
		}
		seen[p] = true
		p.x[2] = 7
	}
}
