package main

import (
	"bytes"
	"go/types"
	"strings"

	"github.com/kubewire/kubewire/internal/codegen/cborcodec"
	"github.com/kubewire/kubewire/internal/codegen/gofile"
	"github.com/kubewire/kubewire/internal/codegen/jsoncodec"
)

// cborCodecs writes one-pass CBOR decoders (DecodeCBOR, from
// internal/codegen/cborcodec) for the package's types: a kube-apiserver
// with CBORServingAndStorage serves custom resources as CBOR, which the
// client asks for first, and these read it without reflection or a
// detour through JSON.
func cborCodecs(f *gofile.File, tns []*types.TypeName) error {
	var dec []*types.Named
	own := map[*types.Named]bool{}
	for _, tn := range tns {
		n, ok := tn.Type().(*types.Named)
		if ok && cborcodec.Supported(n, cborcodec.Config{}) {
			dec = append(dec, n)
			own[n] = true
		}
	}
	if len(dec) == 0 {
		return nil
	}
	cfg := cborcodec.Config{
		Qualifier:  f.Qualifier(),
		Runtime:    func() string { return f.Import(cborcodec.RuntimePath, "cborwire") },
		HasDecoder: func(n *types.Named) bool { return own[n] || hasMethod(n, "DecodeCBOR") },
		// Types of this package get a JSON decoder too (jsonCodecs).
		HasJSONDecoder: func(n *types.Named) bool {
			return own[n] && jsoncodec.Supported(n, jsoncodec.Config{}) || hasMethod(n, "DecodeJSON")
		},
	}
	var body bytes.Buffer
	if err := cborcodec.Emit(&body, dec, cfg); err != nil {
		return err
	}
	f.P("%s", strings.TrimRight(body.String(), "\n"))
	return nil
}
