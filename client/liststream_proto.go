package client

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/api/runtime"
	"github.com/kubewire/kubewire/api/wire"
	"github.com/kubewire/kubewire/codec"
	"google.golang.org/protobuf/encoding/protowire"
)

// A protobuf list answer is codec.ProtobufMagic and a runtime.Unknown:
// field 1 its TypeMeta, field 2 (raw) the list message, fields 3 and 4
// its content encoding and type. The list message of every kind has
// field 1 ListMeta and field 2 one item, repeated, each length-delimited.
// kube-apiserver writes them in that order, so the kind is known before
// any item and each item can be decoded as soon as its bytes are in.

// streamProtoList reads a protobuf list answer from body, handing each
// item to each as it arrives, through d (a new Decoder when nil).
func (r *Resource[T]) streamProtoList(body io.Reader, limit int64, d *wire.Decoder, each func(T) error) (metav1.ListMeta, error) {
	var meta metav1.ListMeta
	if d == nil {
		d = new(wire.Decoder)
	}
	if _, ok := any(r.newObj()).(protoObject); !ok {
		return meta, fmt.Errorf("cannot decode a protobuf list into %T: %w", r.newObj(), codec.ErrMalformed)
	}
	s := &protoStream{r: body, limit: limit}
	if err := s.fill(len(codec.ProtobufMagic)); err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) {
			return meta, codec.DecodeEnvelopeInto(nil, s.buf, new(runtime.Unknown)) // says what came instead
		}
		return meta, err
	}
	if got := s.unread(); !bytes.HasPrefix(got, []byte(codec.ProtobufMagic)) {
		return meta, codec.DecodeEnvelopeInto(nil, got, new(runtime.Unknown))
	}
	s.pos += len(codec.ProtobufMagic)
	var tm runtime.TypeMeta
	listSeen := false
	for {
		if end, err := s.atEnd(); err != nil || end {
			if err == nil && !listSeen {
				err = fmt.Errorf("the protobuf envelope holds no list: %w", codec.ErrMalformed)
			}
			return meta, err
		}
		num, typ, err := s.tag("Unknown")
		if err != nil {
			return meta, err
		}
		switch {
		case num == 1 && !listSeen:
			v, err := s.field("Unknown", num, typ, -1)
			if err != nil {
				return meta, err
			}
			// A second TypeMeta merges into the first, as List's envelope
			// decoder reads it: an apiVersion it lacks stays the first's.
			if err := tm.UnmarshalProto(d, v); err != nil {
				return meta, err
			}
		case num == 2 && !listSeen:
			listSeen = true
			if typ != protowire.BytesType {
				return meta, wire.WrongType("Unknown", num)
			}
			if err := r.streamListMessage(s, d, tm, &meta, each); err != nil {
				return meta, err
			}
		case num == 1 || num == 2:
			return meta, fmt.Errorf("the protobuf envelope has field %d after its list: %w", num, codec.ErrMalformed)
		case num == 3 || num == 4:
			v, err := s.field("Unknown", num, typ, -1)
			if err != nil {
				return meta, err
			}
			if ok := len(v) == 0 || (num == 4 && string(v) == codec.MediaTypeProtobuf); !ok {
				return meta, fmt.Errorf("the protobuf envelope's content %s is %.40q: %w",
					map[protowire.Number]string{3: "encoding", 4: "type"}[num], v, codec.ErrMalformed)
			}
		default:
			if err := s.skip("Unknown", num, typ); err != nil {
				return meta, err
			}
		}
	}
}

// streamListMessage reads the envelope's raw field, the list message of
// kind tm, into meta and each.
func (r *Resource[T]) streamListMessage(s *protoStream, d *wire.Decoder, tm runtime.TypeMeta, meta *metav1.ListMeta, each func(T) error) error {
	size, err := s.length("Unknown", 2)
	if err != nil {
		return err
	}
	if tm.Kind == "Status" { // a Status answered with a 2xx code
		v, err := s.bytes(size)
		if err != nil {
			return err
		}
		st := new(metav1.Status)
		if err := st.UnmarshalProto(d, v); err != nil {
			return err
		}
		st.Kind, st.APIVersion = "Status", "v1"
		return &codec.StatusError{Status: *st}
	}
	// The kind is checked before any item is handed over.
	if err := r.checkKind(tm.APIVersion, tm.Kind, true); err != nil {
		return err
	}
	itemKind := strings.TrimSuffix(tm.Kind, "List")
	end := s.offset() + int64(size)
	for s.offset() < end {
		num, typ, err := s.tag(tm.Kind)
		if err != nil {
			return err
		}
		switch num {
		case 1, 2:
			v, err := s.field(tm.Kind, num, typ, end)
			if err != nil {
				return err
			}
			if num == 1 {
				if err := meta.UnmarshalProto(d, v); err != nil {
					return err
				}
				continue
			}
			obj := r.newObj()
			if err := any(obj).(protoObject).UnmarshalProto(d, v); err != nil {
				return err
			}
			if m, ok := any(obj).(*metav1.PartialObjectMetadata); ok && m.Kind == "" {
				m.APIVersion, m.Kind = tm.APIVersion, itemKind // as List sets them
			}
			if err := each(obj); err != nil {
				return err
			}
		default:
			if err := s.skip(tm.Kind, num, typ); err != nil {
				return err
			}
		}
		if s.offset() > end {
			return fmt.Errorf("a field of the protobuf %s runs past its end: %w", tm.Kind, codec.ErrMalformed)
		}
	}
	return nil
}

