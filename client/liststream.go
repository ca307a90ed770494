package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/kubewire/kubewire/api/jsonwire"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/codec"
)

// ErrNotStreamable is returned by ListStream, before any item was handed
// over, when the collection's answers are not JSON, CBOR or protobuf (a
// metadata or table view): list it in pages instead.
var ErrNotStreamable = errors.New("client: the list answer is not JSON, CBOR or protobuf; it cannot be decoded as it arrives")

// ListStream reads the whole collection in one unpaged answer and hands
// each item to each as soon as its bytes have arrived, in order, without
// holding the answer: memory holds one item's bytes and a read buffer,
// whatever the collection's size. It returns the list's metadata (its
// resourceVersion) once the answer has ended.
//
// kube-apiserver serves an unpaged list from its watch cache, a
// consistent one (ResourceVersion "") included, where the pages after the
// first of a paginated list are read from etcd once the cache has no
// snapshot at the list's resourceVersion (after etcd's history was
// compacted past the collection's last write, within minutes on a live
// cluster). A paginated list does not expire midway either.
//
// opts.Limit and opts.Continue must be empty. JSON, CBOR and protobuf
// answers are streamed (a protobuf list's items are length-delimited
// fields of its message, decoded one at a time as JSON and CBOR items
// are; its kind is checked before the first item). For a metadata or
// table view, or a type without generated protobuf code read as
// protobuf, ListStream returns an error matching ErrNotStreamable
// without a request, and when the server answers in another format it
// closes the answer and returns that error.
// A 406 to a protobuf or CBOR Accept is sent again asking for JSON, and
// the resource is read as JSON for a while, as for List.
// The answer counts against Config.MaxResponseBytes as a whole, and
// Config.Timeout bounds the whole read. The caller decides what to do
// after an error (items already handed over are then the caller's to discard). Error
// answers and failed connections before the answer are retried by the
// client's RetryPolicy, as for List; a connection lost while the answer
// is read is an error matching ErrConnectionLost. An error returned by
// each ends the read and is returned.
func (r *Resource[T]) ListStream(ctx context.Context, opts ListOptions, each func(T) error) (metav1.ListMeta, error) {
	var meta metav1.ListMeta
	if opts.Limit != 0 || opts.Continue != "" {
		return meta, invalidOptions("ListStream reads the whole collection: Limit and Continue must be empty")
	}
	if r.info.as != "" {
		return meta, ErrNotStreamable
	}
	if _, ok := any(r.newObj()).(protoObject); !ok && r.c.useProtobuf(&r.info) {
		return meta, ErrNotStreamable
	}
	p, err := r.collectionPath("list")
	if err != nil {
		return meta, err
	}
	q, err := opts.query()
	if err != nil {
		return meta, err
	}
	handOver := each
	items := 0
	each = func(obj T) error {
		if err := r.checkItemKind(items, obj.GetAPIVersion(), obj.GetKind()); err != nil {
			return err
		}
		if err := checkItemName(items, obj.GetName()); err != nil {
			return err
		}
		items++
		if err := r.checkNamespace(obj); err != nil {
			return err
		}
		return handOver(obj)
	}
	var cancel context.CancelFunc
	if r.c.timeout > 0 { // Config.Timeout bounds the whole read
		ctx, cancel = context.WithTimeout(ctx, r.c.timeout)
	} else {
		ctx, cancel = context.WithCancel(ctx)
	}
	defer cancel()
	req := &request{method: "GET", path: p, query: q}
	accept, binary := r.c.acceptFor(&r.info, "")
	req.accept = accept
	resp, err := r.c.doStream(ctx, req)
	if binary && errors.Is(err, ErrNotAcceptable) { // as negotiated does
		r.c.jsonOnly.refuse(r.info.gvr)
		r.c.Logger().Debug("client: server refused protobuf or CBOR; using JSON for this resource",
			"resource", r.info.gvr.String(), "accept", accept)
		req.accept = codec.AcceptFor(false, "")
		resp, err = r.c.doStream(ctx, req)
	}
	if err != nil {
		return meta, err
	}
	defer resp.Body.Close()
	contentType := resp.Header.Get("Content-Type")
	r.c.notedAnswer(&r.info, req.accept, contentType)
	mt, err := codec.ParseMediaType(contentType)
	switch {
	case err != nil || mt.IsWatchStream():
		return meta, ErrNotStreamable
	case mt.IsProtobuf():
		meta, err = r.streamProtoList(resp.Body, r.c.maxBody, opts.Decoder, each)
		if err != nil {
			return meta, decodeError(req, err)
		}
		return meta, nil
	case mt.IsCBOR():
		return r.streamCBORList(req, resp.Body, opts, each)
	case !mt.IsJSON():
		return meta, ErrNotStreamable
	}
	return r.streamJSONList(req, resp.Body, opts, each)
}

