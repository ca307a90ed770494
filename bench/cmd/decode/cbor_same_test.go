package main

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/kubewire/kubewire/bench/internal/crgen"
)

// TestCBORDecodesAsJSON checks the decoders the CBOR rows time against
// the JSON ones on the same objects: on every shape, typed and dynamic,
// plain and read-only, kubewire's CBOR decode of a list writes back the
// same JSON as its JSON decode of that list. A CBOR row timing a decoder
// that drops a field or mangles raw JSON (a policy's pattern, a
// managedFields entry) would compare unlike work; this catches it.
func TestCBORDecodesAsJSON(t *testing.T) {
	n := 40
	if testing.Short() {
		n = 8
	}
	for _, shape := range crgen.Shapes {
		js := crList(shape, n)
		cb := cborList(js)
		for _, kind := range []string{"typed", "dynamic"} {
			kwJSON, _ := crDecoders(kind, shape)
			kwCBOR, _ := cborDecoders(kind, shape)
			for i, mode := range []string{"plain", "read-only"} {
				t.Run(shape.String()+"/"+kind+"/"+mode, func(t *testing.T) {
					want := marshalDecoded(t, kwJSON[i], js)
					got := marshalDecoded(t, kwCBOR[i], cb)
					if !bytes.Equal(got, want) {
						t.Errorf("CBOR decode writes %d bytes of JSON, JSON decode %d; they differ from byte %d:\ncbor: %.300s\njson: %.300s",
							len(got), len(want), firstDifference(got, want), got[firstDifference(got, want):], want[firstDifference(got, want):])
					}
				})
			}
		}
	}
}

// marshalDecoded decodes in with dec and returns the result as JSON.
func marshalDecoded(t *testing.T, dec decoder, in []byte) []byte {
	t.Helper()
	v, err := dec.decode(in)
	if err != nil {
		t.Fatalf("%s: %v", dec.name, err)
	}
	out, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("%s: marshal: %v", dec.name, err)
	}
	return out
}

// firstDifference is the offset of the first byte where a and b differ.
func firstDifference(a, b []byte) int {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	return i
}
