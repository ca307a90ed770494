package codec

import (
	"errors"
	"io"
	"testing"
)

// headThenFail hands over head, then fails any further read: a server
// that declared an event and sends the rest slowly, or never.
type headThenFail struct{ head []byte }

var errReadPastHead = errors.New("read past the declared head")

func (r *headThenFail) Read(p []byte) (int, error) {
	if len(r.head) == 0 {
		return 0, errReadPastHead
	}
	n := copy(p, r.head)
	r.head = r.head[n:]
	return n, nil
}

// An event whose heads declare more than the limit is ErrTooLarge as
// soon as the heads arrive; the stream read on, waiting for bytes it
// would refuse (forever, from a server that keeps the connection open).
func TestCBORStreamRefusesDeclaredLengthAtOnce(t *testing.T) {
	for name, head := range map[string][]byte{
		"string of 2^62 bytes":   {0xa1, 0x64, 't', 'y', 'p', 'e', 0x7b, 0x40, 0, 0, 0, 0, 0, 0, 0, 'A'},
		"string of 2^64-1 bytes": {0xa1, 0x64, 't', 'y', 'p', 'e', 0x5b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
		"map of 2^63 entries":    {0xbb, 0x80, 0, 0, 0, 0, 0, 0, 0, 0x64, 't', 'y', 'p', 'e'},
		"array of 5000 items":    {0xa1, 0x66, 'o', 'b', 'j', 'e', 'c', 't', 0xd9, 0xd9, 0xf7, 0xa1, 0x61, 'x', 0x99, 0x13, 0x88, 0x01},
		"nested string of 4097":  {0xa1, 0x66, 'o', 'b', 'j', 'e', 'c', 't', 0xa1, 0x61, 'x', 0x59, 0x10, 0x01, 'a'},
	} {
		s := NewCBORStream(&headThenFail{head: head}, StreamOptions{MaxSize: 4096})
		if _, _, err := s.Next(); !errors.Is(err, ErrTooLarge) || !errors.Is(err, ErrMalformed) {
			t.Errorf("%s: %v, want ErrTooLarge before reading on", name, err)
		}
	}
	// Within the limit, the stream waits for the rest.
	s := NewCBORStream(&headThenFail{head: []byte{0xa1, 0x64, 't', 'y', 'p', 'e', 0x79, 0x0f, 0xe0, 'A'}}, StreamOptions{MaxSize: 4096})
	if _, _, err := s.Next(); !errors.Is(err, errReadPastHead) {
		t.Errorf("an event declaring 4080 bytes of 4096: %v, want the stream to read on", err)
	}
	// Indefinite lengths declare nothing; the one-byte chunk in them does.
	s = NewCBORStream(&headThenFail{head: []byte{0x9f, 0x5f, 0x41}}, StreamOptions{MaxSize: 3})
	if _, _, err := s.Next(); !errors.Is(err, ErrTooLarge) {
		t.Errorf("an event whose indefinite string holds a chunk of 1 byte after 3: %v, want ErrTooLarge under a 3-byte limit", err)
	}
	if _, _, err := NewCBORStream(&headThenFail{}, StreamOptions{}).Next(); errors.Is(err, io.EOF) {
		t.Errorf("a failed read is not the end of the stream: %v", err)
	}
}
