package unstructured_test

import (
	"encoding/json"
	"fmt"

	"github.com/kubewire/kubewire/api/unstructured"
)

func Example() {
	body := []byte(`{"apiVersion":"example.com/v1","kind":"Widget",
		"metadata":{"name":"w1","namespace":"fixtures","resourceVersion":"237"},
		"spec":{"color":"blue","size":1}}`)

	var w unstructured.Unstructured
	if err := json.Unmarshal(body, &w); err != nil {
		panic(err)
	}
	group, version, kind := w.GroupVersionKind()
	size, _, _ := unstructured.NestedInt64(w.Object, "spec", "size")
	fmt.Println(group, version, kind, w.GetNamespace()+"/"+w.GetName(), size)

	// Cached objects are shared: change a copy.
	c := w.DeepCopy()
	if err := unstructured.SetNestedField(c.Object, size+1, "spec", "size"); err != nil {
		panic(err)
	}
	c.SetLabels(map[string]string{"tier": "gold"})
	out, _ := json.Marshal(c)
	fmt.Println(string(out))
	// Output:
	// example.com v1 Widget fixtures/w1 1
	// {"apiVersion":"example.com/v1","kind":"Widget","metadata":{"labels":{"tier":"gold"},"name":"w1","namespace":"fixtures","resourceVersion":"237"},"spec":{"color":"blue","size":2}}
}
