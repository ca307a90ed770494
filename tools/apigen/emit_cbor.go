package main

import (
	"go/types"

	"github.com/kubewire/kubewire/internal/codegen/cborcodec"
)

// cborPackages are the packages apigen writes CBOR decoders for: what
// custom resources hold (object metadata, conditions, times). Built-in
// kinds travel as protobuf; a custom resource's field of another built-in
// type is read through its JSON decoder (cborwire.ViaJSON).
var cborPackages = map[string]bool{
	"k8s.io/apimachinery/pkg/apis/meta/v1": true,
}

// cborDecoders are the hand-written types with a DecodeCBOR method.
var cborDecoders = map[string]bool{
	"k8s.io/apimachinery/pkg/apis/meta/v1.Time":      true,
	"k8s.io/apimachinery/pkg/apis/meta/v1.MicroTime": true,
	"k8s.io/apimachinery/pkg/apis/meta/v1.FieldsV1":  true,
	"k8s.io/apimachinery/pkg/apis/meta/v1.Duration":  true,
}

// cborGenerated reports whether apigen writes a DecodeCBOR method for n.
func (g *generator) cborGenerated(n *types.Named) bool {
	return cborPackages[n.Obj().Pkg().Path()] && g.generated(n) && cborcodec.Supported(n, cborcodec.Config{})
}

// emitCBOR writes zz_generated.cbor.go: the CBOR decoders.
func (g *generator) emitCBOR(pm *pkgModel) error {
	var dec []*types.Named
	for _, t := range pm.types {
		if g.cborGenerated(t.named) {
			dec = append(dec, t.named)
		}
	}
	if len(dec) == 0 {
		return nil
	}
	f := g.newFile(pm)
	name := func(n *types.Named) string { return n.Obj().Pkg().Path() + "." + n.Obj().Name() }
	cfg := cborcodec.Config{
		Qualifier:      f.qualifier,
		Runtime:        func() string { return f.use(sdkModule+"/api/cborwire", "cborwire") },
		HasDecoder:     func(n *types.Named) bool { return cborDecoders[name(n)] || g.cborGenerated(n) },
		HasJSONDecoder: func(n *types.Named) bool { return jsonDecoders[name(n)] || g.jsonGenerated(n) },
		Unique:         func(typeName, field string) bool { return uniqueStringFields[typeName+"."+field] },
	}
	if err := cborcodec.Emit(&f.body, dec, cfg); err != nil {
		return err
	}
	return f.write("zz_generated.cbor.go")
}
