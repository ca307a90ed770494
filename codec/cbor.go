package codec

import (
	"errors"
	"fmt"
	"io"

	"github.com/kubewire/kubewire/api/cborwire"
	"github.com/kubewire/kubewire/api/wire"
	"github.com/kubewire/kubewire/internal/cborwalk"
)

// CBOR (KEP-4222): kube-apiserver serves custom resources as CBOR when
// started with the CBORServingAndStorage feature gate (alpha through
// v1.36), to clients that offer application/cbor; watch streams are CBOR
// sequences (application/cbor-seq), events one after another.

// Media types of CBOR.
const (
	MediaTypeCBOR         = "application/cbor"
	MediaTypeCBORSequence = "application/cbor-seq"
)

// IsCBOR reports whether m is application/cbor.
func (m MediaType) IsCBOR() bool { return m.Type == "application" && m.Subtype == "cbor" }

// IsCBORSequence reports whether m is application/cbor-seq, the media
// type of a CBOR watch stream.
func (m MediaType) IsCBORSequence() bool { return m.Type == "application" && m.Subtype == "cbor-seq" }

// DecodeCBOR decodes a CBOR body into v: through v's generated DecodeCBOR
// method when it has one (Unstructured, the types of api/meta/v1, and the
// types kubewire-gen writes), in one pass; otherwise through its JSON
// decoder, after transcoding the body to JSON. Both give the values the
// JSON of the same object gives. Errors match ErrMalformed.
func DecodeCBOR(body []byte, v any) error { return DecodeCBORWith(nil, body, v) }

// DecodeCBORWith is DecodeCBOR interning strings, and sharing values
// when table is ReadOnly, through table (which may be nil).
func DecodeCBORWith(table *wire.Decoder, body []byte, v any) error {
	if err := checkCBORHead(body); err != nil {
		return err
	}
	if dv, ok := v.(cborwire.Decodable); ok {
		return cborError(cborwire.Decode(body, dv, table), v)
	}
	js, err := cborwire.ToJSON(body)
	if err != nil {
		return cborError(err, v)
	}
	return DecodeJSONWith(table, js, v)
}

// DecodeCBORReusing is DecodeCBORWith through d, which keeps its table
// and scratch buffers from one object to the next (the items of a list
// read as it arrives); d must not be in use elsewhere.
func DecodeCBORReusing(d *cborwire.Decoder, body []byte, v any) error {
	dv, ok := v.(cborwire.Decodable)
	if !ok {
		return DecodeCBORWith(d.Table, body, v)
	}
	if err := checkCBORHead(body); err != nil {
		return err
	}
	d.Reset(body)
	d.SetErr(dv.DecodeCBOR(d))
	return cborError(d.End(), v)
}

// checkCBORHead refuses an object whose first item is tagged with
// anything but the self-described tag: kube-apiserver tags every object
// with 55799 alone, and the decoders skip tags, so a body under another
// tag (a wrong magic number, a date, a bignum) would otherwise decode as
// if the tag were not there.
func checkCBORHead(b []byte) error {
	p := 0
	for p+3 <= len(b) && b[p] == 0xd9 && b[p+1] == 0xd9 && b[p+2] == 0xf7 {
		p += 3
	}
	if p < len(b) && b[p]>>5 == 6 {
		return malformed("cbor", int64(p), nil, "an object under a tag other than the self-described tag 55799 (head byte 0x%02x)", b[p])
	}
	return nil
}

// cborError turns a cborwire error into a malformed error.
func cborError(err error, v any) error {
	var syn *cborwire.SyntaxError
	var typ *cborwire.TypeError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &syn):
		return malformed("cbor", syn.Offset, err, "invalid CBOR")
	case errors.As(err, &typ):
		return malformed("cbor", typ.Offset, err, "cannot decode into %s", typeName(v))
	}
	return malformed("cbor", -1, err, "cannot decode into %s", typeName(v))
}

// EncodeCBOR returns the CBOR of v as a request body: v's JSON (see
// EncodeJSON) written as CBOR (see cborwire.FromJSON), the self-described
// tag first.
func EncodeCBOR(v any) ([]byte, error) {
	js, err := EncodeJSON(v)
	if err != nil {
		return nil, err
	}
	b, err := cborwire.FromJSON(js)
	if err != nil {
		return nil, fmt.Errorf("codec: encode cbor: %w", err)
	}
	return b, nil
}

// initialCBORBuffer is a CBORStream's first buffer, doubled while an
// event does not fit: an informer of small objects holds 4 KiB for its
// watch, not a guess made for large ones (see initialJSONBuffer).
const initialCBORBuffer = 4 << 10

// CBORStream splits a CBOR watch stream (application/cbor-seq) into its
// events, maps of the form {"type": "ADDED", "object": {...}} with their
// keys in any order. A CBORStream is not safe for concurrent use.
type CBORStream struct {
	r      io.Reader
	max    int
	buf    []byte
	pos    int           // start of unread data in buf
	end    int           // end of data in buf
	offset int64         // stream offset of buf[0]
	eof    bool          // r returned io.EOF: what is buffered is all there is
	err    error         // sticky
	walk   cborwalk.Walk // over the event at pos, from one read to the next
}

// NewCBORStream returns a CBORStream reading from r. StreamOptions.MaxSize
// bounds one event, its wrapper included.
func NewCBORStream(r io.Reader, opts StreamOptions) *CBORStream {
	return &CBORStream{r: r, max: opts.maxSize()}
}

