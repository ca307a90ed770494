package client

import (
	"fmt"

	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/api/runtime"
	"github.com/kubewire/kubewire/api/wire"
	"github.com/kubewire/kubewire/codec"
	"google.golang.org/protobuf/encoding/protowire"
)

// protoEvents reads a protobuf watch stream, decoding through a
// caller-chosen wire.Decoder (codec.WatchDecoder always makes its own),
// so that a reflector's list and watch share one string and map table.
type protoEvents struct {
	frames *codec.FrameReader
	dec    *wire.Decoder
	env    runtime.Unknown
	typ    string
}

func (p *protoEvents) next() (string, error) {
	payload, err := p.frames.Next()
	if err != nil {
		return "", err
	}
	typ, object, err := splitWatchEvent(p.dec, payload)
	if err != nil {
		return "", err
	}
	if err := codec.DecodeEnvelopeInto(p.dec, object, &p.env); err != nil {
		return "", fmt.Errorf("%s event object: %w", typ, err)
	}
	p.typ = typ
	if typ == codec.EventError {
		st := new(metav1.Status)
		if err := st.UnmarshalProto(p.dec, p.env.Raw); err != nil {
			return "", fmt.Errorf("ERROR event without a readable Status: %w", err)
		}
		st.Kind, st.APIVersion = "Status", "v1"
		return typ, &codec.StatusError{Status: *st}
	}
	return typ, nil
}

func (p *protoEvents) decode(v any) error {
	m, ok := v.(protoObject)
	if !ok {
		return fmt.Errorf("cannot decode protobuf %s into %T", p.env.Kind, v)
	}
	if err := m.UnmarshalProto(p.dec, p.env.Raw); err != nil {
		return fmt.Errorf("decode %s %s: %w", p.env.APIVersion, p.env.Kind, err)
	}
	if tm, ok := v.(interface {
		SetAPIVersion(string)
		SetKind(string)
	}); ok {
		tm.SetAPIVersion(p.env.APIVersion)
		tm.SetKind(p.env.Kind)
	}
	return nil
}

// splitWatchEvent reads a meta/v1 WatchEvent message (type = 1, object =
// 2, a RawExtension whose raw = 1) without copying the object's bytes.
func splitWatchEvent(d *wire.Decoder, b []byte) (string, []byte, error) {
	var typ string
	var object []byte
	for len(b) > 0 {
		num, wt, n := protowire.ConsumeTag(b)
		if n < 0 {
			return "", nil, wire.Error("WatchEvent", 0, n)
		}
		b = b[n:]
		if num != 1 && num != 2 {
			n := wire.SkipField(num, wt, b)
			if n < 0 {
				return "", nil, wire.Error("WatchEvent", num, n)
			}
			b = b[n:]
			continue
		}
		v, n := wire.ConsumeBytes(wt, b)
		if n < 0 {
			return "", nil, wire.Error("WatchEvent", num, n)
		}
		b = b[n:]
		if num == 1 {
			typ = d.String(v)
			continue
		}
		raw, err := rawExtension(v)
		if err != nil {
			return "", nil, err
		}
		object = raw
	}
	if typ == "" || object == nil {
		return "", nil, fmt.Errorf("watch event without a type or an object: %w", codec.ErrMalformed)
	}
	return typ, object, nil
}

// rawExtension returns field 1 (raw) of a runtime.RawExtension message.
func rawExtension(b []byte) ([]byte, error) {
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
	if raw == nil {
		return nil, fmt.Errorf("watch event object has no raw bytes: %w", codec.ErrMalformed)
	}
	return raw, nil
}
