package codec

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"unicode/utf8"

	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/api/runtime"
	"github.com/kubewire/kubewire/api/wire"
	"github.com/kubewire/kubewire/internal/runtime/errtext"
	"google.golang.org/protobuf/encoding/protowire"
)

// ProtobufMagic is the prefix of every Kubernetes protobuf body: "k8s"
// and a zero byte, followed by a runtime.Unknown message.
const ProtobufMagic = "k8s\x00"

// ProtobufMarshaler is implemented by the generated types (and by
// k8s.io/api's), which is all the protobuf path needs: no registry.
type ProtobufMarshaler interface {
	Marshal() ([]byte, error)
}

// ProtobufUnmarshaler is implemented by the generated types (and by
// k8s.io/api's). Unmarshal must copy what it keeps from its argument.
type ProtobufUnmarshaler interface {
	Unmarshal([]byte) error
}

// EncodeEnvelope returns ProtobufMagic followed by a runtime.Unknown
// holding apiVersion, kind and raw (the object's protobuf encoding), as
// kube-apiserver writes it: contentEncoding and contentType empty.
func EncodeEnvelope(apiVersion, kind string, raw []byte) []byte {
	u := runtime.Unknown{TypeMeta: runtime.TypeMeta{APIVersion: apiVersion, Kind: kind}, Raw: raw}
	if u.Raw == nil {
		u.Raw = []byte{} // the server always writes raw, even when empty
	}
	b := make([]byte, 0, len(ProtobufMagic)+u.Size())
	return u.AppendProto(append(b, ProtobufMagic...))
}

// EncodeProtobuf marshals v and wraps it in an envelope naming apiVersion
// and kind: the body of a protobuf create or update.
func EncodeProtobuf(apiVersion, kind string, v ProtobufMarshaler) ([]byte, error) {
	raw, err := v.Marshal()
	if err != nil {
		return nil, fmt.Errorf("codec: marshal %s %s: %w", apiVersion, kind, err)
	}
	return EncodeEnvelope(apiVersion, kind, raw), nil
}

// DecodeEnvelope checks body's magic and decodes the runtime.Unknown that
// follows. The returned Raw aliases body, which must therefore stay
// unchanged while Raw is used (decoding Raw with a generated Unmarshal
// copies what it keeps, after which body may be reused). It is
// DecodeEnvelopeInto with a new Unknown and no string table.
func DecodeEnvelope(body []byte) (*runtime.Unknown, error) {
	u := new(runtime.Unknown)
	if err := DecodeEnvelopeInto(nil, body, u); err != nil {
		return nil, err
	}
	return u, nil
}

// DecodeEnvelopeInto is DecodeEnvelope writing into u, which it resets
// first, and interning apiVersion and kind through d (which may be nil):
// a watch stream decoding thousands of envelopes of the same kind then
// allocates none of these strings. u.Raw aliases body.
//
// It fails, with an error matching ErrMalformed, when body does not start
// with ProtobufMagic (the error shows the bytes found and says when they
// look like JSON, YAML or HTML), when the message is malformed, and when
// contentEncoding is not empty: kube-apiserver never compresses raw, so
// another value is a format this package does not know (that error also
// matches errors.ErrUnsupported). A contentType other than protobuf is
// returned as it is for the caller to act on.
func DecodeEnvelopeInto(d *wire.Decoder, body []byte, u *runtime.Unknown) error {
	*u = runtime.Unknown{}
	if !bytes.HasPrefix(body, []byte(ProtobufMagic)) {
		return badPrefix(body)
	}
	b := body[len(ProtobufMagic):]
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return envelopeError(body, b, wire.Error("Unknown", 0, n))
		}
		field := b
		b = b[n:]
		if num < 1 || num > 4 {
			n := wire.SkipField(num, typ, b)
			if n < 0 {
				return envelopeError(body, field, wire.Error("Unknown", num, n))
			}
			u.UnknownFields.Append(field[:len(field)-len(b)+n])
			b = b[n:]
			continue
		}
		v, n := wire.ConsumeBytes(typ, b)
		if n < 0 {
			return envelopeError(body, field, wire.Error("Unknown", num, n))
		}
		b = b[n:]
		switch num {
		case 1:
			if err := u.TypeMeta.UnmarshalProto(d, v); err != nil {
				return envelopeError(body, field, err)
			}
		case 2:
			u.Raw = v[:len(v):len(v)]
		case 3:
			u.ContentEncoding = d.String(v)
		case 4:
			u.ContentType = d.String(v)
		}
	}
	if enc := u.ContentEncoding; enc != "" {
		*u = runtime.Unknown{}
		return malformed("protobuf envelope", -1, errors.ErrUnsupported,
			"unsupported contentEncoding %q (kube-apiserver sends none)", errtext.Cut(enc))
	}
	return nil
}

