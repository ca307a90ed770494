package codec

import (
	"bytes"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/kubewire/kubewire/api/cborwire"
)

// A CBOR watch event of 64 Ki one-byte items (64 KiB) arriving a byte
// per read, as from a server that trickles its bytes. The stream looks
// for the event's end after every read, walking every head read so far:
// the cost grows with the square of the event's heads (about 3 s here).
// Looking again only once the buffered bytes doubled would leave a
// complete event waiting for more bytes; the fix needs a walk that
// resumes where it stopped.
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
