package codec

import (
	"errors"
	"fmt"
	"io"

	"github.com/kubewire/kubewire/api/cborwire"
	"github.com/kubewire/kubewire/api/jsonwire"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/api/runtime"
	"github.com/kubewire/kubewire/api/wire"
	"github.com/kubewire/kubewire/internal/runtime/errtext"
	"google.golang.org/protobuf/encoding/protowire"
)

// WatchDecoder reads the events of a watch response, framed as protobuf
// (application/vnd.kubernetes.protobuf;stream=watch), as a JSON stream or
// as a CBOR sequence (application/cbor-seq),
// and decodes each event's object into the caller's type.
//
// Call Next for each event, then Decode to get its object. Objects are
// decoded through one wire.Decoder for the whole stream, so strings
// repeated across events are stored once (and, with ReadOnly, equal maps
// too). A WatchDecoder is not safe for concurrent use.
type WatchDecoder struct {
	frames *FrameReader
	json   *JSONStream
	cbor   *CBORStream
	dec    *wire.Decoder
	jdec   *jsonwire.Decoder // for JSON streams, interning through dec

	eventType string
	raw       []byte // the current object: JSON, CBOR, or the envelope's raw message
	protobuf  bool
	cdec      *cborwire.Decoder // for CBOR streams, interning through dec
	env       runtime.Unknown
}

// WatchOptions configures a WatchDecoder.
type WatchOptions struct {
	StreamOptions
	// ReadOnly shares equal maps between decoded objects; see
	// wire.Decoder.ReadOnly. Only for objects nobody modifies.
	ReadOnly bool
	// Decoder, when set, decodes protobuf objects through this wire.Decoder
	// instead of a new one (and ReadOnly is ignored): a reflector shares
	// one between its lists and watches. It must not be used concurrently.
	Decoder *wire.Decoder
}

// NewWatchDecoder returns a decoder for a watch response body of the given
// Content-Type.
func NewWatchDecoder(contentType string, body io.Reader, opts WatchOptions) (*WatchDecoder, error) {
	mt, err := ParseMediaType(contentType)
	if err != nil {
		return nil, err
	}
	dec := opts.Decoder
	if dec == nil {
		dec = &wire.Decoder{ReadOnly: opts.ReadOnly}
	}
	w := &WatchDecoder{dec: dec}
	switch {
	case mt.IsProtobuf():
		w.frames = NewFrameReader(body, opts.StreamOptions)
	case mt.IsJSON():
		w.json = NewJSONStream(body, opts.StreamOptions)
	case mt.IsCBORSequence(), mt.IsCBOR():
		w.cbor = NewCBORStream(body, opts.StreamOptions)
	default:
		return nil, malformed("watch", -1, errors.ErrUnsupported, "unsupported watch content type %q", errtext.Cut(contentType))
	}
	return w, nil
}

// Next reads the next event and returns its type (one of the Event
// constants). An ERROR event is returned as a *StatusError, which matches
// ErrExpired when the watch's resourceVersion is too old. At the end of
// the stream Next returns io.EOF.
func (w *WatchDecoder) Next() (string, error) {
	w.eventType, w.raw = "", nil
	if w.json != nil || w.cbor != nil {
		next := w.json.Next
		if w.cbor != nil {
			next = w.cbor.Next
		}
		typ, obj, err := next()
		if err != nil {
			return "", err
		}
		w.eventType, w.raw = typ, obj
	} else {
		payload, err := w.frames.Next()
		if err != nil {
			return "", err
		}
		typ, object, err := splitWatchEvent(w.dec, payload)
		if err != nil {
			return "", err
		}
		if err := DecodeEnvelopeInto(w.dec, object, &w.env); err != nil {
			return "", fmt.Errorf("codec: %s event object: %w", errtext.Cut(typ), err)
		}
		if w.env.Raw == nil {
			// kube-apiserver always sends the object; without it there
			// is nothing to decode, not even an empty object.
			return "", malformed("watch event", -1, nil, "%q event whose envelope holds no object", errtext.Cut(typ))
		}
		if ct := w.env.ContentType; ct != "" && ct != MediaTypeProtobuf { // as DecodeProtobuf refuses it
			return "", malformed("watch event", -1, errors.ErrUnsupported,
				"%q event whose object %s %s is %q, not protobuf", errtext.Cut(typ), errtext.Cut(w.env.APIVersion), errtext.Cut(w.env.Kind), errtext.Cut(ct))
		}
		w.eventType, w.raw, w.protobuf = typ, w.env.Raw, true
	}
	if w.eventType == EventError {
		return w.eventType, w.statusError()
	}
	return w.eventType, nil
}

