package registry_test

import (
	"fmt"

	"github.com/kubewire/kubewire/api/registry"
)

// Look a kind up by its resource, as a client building a URL does.
func ExampleByResource() {
	k, ok := registry.ByResource("apps", "v1", "deployments")
	fmt.Println(ok, k.Kind, k.ListKind, k.Namespaced, k.PathPrefix(), k.HasVerb("watch"))
	// Output: true Deployment DeploymentList true /apis/apps/v1 true
}
