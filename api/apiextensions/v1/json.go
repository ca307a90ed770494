package v1

import (
	"bytes"
	"encoding/json"
	"errors"
)

// MarshalJSON writes Raw as it is, or null when it is empty.
func (s JSON) MarshalJSON() ([]byte, error) {
	if len(s.Raw) > 0 {
		return s.Raw, nil
	}
	return []byte("null"), nil
}

// UnmarshalJSON keeps a copy of any JSON value; null leaves Raw empty.
func (s *JSON) UnmarshalJSON(data []byte) error {
	if len(data) > 0 && !bytes.Equal(data, []byte("null")) {
		s.Raw = bytes.Clone(data)
	}
	return nil
}

// MarshalJSON writes the list of schemas when there is one, else the single
// schema.
func (s JSONSchemaPropsOrArray) MarshalJSON() ([]byte, error) {
	if len(s.JSONSchemas) > 0 {
		return json.Marshal(s.JSONSchemas)
	}
	return json.Marshal(s.Schema)
}

// UnmarshalJSON accepts a schema object or an array of schemas.
func (s *JSONSchemaPropsOrArray) UnmarshalJSON(data []byte) error {
	var out JSONSchemaPropsOrArray
	switch firstByte(data) {
	case '{':
		out.Schema = new(JSONSchemaProps)
		if err := json.Unmarshal(data, out.Schema); err != nil {
			return err
		}
	case '[':
		if err := json.Unmarshal(data, &out.JSONSchemas); err != nil {
			return err
		}
	case 'n':
	default:
		return errors.New("apiextensions/v1: JSONSchemaPropsOrArray must be an object or an array")
	}
	*s = out
	return nil
}

// MarshalJSON writes the schema when there is one, else the boolean.
func (s JSONSchemaPropsOrBool) MarshalJSON() ([]byte, error) {
	if s.Schema != nil {
		return json.Marshal(s.Schema)
	}
	return json.Marshal(s.Allows)
}

// UnmarshalJSON accepts a schema object (which allows) or a boolean.
func (s *JSONSchemaPropsOrBool) UnmarshalJSON(data []byte) error {
	var out JSONSchemaPropsOrBool
	switch firstByte(data) {
	case '{':
		out.Allows = true
		out.Schema = new(JSONSchemaProps)
		if err := json.Unmarshal(data, out.Schema); err != nil {
			return err
		}
	case 't', 'f':
		if err := json.Unmarshal(data, &out.Allows); err != nil {
			return err
		}
	case 'n':
	default:
		return errors.New("apiextensions/v1: JSONSchemaPropsOrBool must be an object or a boolean")
	}
	*s = out
	return nil
}

// MarshalJSON writes the property list when there is one, else the schema.
func (s JSONSchemaPropsOrStringArray) MarshalJSON() ([]byte, error) {
	if len(s.Property) > 0 {
		return json.Marshal(s.Property)
	}
	if s.Schema != nil {
		return json.Marshal(s.Schema)
	}
	return []byte("null"), nil
}

// UnmarshalJSON accepts a schema object or an array of property names.
func (s *JSONSchemaPropsOrStringArray) UnmarshalJSON(data []byte) error {
	var out JSONSchemaPropsOrStringArray
	switch firstByte(data) {
	case '{':
		out.Schema = new(JSONSchemaProps)
		if err := json.Unmarshal(data, out.Schema); err != nil {
			return err
		}
	case '[':
		if err := json.Unmarshal(data, &out.Property); err != nil {
			return err
		}
	case 'n':
	default:
		return errors.New("apiextensions/v1: JSONSchemaPropsOrStringArray must be an object or an array")
	}
	*s = out
	return nil
}

// firstByte returns the first non-space byte of data, or 0.
func firstByte(data []byte) byte {
	data = bytes.TrimLeft(data, " \t\r\n")
	if len(data) == 0 {
		return 0
	}
	return data[0]
}
