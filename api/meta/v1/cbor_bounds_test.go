package v1

import (
	"errors"
	"runtime"
	"testing"

	"github.com/kubewire/kubewire/api/cborwire"
	"github.com/kubewire/kubewire/api/wire"
)

// An array head may claim as many elements as there are bytes left; the
// decoder must not make a slice of that many elements up front (an
// OwnerReference is over a hundred bytes, a byte of input each would be
// a hundredfold the input) before finding that the elements are not
// there.
func TestCBOROversizedArrayHead(t *testing.T) {
	n := 1 << 20
	in := []byte{0xa1, 0x4f} // a map of one entry, key a 15-byte string
	in = append(in, "ownerReferences"...)
	in = append(in, 0x9a, byte(n>>24), byte(n>>16), byte(n>>8), byte(n)) // array of n
	for range n {
		in = append(in, 0x01) // integers, not maps: a type error at the first
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	var m ObjectMeta
	err := cborwire.Decode(in, &m, nil)
	runtime.ReadMemStats(&after)
	if err == nil || !errors.Is(err, wire.ErrMalformed) {
		t.Fatalf("Decode = %v, want a malformed-input error", err)
	}
	if allocated := after.TotalAlloc - before.TotalAlloc; allocated > 4<<20 {
		t.Errorf("decoding %d bytes allocated %d bytes before failing", len(in), allocated)
	}
}

// Past SliceCap's first bound a slice grows to the elements the input
// left can hold at the bytes per element read so far, but never to more
// than twice the input's length in bytes: tiny elements first (empty
// maps, a zero OwnerReference each) followed by a long tail that is not
// elements must not make the estimate a slice a hundredfold the input.
func TestCBORSliceGrowthBound(t *testing.T) {
	n := 1 << 20
	in := []byte{0xa1, 0x4f}
	in = append(in, "ownerReferences"...)
	in = append(in, 0x9a, byte(n>>24), byte(n>>16), byte(n>>8), byte(n))
	for range 2000 {
		in = append(in, 0xa0) // an empty map: a zero OwnerReference
	}
	for len(in) < n {
		in = append(in, 0x01) // then integers: a type error
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	var m ObjectMeta
	err := cborwire.Decode(in, &m, nil)
	runtime.ReadMemStats(&after)
	if err == nil || !errors.Is(err, wire.ErrMalformed) {
		t.Fatalf("Decode = %v, want a malformed-input error", err)
	}
	if allocated := after.TotalAlloc - before.TotalAlloc; allocated > 4<<20 {
		t.Errorf("decoding %d bytes allocated %d bytes before failing", len(in), allocated)
	}
}

// A list whose elements are as large in the input as in memory is made
// at most twice past SliceCap's first bound, not in a run of doublings:
// the estimate from the bytes per element read so far reaches the
// head's count at once.
func TestCBORSliceGrowsToTheCount(t *testing.T) {
	n := 3000 // over SliceCap's first bound of OwnerReferences
	ref := []byte{0xa2, 0x44, 'k', 'i', 'n', 'd', 0x45, 'O', 'w', 'n', 'e', 'r',
		0x44, 'n', 'a', 'm', 'e', 0x58, 100}
	ref = append(ref, make([]byte, 100)...)
	for i := range 100 {
		ref[len(ref)-100+i] = 'a'
	}
	in := []byte{0xa1, 0x4f}
	in = append(in, "ownerReferences"...)
	in = append(in, 0x99, byte(n>>8), byte(n)) // an array of n, a two-byte count
	for range n {
		in = append(in, ref...)
	}
	var m ObjectMeta
	allocs := testing.AllocsPerRun(5, func() {
		m = ObjectMeta{}
		if err := cborwire.Decode(in, &m, nil); err != nil {
			t.Fatal(err)
		}
	})
	if len(m.OwnerReferences) != n || m.OwnerReferences[n-1].Kind != "Owner" {
		t.Fatalf("decoded %d references, the last %+v", len(m.OwnerReferences), m.OwnerReferences[n-1])
	}
	// Per reference: its kind and name strings; the slice: twice at most.
	if max := float64(2*n + 3); allocs > max {
		t.Errorf("%.0f allocations, want at most %.0f", allocs, max)
	}
}
