package upstream_test

import (
	"fmt"

	"github.com/kubewire/kubewire/fake/internal/upstream"
)

// The recorded documents say what kube-apiserver v1.36.3 serves.
func Example() {
	d, err := upstream.LoadDiscovery()
	if err != nil {
		panic(err)
	}
	cols, err := upstream.LoadTableColumns()
	if err != nil {
		panic(err)
	}
	v3, err := upstream.LoadOpenAPIV3()
	if err != nil {
		panic(err)
	}
	var names []string
	for _, c := range cols["apps/deployments"] {
		names = append(names, c.Name)
	}
	_, hasApps := v3["apis/apps/v1"]
	fmt.Println(len(d.Paths["/apis/apps/v1"]) > 0, names, hasApps)
	// Output: true [Name Ready Up-to-date Available Age Containers Images Selector] true
}
