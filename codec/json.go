package codec

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/kubewire/kubewire/api/jsonwire"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/api/wire"
	"github.com/kubewire/kubewire/internal/runtime/errtext"
)

// Decode decodes a response body into v according to its Content-Type:
// JSON with encoding/json, YAML through JSON (so that both give the same
// values), CBOR (see DecodeCBOR), and protobuf through the envelope into
// v's Unmarshal method (see DecodeProtobuf). Parameters such as as=Table do not change the
// decoding; a watch stream (stream=watch) is not a body and is an error,
// as is any other media type, such as the text/html of a proxy's error
// page. Every failure to decode the body matches ErrMalformed.
func Decode(contentType string, body []byte, v any) error {
	mt, err := ParseMediaType(contentType)
	if err != nil {
		return err
	}
	return DecodeAs(mt, body, v)
}

// DecodeAs is Decode with the Content-Type already parsed.
//
// A body that turns out to be a meta/v1 Status while v is not one (an
// error the server sent with a success code, or a Status in a 2xx reply)
// is returned as a *StatusError.
func DecodeAs(mt MediaType, body []byte, v any) error {
	return DecodeAsWith(nil, mt, body, v)
}

// DecodeAsWith is DecodeAs interning the strings of JSON and CBOR bodies
// through table (see DecodeJSONWith).
func DecodeAsWith(table *wire.Decoder, mt MediaType, body []byte, v any) error {
	err := decodeAs(table, mt, body, v)
	if mt.IsProtobuf() {
		return err // DecodeProtobuf checked the envelope's kind
	}
	var kind string
	if err != nil {
		// A Status rarely fits the object's fields; look at its kind.
		var probe struct {
			Kind string `json:"kind"`
		}
		if decodeAs(nil, mt, body, &probe) != nil {
			return err
		}
		kind = probe.Kind
	} else if k, ok := v.(interface{ GetKind() string }); ok {
		kind = k.GetKind()
	}
	if serr := statusInPlaceOf(v, kind, func(st *metav1.Status) error { return decodeAs(nil, mt, body, st) }); serr != nil {
		return serr
	}
	return err
}

func decodeAs(table *wire.Decoder, mt MediaType, body []byte, v any) error {
	if mt.IsWatchStream() {
		return malformed("body", -1, errors.ErrUnsupported,
			"%q is a watch stream: read it with NewFrameReader or NewJSONStream", mt.String())
	}
	switch {
	case mt.IsJSON():
		return DecodeJSONWith(table, body, v)
	case mt.IsYAML():
		return DecodeYAML(body, v)
	case mt.IsProtobuf():
		u, ok := v.(ProtobufUnmarshaler)
		if !ok {
			return fmt.Errorf("codec: cannot decode protobuf into %s: it has no Unmarshal([]byte) error method", typeName(v))
		}
		return DecodeProtobuf(body, u)
	case mt.IsCBOR():
		return DecodeCBORWith(table, body, v)
	}
	return malformed("body", -1, errors.ErrUnsupported,
		"unsupported content type %q, want JSON, CBOR, YAML or protobuf", errtext.Cut(mt.String()))
}

// DecodeJSON decodes a JSON body into v: through v's generated DecodeJSON
// method when it has one (every built-in kind, Unstructured, and the types
// kubewire-gen writes), in one pass without reflection; otherwise with
// encoding/json. Both follow json.Unmarshal's semantics (unknown fields
// are ignored, numbers in an any become float64; decode into
// *unstructured.Unstructured to keep integers), except that the generated
// decoders match keys case-sensitively, as kube-apiserver does. Syntax
// and type errors match ErrMalformed and carry the byte offset.
func DecodeJSON(body []byte, v any) error {
	return DecodeJSONWith(nil, body, v)
}

// DecodeJSONWith is DecodeJSON interning strings through table (which may
// be nil): a reflector passes the Decoder its lists and watches share, so
// that objects decoded from JSON share strings as protobuf ones do.
func DecodeJSONWith(table *wire.Decoder, body []byte, v any) error {
	if dv, ok := v.(jsonwire.Decodable); ok {
		return jsonError(jsonwire.Decode(body, dv, table), v)
	}
	err := json.Unmarshal(body, v)
	if err == nil {
		return nil
	}
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	var inv *json.InvalidUnmarshalError
	switch {
	case errors.As(err, &syn):
		return malformed("json", syn.Offset, err, "invalid JSON")
	case errors.As(err, &typ):
		return malformed("json", typ.Offset, err, "cannot decode into %s", typeName(v))
	case errors.As(err, &inv):
		return fmt.Errorf("codec: decode json: %w", err) // a programming error, not bad input
	}
	return malformed("json", -1, err, "cannot decode into %s", typeName(v))
}

// jsonError turns a jsonwire error into a malformed error.
func jsonError(err error, v any) error {
	var syn *jsonwire.SyntaxError
	var typ *jsonwire.TypeError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &syn):
		return malformed("json", syn.Offset, err, "invalid JSON")
	case errors.As(err, &typ):
		return malformed("json", typ.Offset, err, "cannot decode into %s", typeName(v))
	}
	return malformed("json", -1, err, "cannot decode into %s", typeName(v))
}

// EncodeJSON returns the JSON encoding of v, the bytes json.Marshal
// returns: through v's generated EncodeJSON method when it has one (every
// built-in kind and apply configuration, Unstructured, and the types
// kubewire-gen writes), in one pass without reflection; otherwise with
// encoding/json.
func EncodeJSON(v any) ([]byte, error) {
	if ev, ok := v.(jsonwire.Encodable); ok {
		b, err := jsonwire.Encode(ev)
		if err != nil {
			return nil, fmt.Errorf("codec: encode json: %w", err)
		}
		return b, nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("codec: encode json: %w", err)
	}
	return b, nil
}
