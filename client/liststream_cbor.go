package client

import (
	"fmt"
	"io"
	"math"

	"github.com/kubewire/kubewire/api/cborwire"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/codec"
	"github.com/kubewire/kubewire/internal/cborwalk"
)

// streamCBORList reads a CBOR list answer from body (kube-apiserver's
// application/cbor: a map whose keys come in any order, items a definite
// or indefinite array), handing each item to each as soon as its bytes
// have arrived. It holds one item's bytes and a read buffer.
func (r *Resource[T]) streamCBORList(req *request, body io.Reader, opts ListOptions, each func(T) error) (metav1.ListMeta, error) {
	var meta metav1.ListMeta
	var apiVersion, kind string
	var status listStatus
	s := &cborListStream{s: jsonStream{r: body, limit: r.c.maxBody}}
	dec := cborwire.NewDecoder(nil, opts.Decoder) // one for every item
	seen := make(map[string]bool, 4)              // a key met twice is refused, as the one-pass decoder does
	err := s.mapEntries("list", func(key string) error {
		if seen[key] {
			return fmt.Errorf("invalid CBOR list: map with a duplicate key %q: %w", key, codec.ErrMalformed)
		}
		seen[key] = true
		switch key {
		case "items":
			if err := r.checkKindBeforeItems(apiVersion, kind); err != nil {
				return err
			}
			return s.arrayItems(func(item []byte) error {
				obj := r.newObj()
				if len(item) != 1 || item[0] != 0xf6 { // null is an empty object, as in List
					if err := codec.DecodeCBORReusing(dec, item, obj); err != nil {
						return err
					}
				}
				return each(obj)
			})
		case "metadata":
			v, err := s.item()
			if err != nil {
				return err
			}
			return cborwire.Decode(v, &meta, nil)
		case "apiVersion", "kind":
			v, err := s.item()
			if err != nil {
				return err
			}
			str, err := cborString(v)
			if key == "kind" {
				kind = str
			} else {
				apiVersion = str
			}
			return err
		}
		v, err := s.item()
		status.keep(key, v)
		return err
	})
	if err == nil {
		err = s.end()
	}
	if err != nil {
		return meta, decodeError(req, err)
	}
	if kind == "Status" {
		return meta, decodeError(req, status.cborError(meta))
	}
	if err := r.checkKind(apiVersion, kind, true); err != nil {
		return meta, requestError(req, nil, err)
	}
	return meta, nil
}

// cborListStream reads one CBOR item from a stream, a part at a time,
// through a jsonStream's buffer and bounds.
type cborListStream struct {
	s jsonStream
	// walk finds where the item at s.pos ends, going on from one read
	// to the next: an item arriving in small reads costs one walk over
	// its bytes, and is handed over as soon as its last byte is there.
	walk cborwalk.Walk
}

// need makes at least n bytes available at s.pos.
func (c *cborListStream) need(n int) error {
	for len(c.s.buf)-c.s.pos < n {
		if _, err := c.s.more(c.s.pos); err != nil {
			return err
		}
	}
	return nil
}

// item consumes the next whole item and returns its bytes, valid until
// the next call.
func (c *cborListStream) item() ([]byte, error) {
	if b, err := c.scan(); b != nil || err != nil {
		return b, err // most items are buffered whole already
	}
	c.walk.Reset()
	for {
		if len(c.s.buf) > c.s.pos {
			if c.walk.Advance(c.s.buf[c.s.pos:]) {
				if b, err := c.scan(); b != nil || err != nil {
					return b, err
				}
			}
			if c.s.limit >= 0 && c.walk.Least() > uint64(c.s.limit-c.offset()) {
				// Declared past the body's limit: refused now, not waited for.
				return nil, errTooLarge(c.s.limit)
			}
		}
		if _, err := c.s.more(c.s.pos); err != nil {
			if len(c.s.buf) > c.s.pos { // the last bytes read may end the item
				if b, serr := c.scan(); b != nil || serr != nil {
					return b, serr
				}
			}
			return nil, err
		}
	}
}

// scan consumes the item at s.pos if all of it is buffered, checked to
// be well formed, and returns nil, nil when more is needed.
func (c *cborListStream) scan() ([]byte, error) {
	n, err := cborwire.ItemEnd(c.s.buf[c.s.pos:])
	if err != nil || n == 0 {
		return nil, err
	}
	b := c.s.buf[c.s.pos : c.s.pos+n]
	c.s.pos += n
	return b, nil
}