// DecodeProtobuf decodes a protobuf body into v: it checks the envelope
// (see DecodeEnvelopeInto), calls v.Unmarshal on the raw object, and sets
// v's apiVersion and kind from the envelope when v has SetAPIVersion and
// SetKind (the protobuf message itself does not carry them). It fails when
// the envelope's contentType is neither empty nor protobuf, and when it
// has no raw field (an empty one is an empty object). When the
// envelope holds a Status and v is not one, it returns a *StatusError.
func DecodeProtobuf(body []byte, v ProtobufUnmarshaler) error {
	var u runtime.Unknown
	if err := DecodeEnvelopeInto(nil, body, &u); err != nil {
		return err
	}
	if u.ContentType != "" && u.ContentType != MediaTypeProtobuf {
		return malformed("protobuf envelope", -1, errors.ErrUnsupported,
			"raw %s %s is %q, not protobuf", u.APIVersion, u.Kind, errtext.Cut(u.ContentType))
	}
	if u.Raw == nil {
		// kube-apiserver always writes raw; without it there is no object,
		// not even an empty one (a watch event refuses it too).
		return malformed("protobuf envelope", -1, nil, "the envelope of %s %s holds no object", u.APIVersion, u.Kind)
	}
	if err := statusInPlaceOf(v, u.Kind, func(st *metav1.Status) error { return st.Unmarshal(u.Raw) }); err != nil {
		return err
	}
	if err := v.Unmarshal(u.Raw); err != nil {
		return fmt.Errorf("codec: decode %s %s into %s: %w", u.APIVersion, u.Kind, typeName(v), err)
	}
	setTypeMeta(v, u.APIVersion, u.Kind)
	return nil
}

// setTypeMeta gives v the apiVersion and kind an envelope carried.
func setTypeMeta(v any, apiVersion, kind string) {
	if tm, ok := v.(interface {
		SetAPIVersion(string)
		SetKind(string)
	}); ok {
		tm.SetAPIVersion(apiVersion)
		tm.SetKind(kind)
	}
}

func typeName(v any) string {
	if v == nil {
		return "nil"
	}
	return reflect.TypeOf(v).String()
}

// envelopeError reports err at the position of rest within body.
func envelopeError(body, rest []byte, err error) error {
	return malformed("protobuf envelope", int64(len(body)-len(rest)), err, "invalid runtime.Unknown")
}

// badPrefix describes a body that lacks the magic, showing its first bytes
// and guessing what it is, since the usual cause is a response in another
// encoding than the Content-Type said (or a proxy's error page).
func badPrefix(body []byte) error {
	const show = 16
	head := body[:min(len(body), show)]
	if len(body) == 0 {
		return malformed("protobuf envelope", 0, nil, "empty body, want the magic 6b387300 (\"k8s\\x00\")")
	}
	if len(body) < len(ProtobufMagic) && bytes.HasPrefix([]byte(ProtobufMagic), body) {
		return malformed("protobuf envelope", 0, nil,
			"body is %d bytes, shorter than the 4-byte magic 6b387300 (\"k8s\\x00\")", len(body))
	}
	hint := ""
	trimmed := bytes.TrimLeft(body, " \t\r\n")
	switch {
	case len(trimmed) > 0 && (trimmed[0] == '{' || trimmed[0] == '['):
		hint = "; it looks like JSON: was the response application/json?"
	case len(trimmed) > 0 && trimmed[0] == '<':
		hint = "; it looks like HTML or XML: is a proxy answering instead of the API server?"
	case bytes.HasPrefix(trimmed, []byte("apiVersion:")) || bytes.HasPrefix(trimmed, []byte("kind:")) ||
		bytes.HasPrefix(trimmed, []byte("---")):
		hint = "; it looks like YAML: was the response application/yaml?"
	}
	more := ""
	if len(body) > show {
		more = "..."
	}
	text := ""
	if utf8.Valid(head) {
		text = fmt.Sprintf(" (%q%s)", head, more)
	}
	return malformed("protobuf envelope", 0, nil,
		"body starts with %x%s%s, not the magic 6b387300 (\"k8s\\x00\")%s", head, more, text, hint)
}