// protoStream reads a protobuf answer a field at a time, holding no more
// of it than the field being read and one read's worth of bytes.
type protoStream struct {
	r     io.Reader
	buf   []byte // buf[pos:] is read and not yet consumed
	pos   int
	read  int64 // bytes read from r
	limit int64 // bound on read; negative: none
	eof   bool
}

func (s *protoStream) unread() []byte { return s.buf[s.pos:] }

// offset is the number of bytes of the answer consumed.
func (s *protoStream) offset() int64 { return s.read - int64(len(s.buf)-s.pos) }

// fill reads until n bytes are unread, moving them to buf's start first
// when room is needed. The buffer grows with the bytes that arrive, not
// with a length the answer claims. An answer that ends before is broken
// off (io.ErrUnexpectedEOF).
func (s *protoStream) fill(n int) error {
	for len(s.buf)-s.pos < n {
		if s.eof {
			return brokenOff(io.ErrUnexpectedEOF)
		}
		if s.pos > 0 {
			m := copy(s.buf, s.buf[s.pos:])
			s.buf, s.pos = s.buf[:m], 0
		}
		if cap(s.buf)-len(s.buf) < streamReadSize {
			grown := make([]byte, len(s.buf), 2*cap(s.buf)+streamReadSize)
			copy(grown, s.buf)
			s.buf = grown
		}
		m, err := s.r.Read(s.buf[len(s.buf):cap(s.buf)])
		s.buf = s.buf[:len(s.buf)+m]
		s.read += int64(m)
		if s.limit >= 0 && s.read > s.limit {
			return errTooLarge(s.limit)
		}
		switch {
		case err == io.EOF:
			s.eof = true
		case err != nil:
			return brokenOff(err)
		}
	}
	return nil
}

// atEnd reports whether the answer ended with every byte consumed.
func (s *protoStream) atEnd() (bool, error) {
	if s.pos < len(s.buf) {
		return false, nil
	}
	if err := s.fill(1); err != nil {
		if s.eof && s.pos == len(s.buf) {
			return true, nil
		}
		return false, err
	}
	return false, nil
}

// varint reads a varint of message msg's field num.
func (s *protoStream) varint(msg string, num protowire.Number) (uint64, error) {
	for {
		v, n := protowire.ConsumeVarint(s.unread())
		if n >= 0 {
			s.pos += n
			return v, nil
		}
		have := len(s.buf) - s.pos
		if have >= binaryMaxVarintLen { // not cut: too long
			return 0, wire.Error(msg, num, n)
		}
		if err := s.fill(have + 1); err != nil {
			return 0, err
		}
	}
}

// binaryMaxVarintLen is the longest varint.
const binaryMaxVarintLen = 10

// tag reads a field's tag.
func (s *protoStream) tag(msg string) (protowire.Number, protowire.Type, error) {
	v, err := s.varint(msg, 0)
	if err != nil {
		return 0, 0, err
	}
	num, typ := protowire.DecodeTag(v)
	if num < protowire.MinValidNumber || v>>3 > uint64(protowire.MaxValidNumber) {
		return 0, 0, fmt.Errorf("invalid field number in a protobuf %s: %w", msg, codec.ErrMalformed)
	}
	return num, typ, nil
}

// length reads the length of a length-delimited value, checking that it
// fits in what Config.MaxResponseBytes leaves.
func (s *protoStream) length(msg string, num protowire.Number) (int, error) {
	v, err := s.varint(msg, num)
	if err != nil {
		return 0, err
	}
	if s.limit >= 0 && v > uint64(s.limit-s.offset()) {
		return 0, errTooLarge(s.limit)
	}
	if v > uint64(maxInt) {
		return 0, fmt.Errorf("field %d of a protobuf %s claims %d bytes: %w", num, msg, v, codec.ErrMalformed)
	}
	return int(v), nil
}

const maxInt = int(^uint(0) >> 1)

// bytes consumes n bytes and returns them, valid until the next read.
func (s *protoStream) bytes(n int) ([]byte, error) {
	if err := s.fill(n); err != nil {
		return nil, err
	}
	v := s.buf[s.pos : s.pos+n : s.pos+n]
	s.pos += n
	return v, nil
}

// field reads a length-delimited field's value, valid until the next
// read; end, when not negative, is the offset it must end by.
func (s *protoStream) field(msg string, num protowire.Number, typ protowire.Type, end int64) ([]byte, error) {
	if typ != protowire.BytesType {
		return nil, wire.WrongType(msg, num)
	}
	n, err := s.length(msg, num)
	if err != nil {
		return nil, err
	}
	if end >= 0 && s.offset()+int64(n) > end {
		return nil, fmt.Errorf("field %d of a protobuf %s runs past the list's end: %w", num, msg, codec.ErrMalformed)
	}
	return s.bytes(n)
}

// skip consumes a field's value without holding it.
func (s *protoStream) skip(msg string, num protowire.Number, typ protowire.Type) error {
	var n int
	switch typ {
	case protowire.VarintType:
		_, err := s.varint(msg, num)
		return err
	case protowire.Fixed32Type:
		n = 4
	case protowire.Fixed64Type:
		n = 8
	case protowire.BytesType:
		var err error
		if n, err = s.length(msg, num); err != nil {
			return err
		}
	default: // groups: never written by Kubernetes
		return wire.WrongType(msg, num)
	}
	for n > 0 {
		step := min(n, streamReadSize)
		if err := s.fill(step); err != nil {
			return err
		}
		s.pos += step
		n -= step
	}
	return nil
}
