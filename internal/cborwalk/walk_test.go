package cborwalk

import (
	"testing"

	"github.com/kubewire/kubewire/api/cborwire"
)

// FuzzWalk: fed any bytes a prefix at a time, the walk asks for
// the full check at the latest where the item ends (an event is never
// held back once whole), and its lower bound on the item's length holds.
func FuzzWalk(f *testing.F) {
	for _, js := range []string{`{"type":"ADDED","object":{"a":[1,2,{"b":"c"}],"d":null}}`, `[]`, `"x"`, `{"a":[[[[]]]]}`} {
		b, err := cborwire.FromJSON([]byte(js))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte{0x9f, 0x5f, 0x41, 'a', 0xff, 0xbf, 0x61, 'k', 0x01, 0xff, 0xff})
	f.Add([]byte{0xd9, 0xd9, 0xf7, 0xa1, 0x61, 'a', 0xc1, 0xfb, 0, 0, 0, 0, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		var w Walk
		for p := 1; p <= len(b); p++ {
			ready := w.Advance(b[:p])
			n, err := cborwire.ItemEnd(b[:p])
			if n > 0 && !ready {
				t.Fatalf("the item ends at byte %d of %d; the walk waits for more", n, p)
			}
			if n > 0 && w.Least() > uint64(n) {
				t.Fatalf("least length %d, the item has %d bytes", w.Least(), n)
			}
			if n > 0 || err != nil {
				return
			}
		}
	})
}