func (w *WatchDecoder) statusError() error {
	if k := w.env.Kind; w.protobuf && k != "" && k != "Status" { // named before its bytes are read
		return malformed("watch event", -1, nil, "ERROR event holding a %.40q, not a Status", k)
	}
	st := new(metav1.Status)
	var err error
	switch {
	case w.protobuf:
		err = st.UnmarshalProto(w.dec, w.raw)
	case w.cbor != nil:
		err = DecodeCBOR(w.raw, st)
	default:
		err = DecodeJSON(w.raw, st)
	}
	if err != nil {
		return fmt.Errorf("codec: ERROR event without a readable Status: %w", err)
	}
	if k := st.Kind; !w.protobuf && k != "" && k != "Status" { // another object, not the server's error
		return malformed("watch event", -1, nil, "ERROR event holding a %.40q, not a Status", k)
	}
	st.Kind, st.APIVersion = "Status", "v1"
	return &StatusError{Status: *st}
}

// NextObject reads the next event, as Next does, and decodes its object
// into v, as Decode does. For JSON streams it does both in one pass over
// the event when v has a generated decoder (see DecodeJSON) and the event
// is already buffered: the event is not scanned once for its end and
// again for the object. An ERROR event is returned as a *StatusError with
// its type and v untouched; an error decoding the object comes with the
// event's type.
func (w *WatchDecoder) NextObject(v any) (string, error) {
	if w.json == nil {
		typ, err := w.Next()
		if err != nil {
			return typ, err
		}
		return typ, w.Decode(v)
	}
	w.eventType, w.raw = "", nil
	if w.jdec == nil {
		w.jdec = jsonwire.NewDecoder(nil, w.dec)
	}
	dv, _ := v.(jsonwire.Decodable)
	typ, raw, decoded, err := w.json.nextInto(w.jdec, dv)
	if err != nil {
		return "", err
	}
	w.eventType, w.raw = typ, raw
	if typ == EventError {
		return typ, w.statusError()
	}
	if !decoded {
		if dv == nil {
			return typ, w.Decode(v)
		}
		w.jdec.Reset(raw) // the stream's Decoder, not a new one per event
		w.jdec.SetErr(dv.DecodeJSON(w.jdec))
		if err := jsonError(w.jdec.End(), v); err != nil {
			return typ, err
		}
	}
	return typ, w.statusInPlace(v)
}

// statusInPlace returns the Status an event other than ERROR carried as
// its object, decoded into v, as a *StatusError: a Get answered with a
// Status is that error too, where a metadata or dynamic watch would
// otherwise hand the Status over as an object (named by its selfLink, for
// protobuf). kube-apiserver sends a Status only in ERROR events.
func (w *WatchDecoder) statusInPlace(v any) error {
	if _, isStatus := v.(*metav1.Status); isStatus {
		return nil
	}
	if k, ok := v.(interface{ GetKind() string }); ok && k.GetKind() == "Status" {
		return w.statusError()
	}
	return nil
}

// Raw returns the current event's object as it came: JSON, or for protobuf
// streams the object's message without its envelope. It is valid until
// the next call to Next.
func (w *WatchDecoder) Raw() []byte { return w.raw }

// IsProtobuf reports whether the stream is protobuf framed.
func (w *WatchDecoder) IsProtobuf() bool { return w.frames != nil }

