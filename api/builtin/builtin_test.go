package builtin_test

import (
	"testing"

	"github.com/kubewire/kubewire/api/builtin"
	"github.com/kubewire/kubewire/api/registry"
)

// Every kind of the registry can be made, and is the kind asked for.
func TestEveryRegisteredKind(t *testing.T) {
	for _, k := range registry.All() {
		obj, ok := builtin.New(k.APIVersion(), k.Kind)
		if !ok {
			t.Errorf("New(%s, %s): no constructor", k.APIVersion(), k.Kind)
			continue
		}
		info, ok := obj.(interface{ KindInfo() registry.Kind })
		if !ok || info.KindInfo().Kind != k.Kind || info.KindInfo().APIVersion() != k.APIVersion() {
			t.Errorf("New(%s, %s) made %T", k.APIVersion(), k.Kind, obj)
		}
		if k.ListKind == "" {
			continue
		}
		list, ok := builtin.NewList(k.APIVersion(), k.ListKind)
		if !ok {
			t.Errorf("NewList(%s, %s): no constructor", k.APIVersion(), k.ListKind)
			continue
		}
		if info, ok := list.(interface{ KindInfo() registry.Kind }); !ok || info.KindInfo().Kind != k.Kind {
			t.Errorf("NewList(%s, %s) made %T", k.APIVersion(), k.ListKind, list)
		}
	}
}
