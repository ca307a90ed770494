package fieldpath

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// MarshalJSON encodes the set in the FieldsV1 format of managedFields:
// an object per node whose keys are path elements, "." marking a node
// that is itself a member, elements in kube-apiserver's order.
func (s *Set) MarshalJSON() ([]byte, error) {
	// Sized first, so that a large set is not copied as the buffer grows.
	b := bytes.NewBuffer(make([]byte, 0, s.encodedSize()))
	s.encode(b, false)
	return b.Bytes(), nil
}

// encodedSize is about the length of the set's encoding (at least it).
func (s *Set) encodedSize() int {
	n := 2
	for e := range s.members {
		n += len(e) + 8
	}
	for e, c := range s.children {
		n += len(e) + 12 + c.encodedSize()
	}
	return n
}

// encode writes the node and reports whether it holds any path; a
// child holding none is written as {} (the test is made on the way back
// up, so a deep set is written in time proportional to its size).
func (s *Set) encode(b *bytes.Buffer, self bool) bool {
	b.WriteByte('{')
	elems := s.elements()
	nonEmpty := len(s.members) > 0
	first := true
	if self && len(elems) > 0 {
		b.WriteString(`".":{}`)
		first = false
	}
	for _, e := range elems {
		if !first {
			b.WriteByte(',')
		}
		first = false
		b.WriteString(compactJSON(string(e)))
		b.WriteByte(':')
		mark := b.Len()
		if c := s.children[e]; c != nil && c.encode(b, s.members[e]) {
			nonEmpty = true
			continue
		}
		b.Truncate(mark)
		b.WriteString("{}")
	}
	b.WriteByte('}')
	return nonEmpty
}

// UnmarshalJSON decodes the FieldsV1 format, reading the document once
// (a deep set costs time and memory in proportion to its size).
func (s *Set) UnmarshalJSON(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	*s = *NewSet()
	if _, _, err := s.decode(dec, ""); err != nil {
		return fmt.Errorf("fieldsV1: %w", err)
	}
	return nil
}

// decode reads one node, an object of path elements (key names the
// element it is under, for errors), and reports how many elements it
// has and whether it marks itself ("."). A null node is an empty one.
func (s *Set) decode(dec *json.Decoder, key string) (n int, self bool, err error) {
	tok, err := dec.Token()
	if err != nil {
		return 0, false, err
	}
	if tok == nil {
		return 0, false, nil
	}
	if tok != json.Delim('{') {
		err := fmt.Errorf("json: cannot unmarshal %s into Go value of type map[string]json.RawMessage", tokenKind(tok))
		if key != "" {
			err = fmt.Errorf("%s: %w", key, err)
		}
		return 0, false, err
	}
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return 0, false, err
		}
		k, _ := kt.(string)
		if k == "." {
			self = true
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return 0, false, err
			}
			continue
		}
		n++
		e, err := ParseElement(k)
		if err != nil {
			return 0, false, err
		}
		c := NewSet()
		cn, cself, err := c.decode(dec, k)
		if err != nil {
			return 0, false, err
		}
		if cn == 0 || cself {
			s.members[e] = true
		}
		if cn > 0 {
			s.children[e] = c
		} else {
			delete(s.children, e)
		}
	}
	if _, err := dec.Token(); err != nil {
		return 0, false, err
	}
	return n, self, nil
}

// tokenKind names a JSON token's type as encoding/json's errors do.
func tokenKind(tok json.Token) string {
	switch tok.(type) {
	case string:
		return "string"
	case float64, json.Number:
		return "number"
	case bool:
		return "bool"
	case json.Delim:
		return "array"
	}
	return "value"
}
