package kinds_test

import (
	"fmt"

	"github.com/kubewire/kubewire/internal/codegen/kinds"
)

func ExamplePluralize() {
	for _, kind := range []string{"widget", "policy", "gateway", "ingress", "box", "match"} {
		fmt.Print(kinds.Pluralize(kind), " ")
	}
	fmt.Println()
	// Output: widgets policies gateways ingresses boxes matches
}
