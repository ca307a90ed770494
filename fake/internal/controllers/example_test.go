package controllers_test

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/kubewire/kubewire/api/registry"
	"github.com/kubewire/kubewire/fake/internal/controllers"
	"github.com/kubewire/kubewire/fake/internal/fieldpath"
	"github.com/kubewire/kubewire/fake/internal/object"
	"github.com/kubewire/kubewire/fake/internal/request"
	"github.com/kubewire/kubewire/fake/internal/storage"
)

// configMaps is a cluster of ConfigMaps only, deleting at once.
type configMaps struct {
	st       *storage.Store
	cms, nss *object.Resource
}

func (c configMaps) Lookup(group, version, resource string) *object.Resource {
	switch {
	case group != "" || version != "v1":
	case resource == "configmaps":
		return c.cms
	case resource == "namespaces":
		return c.nss
	}
	return nil
}

func (c configMaps) LookupKind(group, version, kind string) *object.Resource {
	if group == "" && version == "v1" && kind == "ConfigMap" {
		return c.cms
	}
	return nil
}

func (c configMaps) StoredResources() []*object.Resource { return []*object.Resource{c.cms} }
func (c configMaps) Now() time.Time                      { return time.Now() }
func (c configMaps) Create(*object.Draft, string) bool   { return false }

func (c configMaps) Write(*object.Resource, string, func(*object.Draft) bool, string) bool {
	return false
}

func (c configMaps) Delete(res *object.Resource, key, _ string, _ *request.DeleteOptions) bool {
	_, _, err := c.st.Write(res, key, false, func(cur *object.Stored, rv uint64) (string, *object.Stored, error) {
		if cur == nil {
			return "", nil, nil
		}
		d, err := res.DraftOf(cur)
		if err != nil {
			return "", nil, err
		}
		o, err := d.Seal(rv)
		return storage.Deleted, o, err
	})
	return err == nil
}

// The garbage collector deletes an object whose owners are all gone.
func ExampleManager_Collect() {
	k, _ := registry.ByResource("", "v1", "configmaps")
	cms, _ := object.Builtin(k, &fieldpath.Builtins{})
	k, _ = registry.ByResource("", "v1", "namespaces")
	nss, _ := object.Builtin(k, &fieldpath.Builtins{})
	st := storage.New(100)
	d, _, _ := cms.DecodeJSON([]byte(`{"metadata":{"name":"child","namespace":"default","uid":"c1",
		"ownerReferences":[{"apiVersion":"v1","kind":"ConfigMap","name":"parent","uid":"p1"}]}}`))
	_, _, _ = st.Write(cms, "default/child", false, func(*object.Stored, uint64) (string, *object.Stored, error) {
		o, err := d.Seal(1)
		return storage.Added, o, err
	})
	var wg sync.WaitGroup
	m := &controllers.Manager{Store: st, Cluster: configMaps{st, cms, nss}, Context: context.Background(), Goroutines: &wg}
	m.Collect()
	wg.Wait()
	left, _, _ := st.Snapshot(cms, 0)
	fmt.Println(len(left))
	// Output:
	// 0
}
