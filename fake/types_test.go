package fake

import (
	"testing"

	"github.com/kubewire/kubewire/api/registry"
)

// TestBuiltinKindsServed checks that every listable built-in kind is
// served, with objects of its own type.
func TestBuiltinKindsServed(t *testing.T) {
	s := New(Options{})
	defer s.Close()
	for _, k := range registry.All() {
		if k.ListKind == "" {
			continue
		}
		if s.lookup(k.Group, k.Version, k.Resource) == nil {
			t.Errorf("%s %s not served", k.APIVersion(), k.Resource)
		}
	}
}
