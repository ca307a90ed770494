package unstructured_test

import (
	"fmt"

	"github.com/kubewire/kubewire/api/unstructured"
)

// An informer keeps dynamic objects frozen; each Thaw is a new object,
// the caller's to modify.
func ExampleFreeze() {
	var u unstructured.Unstructured
	if err := u.UnmarshalJSON([]byte(`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w1","resourceVersion":"7"},"spec":{"size":3}}`)); err != nil {
		panic(err)
	}
	f, _, ok := unstructured.Freeze(&u, nil)
	fmt.Println(ok, f.Name(), f.ResourceVersion())
	a := f.Thaw()
	a.SetName("changed")
	fmt.Println(a.GetName(), f.Thaw().GetName())
	// Output:
	// true w1 7
	// changed w1
}