// head consumes the next head that is not a tag: its major type, its
// argument, and whether its length is indefinite. With selfDescribed,
// the only tag it takes is the self-described one, as at the head of
// an object.
func (c *cborListStream) head(selfDescribed bool) (major byte, arg uint64, indefinite bool, err error) {
	for {
		h, size, complete := cborwire.ReadHead(c.s.buf[c.s.pos:])
		for !complete { // the first byte gives the size; then it is all there
			if err := c.need(size); err != nil {
				return 0, 0, false, err
			}
			h, size, complete = cborwire.ReadHead(c.s.buf[c.s.pos:])
		}
		if h.Reserved() {
			return 0, 0, false, fmt.Errorf("invalid CBOR list: reserved additional information at byte %d: %w", c.offset(), codec.ErrMalformed)
		}
		major, arg, indefinite = h.Major, h.Arg, h.Indefinite()
		c.s.pos += size
		if (major == 4 || major == 5) && !indefinite && c.s.limit >= 0 {
			// Each element takes a byte at least: a count past the
			// body's limit is refused now, before any item is handed over.
			least := arg
			if major == 5 {
				least = min(arg, math.MaxUint64/2) * 2
			}
			if least > uint64(c.s.limit-c.offset()) {
				return 0, 0, false, errTooLarge(c.s.limit)
			}
		}
		if major != 6 { // tags (the self-described one) carry nothing here
			return major, arg, indefinite, nil
		}
		if selfDescribed && arg != cborwire.TagSelfDescribed {
			return 0, 0, false, fmt.Errorf("invalid CBOR list: tag %d at byte %d: %w", arg, c.offset()-int64(size), codec.ErrMalformed)
		}
	}
}

// end checks that nothing follows the list, reading a little of what
// does so that the connection can be used again.
func (c *cborListStream) end() error {
	rest, _ := io.Copy(io.Discard, io.LimitReader(c.s.r, 4<<10))
	if rest > 0 || c.s.pos < len(c.s.buf) {
		return fmt.Errorf("invalid CBOR list: data after the list at byte %d: %w", c.offset(), codec.ErrMalformed)
	}
	return nil
}

// offset is the stream offset of s.pos.
func (c *cborListStream) offset() int64 { return c.s.read - int64(len(c.s.buf)-c.s.pos) }

// atBreak consumes the break ending an indefinite container, if it is next.
func (c *cborListStream) atBreak() (bool, error) {
	if err := c.need(1); err != nil {
		return false, err
	}
	if c.s.buf[c.s.pos] == 0xff {
		c.s.pos++
		return true, nil
	}
	return false, nil
}

// mapEntries reads a map, calling entry with each key; entry must
// consume the value.
func (c *cborListStream) mapEntries(what string, entry func(key string) error) error {
	major, n, indefinite, err := c.head(true)
	if err != nil {
		return err
	}
	if major != 5 {
		return fmt.Errorf("invalid CBOR %s: major type %d where a map was expected: %w", what, major, codec.ErrMalformed)
	}
	for i := uint64(0); indefinite || i < n; i++ {
		if indefinite {
			if end, err := c.atBreak(); end || err != nil {
				return err
			}
		}
		k, err := c.item()
		if err != nil {
			return err
		}
		key, err := cborMapKey(k)
		if err != nil {
			return err
		}
		if err := entry(key); err != nil {
			return err
		}
	}
	return nil
}

// arrayItems reads an array (null: no items), calling each with every
// element's bytes.
func (c *cborListStream) arrayItems(each func(item []byte) error) error {
	if err := c.need(1); err != nil {
		return err
	}
	if c.s.buf[c.s.pos] == 0xf6 {
		c.s.pos++
		return nil
	}
	major, n, indefinite, err := c.head(false)
	if err != nil {
		return err
	}
	if major != 4 {
		return fmt.Errorf("invalid CBOR list: items of major type %d, want an array: %w", major, codec.ErrMalformed)
	}
	for i := uint64(0); indefinite || i < n; i++ {
		if indefinite {
			if end, err := c.atBreak(); end || err != nil {
				return err
			}
		}
		item, err := c.item()
		if err != nil {
			return err
		}
		if err := each(item); err != nil {
			return err
		}
	}
	return nil
}

// cborMapKey decodes a map key: a text or byte string, as List's
// decoder takes; null or undefined, which cborString lets through as "",
// is refused there, so here too.
func cborMapKey(b []byte) (string, error) {
	d := cborwire.NewDecoder(b, nil)
	s, ok := d.StringBytes("map key")
	if !ok {
		if err := d.Err(); err != nil {
			return "", err
		}
		return "", fmt.Errorf("invalid CBOR list: map key is not a string: %w", codec.ErrMalformed)
	}
	return string(s), d.End()
}

// cborString decodes a text or byte string item (null: "").
func cborString(b []byte) (string, error) {
	d := cborwire.NewDecoder(b, nil)
	s, ok := d.StringBytes("string")
	if !ok {
		return "", d.Err()
	}
	return string(s), d.End()
}
