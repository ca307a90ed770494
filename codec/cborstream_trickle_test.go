package codec

import (
	"bytes"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/kubewire/kubewire/api/cborwire"
)

// A CBOR watch event of 64 Ki one-byte items (64 KiB) arriving a byte
// per read, as from a server that trickles its bytes: the stream's walk
// to the event's end goes on from where the last read left it (it
// walked every head read so far after each read: 2.6-4.0 s/op).
func BenchmarkCBORStreamTrickled(b *testing.B) {
	ev, err := cborwire.FromJSON([]byte(`{"type":"ADDED","object":{"kind":"Widget","spec":{"filler":[` + strings.Repeat("1,", 64<<10) + `1]}}}`))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(ev)))
	for b.Loop() {
		s := NewCBORStream(iotest.OneByteReader(bytes.NewReader(ev)), StreamOptions{})
		if typ, _, err := s.Next(); err != nil || typ != EventAdded {
			b.Fatal(typ, err)
		}
	}
}
