package codec

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
)

// DefaultMaxEventSize bounds one watch event (a protobuf frame or a JSON
// document) when StreamOptions.MaxSize is 0: 16 MiB. It is the limit
// client-go's streaming decoder applies, so every event client-go accepts
// is accepted here, and it leaves ample room above what a server stores: an
// object in etcd is at most 1.5 MiB by default (--max-request-bytes) and
// kube-apiserver refuses request bodies over 3 MiB. A corrupt or hostile
// length prefix therefore costs at most 16 MiB per watch, never 4 GiB.
const DefaultMaxEventSize = 16 << 20

// Buffer policy of the stream readers: a reader keeps its buffer between
// events when it is at most maxRetained bytes, so the usual small events
// cost no allocation while one huge event is not held for the life of a
// long watch; a frame longer than exactStep is read in growing steps, so a
// length prefix that promises more than the stream sends costs at most
// twice what was sent.
const (
	maxRetained = 1 << 20
	exactStep   = 1 << 20
)

// StreamOptions configure a FrameReader or a JSONStream. The zero value
// gives the defaults.
type StreamOptions struct {
	// MaxSize is the largest event accepted, in bytes: a frame's payload
	// for a FrameReader, a whole JSON document for a JSONStream. Zero or a
	// negative value means DefaultMaxEventSize.
	MaxSize int
}

func (o StreamOptions) maxSize() int {
	if o.MaxSize <= 0 {
		return DefaultMaxEventSize
	}
	return o.MaxSize
}

// FrameReader splits a protobuf watch stream
// (Content-Type MediaTypeProtobufWatch) into frames: a 4-byte big-endian
// length followed by that many bytes, the payload, which is a
// meta/v1 WatchEvent message. FrameReader does not decode the payload.
//
// A FrameReader is not safe for concurrent use. It reads from r only in
// Next, and never more than the frame it returns.
type FrameReader struct {
	r      io.Reader
	max    int
	buf    []byte
	hdr    [4]byte
	offset int64 // bytes read from r so far
	err    error // sticky: once set, Next returns it
}

// NewFrameReader returns a FrameReader reading from r.
func NewFrameReader(r io.Reader, opts StreamOptions) *FrameReader {
	return &FrameReader{r: r, max: opts.maxSize()}
}

// Next returns the payload of the next frame. At the end of the stream,
// exactly between two frames, it returns io.EOF.
//
// The payload is valid only until the next call to Next, which may
// overwrite it: decode it (generated Unmarshal methods copy what they
// keep) or copy it before calling Next again.
//
// A stream that ends inside a frame gives an error matching both
// ErrMalformed and io.ErrUnexpectedEOF. A length above the limit gives one
// matching ErrMalformed and ErrTooLarge, before any payload is read or
// allocated. Errors from the underlying reader are wrapped but keep their
// identity (errors.Is(err, context.Canceled) still works). After any error
// Next returns the same error again.
func (f *FrameReader) Next() ([]byte, error) {
	if f.err != nil {
		return nil, f.err
	}
	p, err := f.next()
	if err != nil {
		f.err = err
		return nil, err
	}
	return p, nil
}

func (f *FrameReader) next() ([]byte, error) {
	start := f.offset
	n, err := io.ReadFull(f.r, f.hdr[:])
	f.offset += int64(n)
	switch {
	case err == io.EOF:
		return nil, io.EOF
	case err == io.ErrUnexpectedEOF:
		return nil, malformed("watch frame", start, io.ErrUnexpectedEOF,
			"stream ended after %d of the 4 length bytes", n)
	case err != nil:
		return nil, fmt.Errorf("codec: read watch frame at byte %d: %w", start, err)
	}
	size := binary.BigEndian.Uint32(f.hdr[:])
	if uint64(size) > uint64(f.max) {
		return nil, malformed("watch frame", start, ErrTooLarge,
			"frame of %d bytes, over the limit of %d bytes", size, f.max)
	}
	p, err := f.readPayload(int(size))
	f.offset += int64(len(p))
	if err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, malformed("watch frame", start, io.ErrUnexpectedEOF,
				"stream ended after %d of the frame's %d bytes", len(p), size)
		}
		return nil, fmt.Errorf("codec: read watch frame at byte %d: %w", start, err)
	}
	return p, nil
}

// readPayload reads n bytes into the reader's buffer, or into a new one
// grown as bytes arrive. It returns what it read, with an error when that
// is less than n.
func (f *FrameReader) readPayload(n int) ([]byte, error) {
	if n > cap(f.buf) && n <= exactStep {
		// Grow at least twofold so that frames of slowly rising size do
		// not each allocate.
		f.buf = make([]byte, max(n, min(2*cap(f.buf), maxRetained), 4096))
	}
	if n <= cap(f.buf) {
		b := f.buf[:n]
		m, err := io.ReadFull(f.r, b)
		return b[:m], err
	}
	b := make([]byte, 0, min(n, exactStep))
	for len(b) < n {
		if len(b) == cap(b) {
			nb := make([]byte, len(b), min(n, 2*cap(b)))
			copy(nb, b)
			b = nb
		}
		m, err := io.ReadFull(f.r, b[len(b):cap(b)])
		b = b[:len(b)+m]
		if err != nil {
			return b, err
		}
	}
	if cap(b) <= maxRetained {
		f.buf = b
	}
	return b, nil
}

// WriteFrame writes payload to w as one frame: its length as 4 big-endian
// bytes, then the payload. A payload of 4 GiB or more cannot be framed and
// is an error.
func WriteFrame(w io.Writer, payload []byte) error {
	if uint64(len(payload)) > math.MaxUint32 {
		return fmt.Errorf("codec: frame payload of %d bytes does not fit a 4-byte length", len(payload))
	}
	var hdr [4]byte
	binary.BigEndian.PutUint32(hdr[:], uint32(len(payload)))
	if _, err := w.Write(hdr[:]); err != nil {
		return fmt.Errorf("codec: write frame: %w", err)
	}
	if _, err := w.Write(payload); err != nil {
		return fmt.Errorf("codec: write frame: %w", err)
	}
	return nil
}
