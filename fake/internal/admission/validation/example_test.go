package validation_test

import (
	"fmt"

	"github.com/kubewire/kubewire/api/registry"
	"github.com/kubewire/kubewire/fake/internal/admission/validation"
	"github.com/kubewire/kubewire/fake/internal/fieldpath"
	"github.com/kubewire/kubewire/fake/internal/object"
)

// An object whose label value is not one is refused with
// kube-apiserver's field path and message.
func ExampleValidator_Validate() {
	k, _ := registry.ByResource("", "v1", "configmaps")
	cms, _ := object.Builtin(k, &fieldpath.Builtins{})
	d, _, _ := cms.DecodeJSON([]byte(`{"metadata":{"name":"a","namespace":"default","labels":{"tier":"front end"}}}`))
	aerr := validation.New(nil).Validate(d, nil)
	fmt.Println(aerr.Status.Code, aerr.Status.Details.Causes[0].Field)
	// Output:
	// 422 metadata.labels
}
