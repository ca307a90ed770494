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
	var b bytes.Buffer
	s.encode(&b, false)
	return b.Bytes(), nil
}

func (s *Set) encode(b *bytes.Buffer, self bool) {
	b.WriteByte('{')
	elems := s.elements()
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
		if c := s.children[e]; c != nil && !c.Empty() {
			c.encode(b, s.members[e])
		} else {
			b.WriteString("{}")
		}
	}
	b.WriteByte('}')
}

// UnmarshalJSON decodes the FieldsV1 format.
func (s *Set) UnmarshalJSON(data []byte) error {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return fmt.Errorf("fieldsV1: %w", err)
	}
	*s = *NewSet()
	return s.decode(raw)
}

func (s *Set) decode(raw map[string]json.RawMessage) error {
	for k, v := range raw {
		if k == "." {
			continue
		}
		e, err := ParseElement(k)
		if err != nil {
			return fmt.Errorf("fieldsV1: %w", err)
		}
		var sub map[string]json.RawMessage
		if err := json.Unmarshal(v, &sub); err != nil {
			return fmt.Errorf("fieldsV1: %s: %w", k, err)
		}
		_, self := sub["."]
		if len(sub) == 0 || self {
			s.members[e] = true
		}
		if len(sub) > 0 && !(len(sub) == 1 && self) {
			c := s.child(e)
			if err := c.decode(sub); err != nil {
				return err
			}
		}
	}
	return nil
}
