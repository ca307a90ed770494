package boxes_test

import (
	"fmt"

	"github.com/kubewire/kubewire/api/internal/boxes"
)

// A decoder keeps one Arena, boxes the values of one input from it and
// drops its chunks when it is given the next input.
func Example() {
	var a boxes.Arena
	input := []byte(`["web",8080,0.5,["a","b"]]`)
	left := len(input) // a decoder passes the bytes it has not read yet

	elems := a.Elems(2, left)
	elems[0], elems[1] = a.String("a", left), a.String("b", left)
	list := []any{a.String("web", left), a.Int(8080, left), a.Float(0.5, left), a.Slice(elems, left)}
	fmt.Println(list, a.Chunks())

	a.Drop() // the next input starts new chunks; list keeps its own
	fmt.Println(list, a.Chunks())
	// Output:
	// [web 8080 0.5 [a b]] 5
	// [web 8080 0.5 [a b]] 0
}
