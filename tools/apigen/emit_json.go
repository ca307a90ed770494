package main

import (
	"go/types"

	"github.com/kubewire/kubewire/internal/codegen/jsoncodec"
)

// jsonDecoders are the hand-written types with a DecodeJSON method.
var jsonDecoders = map[string]bool{
	"k8s.io/apimachinery/pkg/apis/meta/v1.Time":       true,
	"k8s.io/apimachinery/pkg/apis/meta/v1.MicroTime":  true,
	"k8s.io/apimachinery/pkg/apis/meta/v1.FieldsV1":   true,
	"k8s.io/apimachinery/pkg/api/resource.Quantity":   true,
	"k8s.io/apimachinery/pkg/util/intstr.IntOrString": true,
	"k8s.io/apimachinery/pkg/runtime.RawExtension":    true,
}

// jsonEncoders are the hand-written types with an EncodeJSON method.
var jsonEncoders = map[string]bool{
	"k8s.io/apimachinery/pkg/apis/meta/v1.Time":       true,
	"k8s.io/apimachinery/pkg/apis/meta/v1.MicroTime":  true,
	"k8s.io/apimachinery/pkg/apis/meta/v1.FieldsV1":   true,
	"k8s.io/apimachinery/pkg/apis/meta/v1.Duration":   true,
	"k8s.io/apimachinery/pkg/api/resource.Quantity":   true,
	"k8s.io/apimachinery/pkg/util/intstr.IntOrString": true,
	"k8s.io/apimachinery/pkg/runtime.RawExtension":    true,
}

// generated reports whether n is a type apigen writes.
func (g *generator) generated(n *types.Named) bool {
	pm := g.m.byPath[n.Obj().Pkg().Path()]
	return pm != nil && pm.byName[n.Obj().Name()] != nil
}

// jsonGenerated reports whether apigen writes a DecodeJSON method for n:
// a generated struct, map or slice without a JSON form of its own.
func (g *generator) jsonGenerated(n *types.Named) bool {
	return g.generated(n) && jsoncodec.Supported(n, jsoncodec.Config{})
}

// jsonEncoded reports whether apigen writes an EncodeJSON method for n.
func (g *generator) jsonEncoded(n *types.Named) bool {
	return g.generated(n) && jsoncodec.EncoderSupported(n, jsoncodec.Config{})
}

// emitJSON writes zz_generated.json.go: the JSON decoders and encoders.
func (g *generator) emitJSON(pm *pkgModel) error {
	var dec, enc []*types.Named
	for _, t := range pm.types {
		if g.jsonGenerated(t.named) {
			dec = append(dec, t.named)
		}
		if g.jsonEncoded(t.named) {
			enc = append(enc, t.named)
		}
	}
	if len(dec) == 0 && len(enc) == 0 {
		return nil
	}
	f := g.newFile(pm)
	cfg := jsoncodec.Config{
		Qualifier: f.qualifier,
		Runtime:   func() string { return f.use(sdkModule+"/api/jsonwire", "jsonwire") },
		HasDecoder: func(n *types.Named) bool {
			return jsonDecoders[n.Obj().Pkg().Path()+"."+n.Obj().Name()] || g.jsonGenerated(n)
		},
		HasEncoder: func(n *types.Named) bool {
			return jsonEncoders[n.Obj().Pkg().Path()+"."+n.Obj().Name()] || g.jsonEncoded(n)
		},
		Unique: func(typeName, field string) bool { return uniqueStringFields[typeName+"."+field] },
	}
	if err := jsoncodec.Emit(&f.body, dec, cfg); err != nil {
		return err
	}
	if err := jsoncodec.EmitEncoders(&f.body, enc, cfg); err != nil {
		return err
	}
	return f.write("zz_generated.json.go")
}