// streamJSONList reads a JSON list answer from body, handing each item to
// each as it arrives.
func (r *Resource[T]) streamJSONList(req *request, body io.Reader, opts ListOptions, each func(T) error) (metav1.ListMeta, error) {
	var meta metav1.ListMeta
	s := &jsonStream{r: body, limit: r.c.maxBody}
	var apiVersion, kind string
	var status listStatus
	sawItems := false
	err := s.object(func(key string) error {
		switch key {
		case "items":
			if sawItems { // handed over already; a decoder of the whole list keeps the last
				return fmt.Errorf("invalid JSON list: two items keys: %w", codec.ErrMalformed)
			}
			sawItems = true
			if err := r.checkKindBeforeItems(apiVersion, kind); err != nil {
				return err
			}
			return s.array(func(item []byte) error {
				obj := r.newObj()
				if err := codec.DecodeJSONWith(opts.Decoder, item, obj); err != nil {
					return err
				}
				return each(obj)
			})
		case "metadata":
			v, err := s.value()
			if err != nil {
				return err
			}
			return jsonwire.Decode(v, &meta, nil)
		case "apiVersion", "kind":
			v, err := s.value()
			if err != nil {
				return err
			}
			// null leaves the value a key met before gave, as List's decoder does.
			if key == "kind" {
				return json.Unmarshal(v, &kind)
			}
			return json.Unmarshal(v, &apiVersion)
		}
		v, err := s.value()
		if err != nil {
			return err
		}
		status.keep(key, v)
		// The scan found where the value ends; List's decoder also
		// checks what it holds.
		return jsonwire.Decode(v, skippedJSON{}, nil)
	})
	if err != nil {
		return meta, decodeError(req, err)
	}
	if err := s.end(); err != nil {
		return meta, decodeError(req, err)
	}
	if kind == "Status" {
		return meta, decodeError(req, status.jsonError(meta))
	}
	if err := r.checkKind(apiVersion, kind, true); err != nil {
		return meta, requestError(req, nil, err)
	}
	return meta, nil
}

// jsonStream reads one JSON document from r, a value at a time, without
// holding more of it than the value being read.
type jsonStream struct {
	r     io.Reader
	buf   []byte // buf[pos:] is read and not yet consumed
	pos   int
	read  int64 // bytes read from r
	limit int64 // bound on read; negative: none
	eof   bool
}

// skippedJSON checks a JSON value it does not keep.
type skippedJSON struct{}

func (skippedJSON) DecodeJSON(d *jsonwire.Decoder) error {
	d.Skip()
	return d.Err()
}

// end checks that only white space (a newline) follows the list, as
// List's decoder does, reading a little of it so that the connection
// can be used again.
func (s *jsonStream) end() error {
	offset := s.read - int64(len(s.buf)-s.pos)
	rest, _ := io.ReadAll(io.LimitReader(s.r, 4<<10))
	if len(bytes.TrimLeft(s.buf[s.pos:], " \t\r\n")) > 0 || len(bytes.TrimLeft(rest, " \t\r\n")) > 0 {
		return fmt.Errorf("invalid JSON list: data after the list at byte %d: %w", offset, codec.ErrMalformed)
	}
	return nil
}

// streamReadSize is the size of each read from the answer.
const streamReadSize = 64 << 10

