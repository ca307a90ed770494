package errtext_test

import (
	"fmt"
	"strings"

	"github.com/kubewire/kubewire/internal/runtime/errtext"
)

func ExampleCut() {
	fmt.Println(errtext.Cut("Pod"))
	fmt.Println(len(errtext.Cut(strings.Repeat("x", 1<<20))))
	// Output:
	// Pod
	// 67
}
