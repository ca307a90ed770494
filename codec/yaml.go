package codec

import (
	"fmt"

	"sigs.k8s.io/yaml"
)

// YAML goes through JSON: a YAML body is converted to JSON and then decoded
// with encoding/json, as kube-apiserver and kubectl do (sigs.k8s.io/yaml),
// so a type needs only its JSON tags and an application/yaml body decodes
// into exactly the values its application/json twin does.

// YAMLToJSON converts one YAML document to JSON. Mapping keys become
// strings; a stream of several documents gives the first one only, as
// kube-apiserver never sends more in a response. Errors match
// ErrMalformed.
func YAMLToJSON(y []byte) (j []byte, err error) {
	defer func() {
		// The YAML parser is not ours; never let a parser bug on server
		// input take the program down.
		if r := recover(); r != nil {
			j, err = nil, malformed("yaml", -1, nil, "yaml parser panicked: %v", r)
		}
	}()
	j, err = yaml.YAMLToJSON(y)
	if err != nil {
		return nil, malformed("yaml", -1, err, "invalid YAML")
	}
	return j, nil
}

// JSONToYAML converts JSON to YAML, keys sorted. Errors match
// ErrMalformed.
func JSONToYAML(j []byte) (y []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			y, err = nil, malformed("json", -1, nil, "yaml encoder panicked: %v", r)
		}
	}()
	y, err = yaml.JSONToYAML(j)
	if err != nil {
		return nil, malformed("json", -1, err, "cannot convert to YAML")
	}
	return y, nil
}

// DecodeYAML decodes a YAML body into v: YAMLToJSON, then DecodeJSON.
// Error offsets refer to the converted JSON, not to the YAML.
func DecodeYAML(body []byte, v any) error {
	j, err := YAMLToJSON(body)
	if err != nil {
		return err
	}
	if err := DecodeJSON(j, v); err != nil {
		return fmt.Errorf("codec: decode yaml: %w", err)
	}
	return nil
}

// EncodeYAML returns the YAML encoding of v, made from its JSON encoding
// (so JSON tags and MarshalJSON methods apply).
func EncodeYAML(v any) ([]byte, error) {
	j, err := EncodeJSON(v)
	if err != nil {
		return nil, err
	}
	return JSONToYAML(j)
}