// more reads into buf, keeping buf[keep:], which moves to buf's start;
// it returns the shift.
func (s *jsonStream) more(keep int) (int, error) {
	if s.eof {
		return 0, brokenOff(io.ErrUnexpectedEOF)
	}
	n := copy(s.buf, s.buf[keep:])
	s.buf = s.buf[:n]
	s.pos -= keep
	if cap(s.buf)-n < streamReadSize {
		grown := make([]byte, n, 2*cap(s.buf)+streamReadSize)
		copy(grown, s.buf)
		s.buf = grown
	}
	m, err := s.r.Read(s.buf[n:cap(s.buf)])
	s.buf = s.buf[:n+m]
	s.read += int64(m)
	if s.limit >= 0 && s.read > s.limit {
		return keep, errTooLarge(s.limit)
	}
	switch {
	case err == io.EOF:
		s.eof = true
		if m == 0 { // the answer ended within the list: it was cut
			return keep, brokenOff(io.ErrUnexpectedEOF)
		}
		return keep, nil
	case err != nil:
		return keep, brokenOff(err)
	}
	return keep, nil
}

// peek skips white space and returns the next byte, not consumed.
func (s *jsonStream) peek() (byte, error) {
	for {
		for s.pos < len(s.buf) {
			switch c := s.buf[s.pos]; c {
			case ' ', '\t', '\n', '\r':
				s.pos++
			default:
				return c, nil
			}
		}
		if _, err := s.more(s.pos); err != nil {
			return 0, err
		}
	}
}

// expect consumes the byte c after white space.
func (s *jsonStream) expect(c byte) error {
	got, err := s.peek()
	if err != nil {
		return err
	}
	if got != c {
		return fmt.Errorf("invalid JSON list: %q where %q was expected, at byte %d", got, c, s.read-int64(len(s.buf)-s.pos))
	}
	s.pos++
	return nil
}

// value consumes the next value and returns its bytes, valid until the
// next call.
func (s *jsonStream) value() ([]byte, error) {
	if _, err := s.peek(); err != nil {
		return nil, err
	}
	start := s.pos
	i := start
	depth, inString, escaped := 0, false, false
	for {
		for ; i < len(s.buf); i++ {
			c := s.buf[i]
			if inString {
				switch {
				case escaped:
					escaped = false
				case c == '\\':
					escaped = true
				case c == '"':
					inString = false
					if depth == 0 {
						s.pos = i + 1
						return s.buf[start:s.pos], nil
					}
				}
				continue
			}
			switch c {
			case '"':
				inString = true
			case '{', '[':
				depth++
			case '}', ']':
				if depth == 0 { // a scalar ended by its container
					s.pos = i
					return s.buf[start:i], nil
				}
				depth--
				if depth == 0 {
					s.pos = i + 1
					return s.buf[start:s.pos], nil
				}
			case ',', ' ', '\t', '\n', '\r':
				if depth == 0 {
					s.pos = i
					return s.buf[start:i], nil
				}
			}
		}
		shift, err := s.more(start)
		if err != nil {
			return nil, err
		}
		start -= shift
		i -= shift
	}
}

// object reads an object, calling field for each key; field consumes
// the key's value.
func (s *jsonStream) object(field func(key string) error) error {
	if err := s.expect('{'); err != nil {
		return err
	}
	for first := true; ; first = false {
		c, err := s.peek()
		if err != nil {
			return err
		}
		if c == '}' {
			s.pos++
			return nil
		}
		if !first {
			if err := s.expect(','); err != nil {
				return err
			}
		}
		k, err := s.value()
		if err != nil {
			return err
		}
		var key string
		if err := json.Unmarshal(k, &key); err != nil {
			return fmt.Errorf("invalid JSON list: key %.40q: %w", k, err)
		}
		if err := s.expect(':'); err != nil {
			return err
		}
		if err := field(key); err != nil {
			return err
		}
	}
}

// array reads an array (or null), calling elem with each element's bytes.
func (s *jsonStream) array(elem func([]byte) error) error {
	c, err := s.peek()
	if err != nil {
		return err
	}
	if c == 'n' {
		v, err := s.value()
		if err == nil && string(v) != "null" {
			err = fmt.Errorf("invalid JSON list: items is %.40q", v)
		}
		return err
	}
	if err := s.expect('['); err != nil {
		return err
	}
	for first := true; ; first = false {
		c, err := s.peek()
		if err != nil {
			return err
		}
		if c == ']' {
			s.pos++
			return nil
		}
		if !first {
			if err := s.expect(','); err != nil {
				return err
			}
		}
		v, err := s.value()
		if err != nil {
			return err
		}
		if err := elem(v); err != nil {
			return err
		}
	}
}
