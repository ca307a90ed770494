package codec

import (
	"bytes"
	"encoding/binary"
	"io"
	"testing"
	"testing/iotest"
)

// cborEvent is the CBOR of {"type": "MODIFIED", "object": {"data": data}}.
func cborEvent(data string) []byte {
	b := []byte{0xa2, 0x64}
	b = append(b, "type"...)
	b = append(b, 0x68)
	b = append(b, "MODIFIED"...)
	b = append(b, 0x66)
	b = append(b, "object"...)
	b = append(b, 0xa1, 0x64)
	b = append(b, "data"...)
	b = append(b, 0x79) // a text string, two bytes of length
	b = binary.BigEndian.AppendUint16(b, uint16(len(data)))
	return append(b, data...)
}

// A CBOR stream of small events holds a small buffer; an event larger
// than it grows the buffer to hold it.
func TestCBORStreamBufferSizedByEvents(t *testing.T) {
	small := cborEvent("widget-00001")
	c := NewCBORStream(bytes.NewReader(bytes.Repeat(small, 500)), StreamOptions{})
	for range 500 {
		if typ, _, err := c.Next(); err != nil || typ != "MODIFIED" {
			t.Fatalf("event %q, %v", typ, err)
		}
	}
	if got := cap(c.buf); got > 4<<10 {
		t.Errorf("buffer of %d bytes for events of %d bytes, want at most 4 KiB", got, len(small))
	}

	large := cborEvent(string(bytes.Repeat([]byte("x"), 20<<10)))
	stream := bytes.Join([][]byte{small, small, large, small}, nil)
	c = NewCBORStream(iotest.OneByteReader(bytes.NewReader(stream)), StreamOptions{})
	var sizes []int
	for {
		_, obj, err := c.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		sizes = append(sizes, len(obj))
	}
	if len(sizes) != 4 || sizes[2] < 20<<10 {
		t.Fatalf("object sizes %v, want four with the third over 20 KiB", sizes)
	}
	if got := cap(c.buf); got < 20<<10 || got > 64<<10 {
		t.Errorf("buffer of %d bytes after a 20 KiB event, want 20-64 KiB", got)
	}
}
