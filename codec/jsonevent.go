package codec

import (
	"bytes"

	"github.com/kubewire/kubewire/api/jsonwire"
)

// nextInto is Next that, when the whole event is already in the buffer
// (the common case: kube-apiserver flushes each event, ending it with a
// newline, which cannot occur inside a compact event), reads it in one
// pass with dec and decodes the object into obj on the way, when "type"
// came first (kube-apiserver writes it first) and is not ERROR. decoded
// reports whether it did; when not, object holds the object's bytes as
// Next returns them. An event not yet whole goes to Next, which reads
// more, validating as it goes (so that bad input fails at once rather
// than when a newline comes), and obj is then decoded from its bytes; so
// does any event the one pass fails on, Next then reporting the error
// with its stream offset (obj may hold part of the event by then and is
// decoded again).
func (j *JSONStream) nextInto(dec *jsonwire.Decoder, obj jsonwire.Decodable) (eventType string, object []byte, decoded bool, err error) {
	if j.err == nil && obj != nil {
		p := j.pos
		for p < j.end && isJSONSpace(j.buf[p]) {
			p++
		}
		if p < j.end && j.buf[p] == '{' && bytes.IndexByte(j.buf[p:j.end], '\n') >= 0 {
			doc := j.buf[p:j.end]
			dec.Reset(doc)
			typ, start, end, done, ok := readEvent(dec, obj)
			if ok && dec.Offset() <= j.max {
				j.pos = p + dec.Offset()
				return typ, doc[start:end:end], done, nil
			}
		}
	}
	typ, raw, err := j.Next()
	return typ, raw, false, err
}

// readEvent reads one watch event document from dec. ok is false on any
// error, or when the event lacks a non-empty "type" or an "object", or
// has more than one "object".
func readEvent(dec *jsonwire.Decoder, obj jsonwire.Decodable) (typ string, start, end int, decoded, ok bool) {
	if !dec.OpenObject("watch event") {
		return "", 0, 0, false, false
	}
	objects := 0
	for i := 0; dec.NextField(i); i++ {
		switch string(dec.Key()) {
		case "type":
			b, isString := dec.StringBytes("string")
			if !isString {
				return "", 0, 0, false, false
			}
			typ = eventTypeString(b)
		case "object":
			objects++
			start = dec.Offset()
			if typ != "" && typ != EventError && objects == 1 {
				obj.DecodeJSON(dec)
				decoded = true
			} else {
				dec.Skip()
				decoded = false
			}
			end = dec.Offset()
		default:
			dec.Skip()
		}
	}
	if dec.Err() != nil || typ == "" || objects != 1 {
		return "", 0, 0, false, false
	}
	return typ, start, end, decoded, true
}
