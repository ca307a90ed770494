package object_test

import (
	"fmt"

	"github.com/kubewire/kubewire/api/registry"
	"github.com/kubewire/kubewire/fake/internal/fieldpath"
	"github.com/kubewire/kubewire/fake/internal/object"
)

// A request body decoded into a draft, sealed into a stored version.
func ExampleResource_DecodeJSON() {
	k, _ := registry.ByResource("", "v1", "configmaps")
	cms, _ := object.Builtin(k, &fieldpath.Builtins{})
	d, unknown, err := cms.DecodeJSON([]byte(`{"metadata":{"name":"a","namespace":"default"},"data":{"k":"v"},"color":"red"}`))
	if err != nil {
		panic(err)
	}
	fmt.Println("unknown:", unknown)
	stored, err := d.Seal(7)
	if err != nil {
		panic(err)
	}
	fmt.Println(stored.Key, stored.RV)
	fmt.Println(string(stored.CompleteJSON()))
	// Output:
	// unknown: [color]
	// default/a 7
	// {"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"a","namespace":"default","resourceVersion":"7"},"data":{"k":"v"}}
}
