package client

import (
	"bytes"
	"fmt"

	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/codec"
)

// listStatus keeps, while a list answer streams, the top-level fields
// only a Status has, so that a Status sent in place of the list (an
// error with a 200, from a proxy or an aggregated server) is the
// server's error, as List reports it, and not an empty list. A list has
// none of these fields: a real list costs nothing.
type listStatus struct {
	fields []listStatusField
}

type listStatusField struct {
	key string
	raw []byte // the value's JSON or CBOR, copied out of the read buffer
}

// keep notes the value of a top-level field the streams do not read
// themselves, when a Status has that field; a key seen twice keeps its
// last value, so there are five fields at most.
func (s *listStatus) keep(key string, raw []byte) {
	switch key {
	case "status", "message", "reason", "details", "code":
	default:
		return
	}
	for i := range s.fields {
		if s.fields[i].key == key {
			s.fields[i].raw = bytes.Clone(raw)
			return
		}
	}
	s.fields = append(s.fields, listStatusField{key: key, raw: bytes.Clone(raw)})
}

// jsonError decodes the kept JSON fields as a Status and returns it as
// a *codec.StatusError.
func (s *listStatus) jsonError(meta metav1.ListMeta) error {
	var doc bytes.Buffer
	doc.WriteByte('{')
	for i, f := range s.fields {
		if i > 0 {
			doc.WriteByte(',')
		}
		fmt.Fprintf(&doc, "%q:", f.key) // the keys are plain ASCII
		doc.Write(f.raw)
	}
	doc.WriteByte('}')
	return s.statusError(meta, func(st *metav1.Status) error { return codec.DecodeJSON(doc.Bytes(), st) })
}

// cborError decodes the kept CBOR fields as a Status and returns it as
// a *codec.StatusError.
func (s *listStatus) cborError(meta metav1.ListMeta) error {
	doc := []byte{0xa0 | byte(len(s.fields))} // five entries at most: one head byte
	for _, f := range s.fields {
		doc = append(doc, 0x60|byte(len(f.key)))
		doc = append(doc, f.key...)
		doc = append(doc, f.raw...)
	}
	return s.statusError(meta, func(st *metav1.Status) error { return codec.DecodeCBOR(doc, st) })
}

func (s *listStatus) statusError(meta metav1.ListMeta, decode func(*metav1.Status) error) error {
	st := new(metav1.Status)
	if err := decode(st); err != nil {
		return fmt.Errorf("a Status in place of a list: %w", err)
	}
	st.Kind, st.APIVersion = "Status", "v1"
	st.ListMeta = meta
	return &codec.StatusError{Status: *st}
}
