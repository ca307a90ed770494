package apierr_test

import (
	"fmt"

	"github.com/kubewire/kubewire/api/registry"
	"github.com/kubewire/kubewire/fake/internal/apierr"
)

// A 404 and a 422 as kube-apiserver words them.
func ExampleNotFound() {
	pods, _ := registry.ByResource("", "v1", "pods")
	e := apierr.NotFound(pods, "web")
	fmt.Println(e.Status.Code, e.Status.Reason, e.Status.Message)

	e = apierr.Invalid("apps", "Deployment", "web",
		apierr.Cause{Type: "FieldValueInvalid", Field: "spec.replicas", Message: "Invalid value: -1: must be greater than or equal to 0"})
	fmt.Println(e.Status.Code, e.Status.Message)
	// Output:
	// 404 NotFound pods "web" not found
	// 422 Deployment.apps "web" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0
}
