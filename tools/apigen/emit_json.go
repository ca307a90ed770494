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

// jsonGenerated reports whether apigen writes a DecodeJSON method for n:
// a generated struct, map or slice without a JSON form of its own.
func (g *generator) jsonGenerated(n *types.Named) bool {
	pm := g.m.byPath[n.Obj().Pkg().Path()]
	if pm == nil || pm.byName[n.Obj().Name()] == nil {
		return false
	}
	return jsoncodec.Supported(n, jsoncodec.Config{})
}

// emitJSON writes zz_generated.json.go: the JSON decoders.
func (g *generator) emitJSON(pm *pkgModel) error {
	var named []*types.Named
	for _, t := range pm.types {
		if g.jsonGenerated(t.named) {
			named = append(named, t.named)
		}
	}
	if len(named) == 0 {
		return nil
	}
	f := g.newFile(pm)
	cfg := jsoncodec.Config{
		Qualifier: f.qualifier,
		Runtime:   func() string { return f.use(sdkModule+"/api/jsonwire", "jsonwire") },
		HasDecoder: func(n *types.Named) bool {
			return jsonDecoders[n.Obj().Pkg().Path()+"."+n.Obj().Name()] || g.jsonGenerated(n)
		},
		Unique: func(typeName, field string) bool { return uniqueStringFields[typeName+"."+field] },
	}
	if err := jsoncodec.Emit(&f.body, named, cfg); err != nil {
		return err
	}
	return f.write("zz_generated.json.go")
}