// Next returns the next event's type and its object's CBOR bytes (its
// tag included), which alias the stream's buffer until the next call. At
// the end of the stream, between events, it returns io.EOF. Malformed
// events, events without a string "type" or with no "object", and events
// over the size limit (ErrTooLarge) are errors matching ErrMalformed;
// after an error, Next returns it again.
func (c *CBORStream) Next() (eventType string, object []byte, err error) {
	if c.err != nil {
		return "", nil, c.err
	}
	eventType, object, err = c.next()
	if err != nil {
		c.err = err
	}
	return eventType, object, err
}

func (c *CBORStream) next() (string, []byte, error) {
	// Past a large event, move what is left to a small buffer, so that
	// one large event does not hold its buffer for the stream's life.
	if rest := c.end - c.pos; len(c.buf) > maxRetained && rest <= maxRetained/2 {
		nb := make([]byte, max(2*rest, initialCBORBuffer))
		copy(nb, c.buf[c.pos:c.end])
		c.offset += int64(c.pos)
		c.buf, c.pos, c.end = nb, 0, rest
	}
	empty := 0
	for {
		if have := c.end - c.pos; have > 0 {
			// The walk goes on from the last read: the full check runs
			// once the event's end is there (or the walk cannot tell).
			if c.walk.Advance(c.buf[c.pos:c.end]) || c.eof || have > c.max {
				n, err := cborwire.ItemEnd(c.buf[c.pos:c.end])
				if err != nil {
					return "", nil, malformed("cbor watch event", c.offset+int64(c.pos), err, "malformed event")
				}
				if n > 0 {
					if n > c.max {
						return "", nil, malformed("cbor watch event", c.offset+int64(c.pos), ErrTooLarge, "event of %d bytes, over the limit of %d bytes", n, c.max)
					}
					c.walk.Reset()
					ev := c.buf[c.pos : c.pos+n]
					at := c.offset + int64(c.pos)
					c.pos += n
					return splitCBOREvent(ev, at)
				}
			}
			if have > c.max {
				return "", nil, malformed("cbor watch event", c.offset+int64(c.pos), ErrTooLarge, "event longer than the limit of %d bytes", c.max)
			}
			if c.walk.Least() > uint64(c.max) {
				return "", nil, malformed("cbor watch event", c.offset+int64(c.pos), ErrTooLarge, "event declaring at least %d bytes, over the limit of %d bytes", c.walk.Least(), c.max)
			}
		}
		if c.eof {
			if c.pos == c.end {
				return "", nil, io.EOF
			}
			return "", nil, malformed("cbor watch event", c.offset+int64(c.end), io.ErrUnexpectedEOF, "stream ended in the middle of an event")
		}
		// Read more: keep the unread part at the start of the buffer.
		if c.pos > 0 {
			c.offset += int64(c.pos)
			c.end = copy(c.buf, c.buf[c.pos:c.end])
			c.pos = 0
		}
		if c.end == len(c.buf) {
			size := max(initialCBORBuffer, 2*len(c.buf))
			size = min(size, c.max+1)
			if size <= len(c.buf) {
				return "", nil, malformed("cbor watch event", c.offset, ErrTooLarge, "event longer than the limit of %d bytes", c.max)
			}
			grown := make([]byte, size)
			copy(grown, c.buf[:c.end])
			c.buf = grown
		}
		n, err := c.r.Read(c.buf[c.end:])
		c.end += n
		switch {
		case err == io.EOF: // the bytes read with it may end an event
			c.eof = true
		case err != nil:
			return "", nil, fmt.Errorf("codec: reading the watch stream: %w", err)
		case n == 0:
			if empty++; empty >= maxEmptyReads {
				return "", nil, io.ErrNoProgress
			}
		default:
			empty = 0
		}
	}
}

// splitCBOREvent finds the type and the object of an event (a well
// formed item, checked by ItemEnd).
func splitCBOREvent(ev []byte, at int64) (string, []byte, error) {
	d := cborwire.NewDecoder(ev, nil)
	n, ok := d.OpenMap("watch event")
	var typ, kind string
	var object []byte
	sawType, sawKind := false, false
	var unknown cborwire.UnknownKeys // a key met twice is refused, known or not
	for i := 0; ok && d.NextKey(i, n); i++ {
		switch string(d.Key()) {
		case "type":
			if sawType { // CBOR decoders of the API (client-go's too) refuse duplicate keys
				return "", nil, malformed("cbor watch event", at, nil, "event with two types")
			}
			sawType = true
			b, isString := d.StringBytes("string")
			if !isString {
				return "", nil, malformed("cbor watch event", at, nil, "event type is not a string")
			}
			typ = eventTypeString(b)
		case "object":
			if object != nil {
				return "", nil, malformed("cbor watch event", at, nil, "event with two objects")
			}
			object = d.Raw()
			if err := checkCBORHead(object); err != nil {
				return "", nil, malformed("cbor watch event", at, err, "malformed event object")
			}
		case "kind": // only a Status in place of an event has one
			if sawKind {
				return "", nil, malformed("cbor watch event", at, nil, "event with two kinds")
			}
			sawKind = true
			if d.NextKind() == cborwire.KindString {
				b, _ := d.StringBytes("string")
				kind = string(b)
			} else {
				d.Skip()
			}
		default:
			d.SkipUnknown(&unknown)
		}
	}
	if err := d.Err(); err != nil {
		return "", nil, malformed("cbor watch event", at, err, "malformed event")
	}
	if typ == "" && object == nil && kind == "Status" {
		return EventError, ev, nil // a Status in place of an event: the server's error
	}
	if typ == "" || object == nil {
		return "", nil, malformed("cbor watch event", at, nil, "event without a type or an object")
	}
	return typ, object, nil
}
