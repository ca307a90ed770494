package codec

import (
	"encoding/json"
	"fmt"
	"io"
	"unicode/utf8"
)

// Watch event types, as kube-apiserver writes them.
const (
	EventAdded    = "ADDED"
	EventModified = "MODIFIED"
	EventDeleted  = "DELETED"
	EventBookmark = "BOOKMARK"
	EventError    = "ERROR"
)

// initialJSONBuffer is a JSONStream's first buffer: a few small events
// per read. It grows to twice an event that does not fit, so that it is
// sized by the largest event seen (up to maxRetained), not by a guess an
// informer of small objects pays for as long as its watch is open (16
// KiB was ~16 bytes an object in a cache of a thousand).
const initialJSONBuffer = 4 << 10

// maxEmptyReads is how many (0, nil) reads in a row are taken as a broken
// reader, as in bufio.
const maxEmptyReads = 100

// JSONStream splits a JSON watch stream (Content-Type application/json on
// a watch request) into its events, documents of the form
// {"type": "ADDED", "object": {...}}, separated by optional whitespace.
//
// It finds each document's end, validates its syntax, and locates its
// "type" and "object" members in a single pass over the bytes, without
// decoding or copying the object: encoding/json's Decoder, and client-go,
// scan an event once to find its end and again to take it apart, and copy
// the object out. The object is then decoded once, by the caller.
//
// A JSONStream is not safe for concurrent use.
type JSONStream struct {
	r      io.Reader
	max    int
	buf    []byte
	pos    int   // start of unread data in buf
	end    int   // end of data in buf
	offset int64 // stream offset of buf[0]
	sc     jsonScanner
	err    error // sticky
}

// NewJSONStream returns a JSONStream reading from r. StreamOptions.MaxSize
// bounds one whole document, the event wrapper included.
func NewJSONStream(r io.Reader, opts StreamOptions) *JSONStream {
	return &JSONStream{r: r, max: opts.maxSize()}
}

// Next returns the next event's type and its object's JSON bytes. At the
// end of the stream, between documents, it returns io.EOF.
//
// The type is one of the Event constants when the server sent one of
// those (with no allocation), or any other string it sent. The object is
// syntactically valid JSON: an object for every event kube-apiserver
// sends, including ERROR, whose object is a Status. It aliases the
// stream's buffer and is valid only until the next call to Next: decode
// or copy it before calling Next again.
//
// Errors: a document that is not valid JSON, is not an object, lacks
// "type" or "object", or has a "type" that is not a string gives an error
// matching ErrMalformed, with the stream offset of the problem; one that
// ends early also matches io.ErrUnexpectedEOF; one longer than the limit
// matches ErrTooLarge, after reading at most the limit. Errors from the
// underlying reader are wrapped and keep their identity. After an error,
// Next returns it again.
func (j *JSONStream) Next() (eventType string, object []byte, err error) {
	if j.err != nil {
		return "", nil, j.err
	}
	eventType, object, err = j.next()
	if err != nil {
		j.err = err
		return "", nil, err
	}
	return eventType, object, nil
}

func (j *JSONStream) next() (string, []byte, error) {
	// Past a large event, move what is left to a small buffer.
	if rest := j.end - j.pos; cap(j.buf) > maxRetained && rest <= maxRetained/2 {
		nb := make([]byte, max(2*rest, initialJSONBuffer))
		copy(nb, j.buf[j.pos:j.end])
		j.offset += int64(j.pos)
		j.buf, j.pos, j.end = nb, 0, rest
	}
	// Skip whitespace before the document, dropping it from the buffer.
	for {
		for j.pos < j.end && isJSONSpace(j.buf[j.pos]) {
			j.pos++
		}
		if j.pos < j.end {
			break
		}
		j.offset += int64(j.end)
		j.pos, j.end = 0, 0
		if err := j.fill(); err != nil {
			return "", nil, err
		}
	}
	j.sc.reset()
	scanned := 0 // bytes of the document scanned so far
	for {
		doc := j.buf[j.pos:j.end]
		n, status, serr := j.sc.scan(doc, scanned)
		if serr != nil {
			return "", nil, malformed("json watch event", j.offset+int64(j.pos+serr.at), nil, "%s", serr.msg)
		}
		if status == scanDone {
			if n > j.max {
				return "", nil, j.tooLarge()
			}
			j.pos += n
			return j.event(doc[:n])
		}
		scanned = n
		if scanned >= j.max {
			return "", nil, j.tooLarge()
		}
		if err := j.fill(); err != nil {
			if err == io.EOF {
				return "", nil, malformed("json watch event", j.offset+int64(j.end), io.ErrUnexpectedEOF,
					"stream ended inside an event that started at byte %d", j.offset+int64(j.pos))
			}
			return "", nil, err
		}
	}
}

