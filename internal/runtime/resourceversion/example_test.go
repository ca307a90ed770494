package resourceversion_test

import (
	"fmt"

	"github.com/kubewire/kubewire/internal/runtime/resourceversion"
)

func Example() {
	a, b := "99", "100"
	if resourceversion.Comparable(a) && resourceversion.Comparable(b) {
		fmt.Println(resourceversion.Less(a, b))
	}
	fmt.Println(resourceversion.Comparable("007"))
	// Output:
	// true
	// false
}
