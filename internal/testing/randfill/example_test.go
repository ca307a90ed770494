package randfill_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"

	"github.com/kubewire/kubewire/internal/testing/randfill"
)

func Example() {
	type point struct {
		Name string
		X, Y *int
		Tags map[string]string
	}
	f := &randfill.Filler{Rand: rand.New(rand.NewPCG(1, 2))}
	var a, b point
	f.Fill(&a)
	f.Fill(&b)
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	fmt.Println(string(ja) != string(jb)) // two fills differ
	// Output:
	// true
}
