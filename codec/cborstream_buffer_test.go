package codec

import (
	"bytes"
	"encoding/binary"
	"io"
	"slices"
	"strconv"
	"strings"
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

// After an event larger than what a stream keeps (maxRetained), the
// stream goes back to a small buffer, and the events after it read
// whole, at the right offsets.
func TestCBORStreamDropsLargeBuffer(t *testing.T) {
	small := cborEvent("widget-00001")
	large := []byte{0xa2, 0x64}
	large = append(large, "type"...)
	large = append(large, 0x65)
	large = append(large, "ADDED"...)
	large = append(large, 0x66)
	large = append(large, "object"...)
	large = append(large, 0x7a) // a text string, four bytes of length
	large = binary.BigEndian.AppendUint32(large, 3<<20)
	large = append(large, bytes.Repeat([]byte("x"), 3<<20)...)
	stream := bytes.Join([][]byte{small, large, small, small, []byte{0xff}}, nil)
	c := NewCBORStream(iotest.HalfReader(bytes.NewReader(stream)), StreamOptions{})
	var types []string
	for range 4 {
		typ, _, err := c.Next()
		if err != nil {
			t.Fatal(err)
		}
		types = append(types, typ)
	}
	if want := []string{"MODIFIED", "ADDED", "MODIFIED", "MODIFIED"}; !slices.Equal(types, want) {
		t.Errorf("types %q, want %q", types, want)
	}
	if got := len(c.buf); got > maxRetained {
		t.Errorf("buffer of %d bytes kept after the large event", got)
	}
	// The stray byte after the last event is reported at its offset.
	_, _, err := c.Next()
	if err == nil || !strings.Contains(err.Error(), strconv.Itoa(len(stream)-1)) {
		t.Errorf("after the events: %v, want an error at offset %d", err, len(stream)-1)
	}
}
