package conversion_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"

	apiextv1 "github.com/kubewire/kubewire/api/apiextensions/v1"
	"github.com/kubewire/kubewire/internal/codegen/conversion"
	"github.com/kubewire/kubewire/internal/codegen/kinds"
)

func Example() {
	// Two versions in one package, for brevity: V1 is the hub, V2 a spoke.
	src := `package p
type V1 struct{}
func (*V1) Hub() {}
type V2 struct{}
func (*V2) ConvertTo(*V1) error { return nil }
func (*V2) ConvertFrom(*V1) error { return nil }
`
	fset := token.NewFileSet()
	f, _ := parser.ParseFile(fset, "p.go", src, 0)
	pkg, _ := (&types.Config{}).Check("p", fset, []*ast.File{f}, nil)
	v1 := &kinds.Kind{Type: pkg.Scope().Lookup("V1").(*types.TypeName), Version: "v1"}
	v2 := &kinds.Kind{Type: pkg.Scope().Lookup("V2").(*types.TypeName), Version: "v2"}
	crd := &apiextv1.CustomResourceDefinition{}
	err := conversion.Apply(crd, []*kinds.Kind{v1, v2}, apiextv1.ServiceReference{Namespace: "system", Name: "webhook-service"})
	c := crd.Spec.Conversion
	fmt.Println(err, c.Strategy, c.Webhook.ClientConfig.Service.Name, *c.Webhook.ClientConfig.Service.Path)
	// Output: <nil> Webhook webhook-service /convert
}
