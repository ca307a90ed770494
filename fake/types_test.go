package fake

import (
	"testing"

	"github.com/kubewire/kubewire/api/registry"
)

// TestBuiltinTypesCoverRegistry checks the constructor table against the
// registry: every listable kind is served, and every constructor makes
// the kind it is filed under.
func TestBuiltinTypesCoverRegistry(t *testing.T) {
	types := builtinTypes()
	for _, k := range registry.All() {
		if k.ListKind == "" {
			continue
		}
		key := k.APIVersion() + "/" + k.Kind
		newT, ok := types[key]
		if !ok {
			t.Errorf("no constructor for %s", key)
			continue
		}
		info, ok := newT().(interface{ KindInfo() registry.Kind })
		if !ok || info.KindInfo().Kind != k.Kind || info.KindInfo().APIVersion() != k.APIVersion() {
			t.Errorf("constructor for %s makes %T", key, newT())
		}
	}
	s := New(Options{})
	defer s.Close()
	if s.lookup("apps", "v1", "deployments") == nil || s.lookup("", "v1", "pods") == nil {
		t.Error("deployments or pods not served")
	}
}
