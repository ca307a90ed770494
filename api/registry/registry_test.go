package registry_test

import (
	"testing"

	"github.com/kubewire/kubewire/api/registry"
)

// Every entry is found again by kind and by resource, and the table covers
// every group/version kube-apiserver v1.36.3 serves by default.
func TestLookupsAgreeWithAll(t *testing.T) {
	groups := map[string]bool{}
	for _, k := range registry.All() {
		groups[k.APIVersion()] = true
		byKind, ok := registry.ByKind(k.Group, k.Version, k.Kind)
		if !ok || byKind.Resource != k.Resource {
			t.Errorf("ByKind(%s, %s) = %+v, %v", k.APIVersion(), k.Kind, byKind, ok)
		}
		byRes, ok := registry.ByResource(k.Group, k.Version, k.Resource)
		if !ok || byRes.Kind != k.Kind {
			t.Errorf("ByResource(%s, %s) = %+v, %v", k.APIVersion(), k.Resource, byRes, ok)
		}
	}
	for _, gv := range []string{"v1", "apps/v1", "batch/v1", "autoscaling/v2", "rbac.authorization.k8s.io/v1",
		"resource.k8s.io/v1", "apiextensions.k8s.io/v1", "apiregistration.k8s.io/v1", "flowcontrol.apiserver.k8s.io/v1"} {
		if !groups[gv] {
			t.Errorf("no kind of %s in the registry", gv)
		}
	}
	if _, ok := registry.ByKind("example.com", "v1", "Widget"); ok {
		t.Error("a custom resource is in the built-in registry")
	}
	a, b := registry.All(), registry.All()
	a[0].Verbs[0] = "changed"
	if b[0].Verbs[0] == "changed" {
		t.Error("All returns shared slices")
	}
}
