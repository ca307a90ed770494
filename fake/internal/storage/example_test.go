package storage_test

import (
	"fmt"

	"github.com/kubewire/kubewire/api/registry"
	"github.com/kubewire/kubewire/fake/internal/fieldpath"
	"github.com/kubewire/kubewire/fake/internal/object"
	"github.com/kubewire/kubewire/fake/internal/storage"
)

// Every write gets the next resource version; older snapshots stay
// readable until the history is compacted.
func ExampleStore() {
	k, _ := registry.ByResource("", "v1", "configmaps")
	cms, _ := object.Builtin(k, &fieldpath.Builtins{})
	st := storage.New(100)
	create := func(name string) {
		d, _, _ := cms.DecodeJSON([]byte(`{"metadata":{"name":"` + name + `","namespace":"default"}}`))
		_, _, err := st.Write(cms, object.Key("default", name), false, func(cur *object.Stored, rv uint64) (string, *object.Stored, error) {
			next, err := d.Seal(rv)
			return storage.Added, next, err
		})
		if err != nil {
			panic(err)
		}
	}
	create("a")
	create("b")
	now, rv, _ := st.Snapshot(cms, 0)
	before, _, _ := st.Snapshot(cms, 1)
	fmt.Println(len(now), rv, len(before))
	st.Compact()
	_, _, err := st.Snapshot(cms, 1)
	fmt.Println(err)
	// Output:
	// 2 2 1
	// resource version compacted
}