// Decode decodes the current event's object into v: through
// UnmarshalProto (or Unmarshal) for protobuf streams, encoding/json for
// JSON ones. For protobuf, v gets the apiVersion and kind the envelope
// carried.
func (w *WatchDecoder) Decode(v any) error {
	if w.raw == nil {
		return errors.New("codec: Decode called without a current event")
	}
	if w.cbor != nil {
		if dv, ok := v.(cborwire.Decodable); ok {
			if w.cdec == nil {
				w.cdec = cborwire.NewDecoder(nil, w.dec)
			}
			w.cdec.Reset(w.raw) // the stream's Decoder, not a new one per event
			w.cdec.SetErr(dv.DecodeCBOR(w.cdec))
			if err := cborError(w.cdec.End(), v); err != nil {
				return err
			}
			return w.statusInPlace(v)
		}
		if err := DecodeCBORWith(w.dec, w.raw, v); err != nil {
			return err
		}
		return w.statusInPlace(v)
	}
	if !w.protobuf {
		if err := DecodeJSONWith(w.dec, w.raw, v); err != nil {
			return err
		}
		return w.statusInPlace(v)
	}
	// The envelope names a Status before its bytes are read as v's.
	if err := statusInPlaceOf(v, w.env.Kind, func(st *metav1.Status) error { return st.UnmarshalProto(w.dec, w.raw) }); err != nil {
		return err
	}
	switch m := v.(type) {
	case interface {
		UnmarshalProto(*wire.Decoder, []byte) error
	}:
		if err := m.UnmarshalProto(w.dec, w.raw); err != nil {
			return fmt.Errorf("codec: decode %s %s: %w", errtext.Cut(w.env.APIVersion), errtext.Cut(w.env.Kind), err)
		}
	case ProtobufUnmarshaler:
		if err := m.Unmarshal(w.raw); err != nil {
			return fmt.Errorf("codec: decode %s %s: %w", errtext.Cut(w.env.APIVersion), errtext.Cut(w.env.Kind), err)
		}
	default:
		return fmt.Errorf("codec: cannot decode protobuf into %s: it has no Unmarshal method", typeName(v))
	}
	setTypeMeta(v, w.env.APIVersion, w.env.Kind)
	return nil
}

// splitWatchEvent reads a meta/v1 WatchEvent message (type = 1, object = 2,
// a RawExtension whose raw = 1) without copying the object's bytes, which
// stay valid until the frame buffer is reused.
func splitWatchEvent(d *wire.Decoder, b []byte) (string, []byte, error) {
	var typ string
	var object []byte
	for len(b) > 0 {
		num, wt, n := protowire.ConsumeTag(b)
		if n < 0 {
			return "", nil, wire.Error("WatchEvent", 0, n)
		}
		b = b[n:]
		switch num {
		case 1:
			v, n := wire.ConsumeBytes(wt, b)
			if n < 0 {
				return "", nil, wire.Error("WatchEvent", num, n)
			}
			typ = d.String(v)
			b = b[n:]
		case 2:
			ext, n := wire.ConsumeBytes(wt, b)
			if n < 0 {
				return "", nil, wire.Error("WatchEvent", num, n)
			}
			raw, err := rawExtensionBytes(ext)
			if err != nil {
				return "", nil, err
			}
			object = raw
			b = b[n:]
		default:
			n := wire.SkipField(num, wt, b)
			if n < 0 {
				return "", nil, wire.Error("WatchEvent", num, n)
			}
			b = b[n:]
		}
	}
	if typ == "" || object == nil {
		return "", nil, &wire.FieldError{Message: "WatchEvent", Reason: "event without a type or an object"}
	}
	return typ, object, nil
}

func rawExtensionBytes(b []byte) ([]byte, error) {
	var raw []byte
	for len(b) > 0 {
		num, wt, n := protowire.ConsumeTag(b)
		if n < 0 {
			return nil, wire.Error("RawExtension", 0, n)
		}
		b = b[n:]
		if num == 1 {
			v, n := wire.ConsumeBytes(wt, b)
			if n < 0 {
				return nil, wire.Error("RawExtension", num, n)
			}
			raw = v
			b = b[n:]
			continue
		}
		n = wire.SkipField(num, wt, b)
		if n < 0 {
			return nil, wire.Error("RawExtension", num, n)
		}
		b = b[n:]
	}
	return raw, nil
}
