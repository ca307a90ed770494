package main

import (
	"go/types"

	"github.com/kubewire/kubewire/internal/codegen/cborcodec"
)

// cborPackages are the packages apigen writes CBOR decoders for: what
// custom resources hold. Object metadata, conditions and times; and the
// built-in types operators embed in their own kinds: a PodTemplateSpec,
// ResourceRequirements, EnvVars, a JobTemplateSpec, an ObjectReference,
// a Deployment's strategy. Built-in kinds themselves travel as protobuf;
// a custom resource's field of a type of another package is read through
// its JSON decoder (cborwire.ViaJSON).
var cborPackages = map[string]bool{
	"k8s.io/apimachinery/pkg/apis/meta/v1": true,
	"k8s.io/api/core/v1":                   true,
	"k8s.io/api/apps/v1":                   true,
	"k8s.io/api/batch/v1":                  true,
}

// cborDecoders are the hand-written types with a DecodeCBOR method.
var cborDecoders = map[string]bool{
	"k8s.io/apimachinery/pkg/apis/meta/v1.Time":       true,
	"k8s.io/apimachinery/pkg/apis/meta/v1.MicroTime":  true,
	"k8s.io/apimachinery/pkg/apis/meta/v1.FieldsV1":   true,
	"k8s.io/apimachinery/pkg/apis/meta/v1.Duration":   true,
	"k8s.io/apimachinery/pkg/api/resource.Quantity":   true,
	"k8s.io/apimachinery/pkg/util/intstr.IntOrString": true,
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
