package client

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/kubewire/kubewire/api/cborwire"
	"github.com/kubewire/kubewire/codec"
)

// checkApplyCBOR never panics, refuses with ErrMalformed, and what it
// takes converts (for the JSON retry after a 415) to a JSON object or to
// an error, never to another JSON value.
func FuzzCheckApplyCBOR(f *testing.F) {
	for _, js := range []string{`{"metadata":{"name":"w"},"spec":{"n":1,"f":1.5,"l":[null,true]}}`, `[1]`, `"s"`, `{}`} {
		f.Add(cborOf(f, js))
	}
	f.Add([]byte{0xa1, 0x61, 'a', 0xff})
	f.Add([]byte{0xbf, 0x61, 'a', 0x01, 0xff})
	f.Add([]byte{0xa1, 0x41, 'a', 0xf9, 0x7e, 0x00})
	f.Fuzz(func(t *testing.T, data []byte) {
		err := checkApplyCBOR(data)
		if err != nil {
			if !errors.Is(err, codec.ErrMalformed) {
				t.Fatalf("error %v does not match ErrMalformed", err)
			}
			return
		}
		js, err := cborwire.ToJSON(data)
		if err != nil {
			return
		}
		var obj map[string]any
		if err := json.Unmarshal(js, &obj); err != nil {
			t.Fatalf("a CBOR map converted to %s, not a JSON object: %v", js, err)
		}
	})
}
