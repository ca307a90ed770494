package unstructured_test

import (
	"fmt"

	"github.com/kubewire/kubewire/api/cborwire"
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

// A cache that keeps objects frozen can read them from CBOR straight
// into that form, without building the maps of an Unstructured.
func ExampleCBORFreezer() {
	cb, err := cborwire.FromJSON([]byte(`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w1","resourceVersion":"7"},"spec":{"size":3}}`))
	if err != nil {
		panic(err)
	}
	var z unstructured.CBORFreezer // reused: it keeps its scratch space
	f, err := z.Freeze(cborwire.NewDecoder(cb, nil))
	if err != nil {
		panic(err)
	}
	fmt.Println(f.Name(), f.ResourceVersion(), f.Thaw().Object["spec"])
	// Output:
	// w1 7 map[size:3]
}