// event takes the type and object out of a complete, valid document.
func (j *JSONStream) event(doc []byte) (string, []byte, error) {
	at := j.offset + int64(j.pos-len(doc))
	s := &j.sc
	if !s.haveType && !s.haveObj && isStatusJSON(doc) {
		return EventError, doc, nil // a Status in place of an event: the server's error
	}
	if !s.haveType {
		return "", nil, malformed("json watch event", at, nil, "the event has no \"type\"")
	}
	if !s.haveObj {
		return "", nil, malformed("json watch event", at, nil, "the event has no \"object\"")
	}
	var typ string
	raw := doc[s.typeStart:s.typeEnd]
	if s.typeEsc || !utf8.Valid(raw) {
		typ = unquote(raw) // as encoding/json would decode it
	} else {
		typ = eventTypeString(raw[1 : len(raw)-1])
	}
	if typ == "" {
		return "", nil, malformed("json watch event", at, nil, "the event's \"type\" is empty")
	}
	return typ, doc[s.objStart:s.objEnd:s.objEnd], nil
}

// isStatusJSON reports whether doc, a valid JSON document, is an
// object of kind Status.
func isStatusJSON(doc []byte) bool {
	var probe struct {
		Kind string `json:"kind"`
	}
	return DecodeJSON(doc, &probe) == nil && probe.Kind == "Status"
}

func (j *JSONStream) tooLarge() error {
	return malformed("json watch event", j.offset+int64(j.pos), ErrTooLarge,
		"event longer than the limit of %d bytes", j.max)
}

// fill reads more data after j.end, first making room when the buffer is
// full: it moves the current document to the front of the buffer, or
// grows the buffer (to twice the document so far, capped by the limit). It
// returns io.EOF at the end of the stream and other reader errors wrapped.
func (j *JSONStream) fill() error {
	if j.pos > 0 && j.end == cap(j.buf) {
		n := copy(j.buf, j.buf[j.pos:j.end])
		j.offset += int64(j.pos)
		j.pos, j.end = 0, n
	}
	if j.end == cap(j.buf) {
		size := max(2*(j.end-j.pos), initialJSONBuffer)
		size = min(size, j.max+1)
		size = max(size, j.end-j.pos+1)
		nb := make([]byte, size)
		n := copy(nb, j.buf[j.pos:j.end])
		j.offset += int64(j.pos)
		j.buf, j.pos, j.end = nb, 0, n
	}
	j.buf = j.buf[:cap(j.buf)]
	for range maxEmptyReads {
		n, err := j.r.Read(j.buf[j.end:])
		j.end += n
		if n > 0 {
			return nil
		}
		if err == io.EOF {
			return io.EOF
		}
		if err != nil {
			return fmt.Errorf("codec: read json watch stream at byte %d: %w", j.offset+int64(j.end), err)
		}
	}
	return fmt.Errorf("codec: read json watch stream: %w", io.ErrNoProgress)
}

func isJSONSpace(c byte) bool { return c == ' ' || c == '\n' || c == '\r' || c == '\t' }

// eventTypeString returns b as a string, without allocating for the
// event types kube-apiserver sends.
func eventTypeString(b []byte) string {
	switch string(b) {
	case EventAdded:
		return EventAdded
	case EventModified:
		return EventModified
	case EventDeleted:
		return EventDeleted
	case EventBookmark:
		return EventBookmark
	case EventError:
		return EventError
	}
	return string(b)
}

// unquote decodes a JSON string literal, quotes included. The scanner
// has validated it; should encoding/json disagree, the result is "", which
// matches no member name and fails the empty-type check.
func unquote(b []byte) string {
	var s string
	if json.Unmarshal(b, &s) != nil {
		return ""
	}
	return s
}
