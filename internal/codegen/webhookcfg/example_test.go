package webhookcfg_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"

	"github.com/kubewire/kubewire/internal/codegen/webhookcfg"
)

func Example() {
	src := `package hooks

// +kubebuilder:webhook:path=/validate-batch-example-com-v1-cronjob,mutating=false,failurePolicy=fail,sideEffects=None,groups=batch.example.com,resources=cronjobs,verbs=create;update,versions=v1,name=vcronjob-v1.example.com,admissionReviewVersions=v1
`
	fset := token.NewFileSet()
	f, _ := parser.ParseFile(fset, "hooks.go", src, parser.ParseComments)
	var m webhookcfg.Markers
	if _, err := m.Collect(fset, []*ast.File{f}); err != nil {
		fmt.Println(err)
		return
	}
	_, val, err := m.Build(webhookcfg.DefaultService)
	fmt.Println(err, val.Name, val.Webhooks[0].Name, *val.Webhooks[0].ClientConfig.Service.Path)
	// Output: <nil> validating-webhook-configuration vcronjob-v1.example.com /validate-batch-example-com-v1-cronjob
}
