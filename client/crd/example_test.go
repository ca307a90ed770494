package crd_test

import (
	"fmt"

	"github.com/kubewire/kubewire/client/crd"
)

func ExampleParse() {
	crds, err := crd.Parse([]byte(`apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  names: {kind: Widget, plural: widgets}
  scope: Namespaced
  versions:
  - {name: v1, served: true, storage: true}
`))
	if err != nil {
		panic(err)
	}
	fmt.Println(crds[0].Name, crds[0].Spec.Names.Kind, crds[0].Spec.Versions[0].Name)
	// Output: widgets.example.com Widget v1
}
