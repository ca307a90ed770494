package client

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"

	"github.com/kubewire/kubewire/codec"
)

// bufferingTransport reads every answer whole before handing it on, so
// that a connection that breaks while the body arrives is an error of the
// round trip, which the retry loop (go-retryablehttp) sees and repeats
// for safe requests, like a failed dial. Watches do not go through it.
//
// A 2xx body is read whole, starting in a recycled buffer, and never past
// limit (Config.MaxResponseBytes): an answer over it fails with an error
// matching codec.ErrTooLarge, which is final (the retry loop does not
// repeat it), after costing at most limit bytes of memory, a gzip bomb
// included (decompression happens as it is read); see readBounded. An
// error answer is read up to maxErrorBody: a Status is a few hundred
// bytes, and only its start goes into the error.
type bufferingTransport struct {
	limit  int64 // negative: none
	bodies *bodyBuffers
	next   http.RoundTripper
}

func (t *bufferingTransport) CloseIdleConnections() { closeIdle(t.next) }

// maxErrorBody bounds what is read of a non-2xx answer's body.
const maxErrorBody = 64 << 10

// maxBodyPrealloc bounds the buffer allocated up front for a body from its
// Content-Length, which a server could overstate.
const maxBodyPrealloc = 8 << 20

func (t *bufferingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.next.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		defer resp.Body.Close()
		// Only the start of an error answer is wanted, and a broken one
		// is still an answer.
		data, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
		resp.Body = &bufferedBody{Reader: bytes.NewReader(data), owner: t.bodies}
		resp.ContentLength = int64(len(data))
		return resp, nil
	}
	if streamed(req.Context()) {
		return resp, nil // the caller reads it as it arrives (doStream)
	}
	defer resp.Body.Close()
	buf := t.bodies.get()
	data, err := readBounded(resp.Body, t.limit, resp.ContentLength, buf.b[:0])
	if err != nil {
		t.bodies.put(buf)
		return nil, fmt.Errorf("reading the response: %w", brokenOff(err))
	}
	buf.b = data
	resp.Body = &bufferedBody{Reader: bytes.NewReader(data), buf: buf, owner: t.bodies}
	resp.ContentLength = int64(len(data))
	return resp, nil
}

// bufferedBody is an answer read whole. Closing it recycles its buffer,
// unless take handed the buffer to the caller first.
type bufferedBody struct {
	*bytes.Reader
	buf   *bodyBuf // nil: not recycled
	owner *bodyBuffers
}

func (b *bufferedBody) Close() error {
	if b.buf != nil {
		b.owner.put(b.buf)
		b.buf = nil
	}
	return nil
}

// take returns the body's bytes and the buffer holding them (nil when not
// recycled), which the caller now owns and releases when done.
func (b *bufferedBody) take() ([]byte, *bodyBuf) {
	buf := b.buf
	b.buf = nil
	if buf == nil {
		data, _ := io.ReadAll(b.Reader)
		return data, nil
	}
	return buf.b, buf
}

// errTooLarge is the error for a body over limit bytes.
func errTooLarge(limit int64) error {
	return fmt.Errorf("the body is larger than %d bytes (Config.MaxResponseBytes): %w", limit, codec.ErrTooLarge)
}

// readBounded reads r to its end and returns its bytes, starting in buf
// (a recycled buffer; the result may be another one). It fails with an
// error matching codec.ErrTooLarge as soon as it is known that there are
// more than limit bytes (at once when length, the Content-Length, says
// so). A negative limit means none; length is -1 when unknown.
//
// The body is read into pieces that never hold more than limit+1 bytes
// together and are never copied while it is read, each about as large
// as all before it: a body over the bound has cost at most the bound in
// memory when it is refused, however it grew (a gzip bomb included). A
// body that fills more than one piece is joined into one slice at its
// end, so a body of n bytes takes up to about 2n while it is read, and n
// when the server sent its Content-Length.
func readBounded(r io.Reader, limit, length int64, buf []byte) ([]byte, error) {
	if limit >= 0 && length > limit {
		return nil, errTooLarge(limit)
	}
	if length >= 0 && int64(cap(buf)) < length+1 {
		// +1: the read that sees EOF needs room. A Content-Length can
		// overstate; past maxBodyPrealloc the pieces grow as bytes come.
		buf = make([]byte, 0, min(length, maxBodyPrealloc)+1)
	}
	var pieces [][]byte // full, before buf
	var before int64    // bytes in pieces
	for {
		if len(buf) == cap(buf) {
			size := max(before+int64(len(buf)), 4096)
			if limit >= 0 {
				size = min(size, limit+1-before-int64(len(buf))) // at least 1: not over limit yet
			}
			pieces = append(pieces, buf)
			before += int64(len(buf))
			buf = make([]byte, 0, size)
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if limit >= 0 && before+int64(len(buf)) > limit {
			return nil, errTooLarge(limit)
		}
		if errors.Is(err, io.EOF) {
			return join(pieces, buf, before), nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// join returns pieces followed by last as one slice.
func join(pieces [][]byte, last []byte, size int64) []byte {
	if len(pieces) == 0 {
		return last
	}
	out := make([]byte, 0, size+int64(len(last)))
	for _, p := range pieces {
		out = append(out, p...)
	}
	return append(out, last...)
}
