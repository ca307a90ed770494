package client

import (
	"bytes"
	"fmt"

	"github.com/kubewire/kubewire/api/cborwire"
	"github.com/kubewire/kubewire/codec"
)

// refuseNullAnswer refuses an answer that is a bare null (JSON null, CBOR
// null or undefined) where an object was asked for. The decoders read a
// null into a struct or map as nothing at all, so without this a Get
// answered with null would return an empty object and no error, where
// kube-apiserver never answers null.
func refuseNullAnswer(contentType string, body []byte) error {
	mt, err := codec.ParseMediaType(contentType)
	if err != nil {
		return nil // the decoder says what is wrong with it
	}
	null := false
	switch {
	case mt.IsJSON():
		null = string(bytes.TrimSpace(body)) == "null"
	case mt.IsCBOR():
		b := bytes.TrimPrefix(body, cborwire.AppendSelfDescribed(nil))
		null = len(b) == 1 && (b[0] == 0xf6 || b[0] == 0xf7)
	}
	if null {
		return fmt.Errorf("the answer is null, not an object: %w", codec.ErrMalformed)
	}
	return nil
}
