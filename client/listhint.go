package client

import (
	"bytes"

	"github.com/kubewire/kubewire/api/jsonwire"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/api/runtime"
	"github.com/kubewire/kubewire/api/wire"
	"github.com/kubewire/kubewire/codec"
	"google.golang.org/protobuf/encoding/protowire"
)

// continueHint reads a list answer's continue token without decoding its
// items, so that the next page can be asked for while this one decodes.
// It looks where kube-apiserver writes the list's metadata: before the
// items (built-in kinds in JSON; protobuf, field 1) or after them
// (custom resources in JSON, whose keys are sorted). It reads only the
// top level up to "items" and the bytes after the items' closing
// bracket, never the items themselves: a hint costs next to nothing, and
// "" when the token is elsewhere or the bytes are not what it expects.
// The decoded list's token is the one that counts.
func continueHint(mt codec.MediaType, body []byte) string {
	switch {
	case mt.IsWatchStream():
		return ""
	case mt.IsProtobuf():
		return protoContinueHint(body)
	case mt.IsCBOR():
		return cborContinueHint(body)
	case mt.IsJSON():
		if tok, ok := jsonHeadHint(body); ok {
			return tok
		}
		return jsonTailHint(body)
	}
	return ""
}

// jsonHeadHint reads the top-level keys before "items"; ok reports that
// it found the list's metadata there.
func jsonHeadHint(body []byte) (string, bool) {
	d := jsonwire.NewDecoder(body, nil)
	if !d.OpenObject("List") {
		return "", false
	}
	for i := 0; d.NextField(i); i++ {
		switch string(d.Key()) {
		case "items":
			return "", false
		case "metadata":
			var m metav1.ListMeta
			if m.DecodeJSON(d) != nil {
				return "", false
			}
			return m.Continue, true
		default:
			d.Skip()
		}
	}
	return "", false
}

// jsonTailHint reads the top-level keys that follow the items' array:
// from the last ']' of the body, `,"kind":"...","metadata":{...}}`.
func jsonTailHint(body []byte) string {
	end := bytes.LastIndexByte(body, ']')
	if end < 0 {
		return ""
	}
	rest := bytes.TrimLeft(body[end+1:], " \t\r\n")
	if len(rest) == 0 || rest[0] != ',' {
		return ""
	}
	obj := make([]byte, 0, len(rest))
	obj = append(append(obj, '{'), rest[1:]...)
	d := jsonwire.NewDecoder(obj, nil)
	if !d.OpenObject("List") {
		return ""
	}
	for i := 0; d.NextField(i); i++ {
		if string(d.Key()) != "metadata" {
			d.Skip()
			continue
		}
		var m metav1.ListMeta
		if m.DecodeJSON(d) != nil {
			return ""
		}
		return m.Continue
	}
	return ""
}

// protoContinueHint reads field 1 (ListMeta) of the list message in a
// protobuf envelope, which kube-apiserver writes before the items.
func protoContinueHint(body []byte) string {
	var u runtime.Unknown
	d := new(wire.Decoder)
	if codec.DecodeEnvelopeInto(d, body, &u) != nil || u.Kind == "Status" {
		return ""
	}
	b := u.Raw
	num, typ, n := protowire.ConsumeTag(b)
	if n < 0 || num != 1 {
		return ""
	}
	v, n := wire.ConsumeBytes(typ, b[n:])
	if n < 0 {
		return ""
	}
	var m metav1.ListMeta
	if m.UnmarshalProto(d, v) != nil {
		return ""
	}
	return m.Continue
}
