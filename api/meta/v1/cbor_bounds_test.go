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
