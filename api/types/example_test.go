package types_test

import (
	"fmt"

	"github.com/kubewire/kubewire/api/types"
)

func ExampleNamespacedName() {
	key := types.NamespacedName{Namespace: "default", Name: "web-0"}
	fmt.Println(key)
	fmt.Println(types.StrategicMergePatchType)
	// Output:
	// default/web-0
	// application/strategic-merge-patch+json
}
